import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { SettlementDayProgress } from '../../src/temporal/settlement-contract';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

/**
 * The daily run's own bookkeeping for thousands of merchants: the point is the workflow (its pages,
 * bounded starts, continue-as-new and the progress it carries), so its activities are fakes here;
 * test/workflows/settlement.test.ts runs it with the real activities on the real store.
 */
describe('settlement day workflow with thousands of merchants (time-skipping, fake activities)', function () {
  this.timeout(600_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'settlement-day-test';

  it('walks every merchant once, continuing as new under the history limit, and carries starts and failures across runs', async () => {
    const merchants = Array.from({ length: 4_000 }, (_, i) => `m${String(i).padStart(5, '0')}`);
    const broken = new Set(['m00007', 'm03999']);
    const startedTwice: string[] = [];
    const seen = new Set<string>();
    let inFlight = 0;
    let mostInFlight = 0;
    const activities = {
      async settlementRunDate(i: { settlementDate?: string }) {
        return { settlementDate: i.settlementDate!, workingDay: true };
      },
      async settlementMerchantsPage(i: { after: string | null; limit: number }) {
        const page = merchants.filter((m) => i.after === null || m > i.after).slice(0, i.limit);
        return { merchants: page, next: page.length < i.limit ? null : page[page.length - 1]! };
      },
      async startMerchantSettlement(i: { merchantIdentifier: string }) {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        if (broken.has(i.merchantIdentifier)) throw ApplicationFailure.nonRetryable('its orders cannot be read', 'TypeError');
        if (seen.has(i.merchantIdentifier)) startedTwice.push(i.merchantIdentifier);
        seen.add(i.merchantIdentifier);
        return i.merchantIdentifier.endsWith('0') ? 'nothing_due' : 'started';
      },
      async previousWorkingDay() {
        return '2026-11-23';
      },
      async reconcileSettlementFile() {
        return { payouts: 0, differences: 0 };
      },
    };
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const workflowId = `settlement-day:${randomBytes(4).toString('hex')}`;
    const result = (await worker.runUntil(
      env().client.workflow.execute('settlementDayWorkflow', { workflowId, taskQueue, args: [{ settlementDate: '2026-11-24' }] }),
    )) as Omit<SettlementDayProgress, 'after'> & { settlementDate: string };
    assert.deepEqual(startedTwice, []);
    assert.equal(seen.size, merchants.length - broken.size);
    assert.equal(result.started, 4_000 - 400 - 2, 'carried across runs: every merchant not ending in 0, but the broken');
    assert.deepEqual(
      result.failed.map((f) => f.merchantIdentifier),
      ['m00007', 'm03999'],
    );
    assert.equal(result.failedCount, 2);
    assert.ok(mostInFlight <= 10, `at most 10 starts at once (${mostInFlight})`);
    // The chain: more than one run, none of them near Temporal's 51,200 events.
    const handle = env().client.workflow.getHandle(workflowId);
    const last = await handle.describe();
    assert.ok(last.raw.workflowExecutionInfo?.firstRunId, 'the server names the first run');
    assert.notEqual(last.runId, last.raw.workflowExecutionInfo.firstRunId, 'the run continued as new');
    assert.ok(last.historyLength < 12_000, `the last run's history: ${last.historyLength} events`);
  });
});
