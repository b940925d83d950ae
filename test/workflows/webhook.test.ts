import { strict as assert } from 'node:assert';
import { Worker } from '@temporalio/worker';
import { parseDurationList } from '../../src/domain/durations';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

const SCHEDULE = parseDurationList('0,5s,5m,30m,2h,5h,10h,10h');

/** The delivery workflow's durable retry schedule, with the HTTP attempt faked (the point is the timers). */
describe('webhook delivery workflow (time-skipping)', function () {
  this.timeout(120_000);
  const env = timeSkippingPerSuite();

  async function deliver(acknowledgeAt: number | null) {
    const attemptTimes: number[] = [];
    const finished: string[] = [];
    const activities = {
      async prepareRealtimeWebhook() {
        return {
          send: true,
          url: 'http://receiver.example/hooks?realtime=true',
          contentType: 'application/json',
          body: '{}',
          scheduleMs: SCHEDULE,
        };
      },
      async attemptWebhook(input: { attempt: number }) {
        attemptTimes.push(await env().currentTimeMs());
        return { acknowledged: input.attempt === acknowledgeAt };
      },
      async finishWebhook(input: { state: string }) {
        finished.push(input.state);
      },
    };
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue: 'webhook-test',
      workflowBundle: await workflowBundle(),
      activities,
    });
    const result = await worker.runUntil(
      env().client.workflow.execute('webhookDeliveryWorkflow', {
        workflowId: `webhook:test-${acknowledgeAt}`,
        taskQueue: 'webhook-test',
        args: [{ deliveryId: `test-${acknowledgeAt}`, merchantIdentifier: 'm', orderId: 'o' }],
      }),
    );
    return { result, attemptTimes, finished };
  }

  it('attempts 8 times over about 27.5 hours of durable timers, then fails the delivery', async () => {
    const { result, attemptTimes, finished } = await deliver(null);
    assert.deepEqual(result, { state: 'failed', attempts: 8 });
    assert.deepEqual(finished, ['failed']);
    const gaps = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!);
    SCHEDULE.slice(1).forEach((wait, i) => assert.ok(gaps[i]! >= wait, `gap ${i + 1}: ${gaps[i]} ms >= ${wait} ms`));
    assert.ok(attemptTimes.at(-1)! - attemptTimes[0]! >= 27.5 * 3_600_000 - 1000);
  });

  it('stops at the first SUCCESS', async () => {
    const { result, attemptTimes, finished } = await deliver(3);
    assert.deepEqual(result, { state: 'delivered', attempts: 3 });
    assert.equal(attemptTimes.length, 3);
    // The acknowledged attempt records the delivery itself: no separate finishing activity.
    assert.deepEqual(finished, []);
  });
});
