import { strict as assert } from 'node:assert';
import { Worker } from '@temporalio/worker';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

/**
 * The reconciliation workflow with its store activities faked (the point is the workflow): it
 * applies every batch once, in order, passes only batch numbers, and finishes once.
 */
describe('reconciliation workflow (time-skipping)', function () {
  this.timeout(120_000);
  const env = timeSkippingPerSuite();

  it('applies each batch once, in order, then finishes; a failing batch is retried, not skipped', async () => {
    const applied: number[] = [];
    let failedOnce = false;
    const activities = {
      async applyReconciliationBatch(input: { reconciliationId: string; batch: number }) {
        assert.deepEqual(Object.keys(input).sort(), ['batch', 'reconciliationId'], 'only ids travel through history');
        if (input.batch === 2 && !failedOnce) {
          failedOnce = true;
          throw new Error('store unreachable');
        }
        applied.push(input.batch);
        return { applied: 1, changed: 1 };
      },
      async finishReconciliation(input: { reconciliationId: string }) {
        return {
          reconciliationId: input.reconciliationId,
          state: 'done',
          rows: 20,
          applied: applied.length,
          unchanged: 0,
          rejected: 0,
        };
      },
    };
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue: 'recon-test',
      workflowBundle: await workflowBundle(),
      activities,
    });
    const result = await worker.runUntil(
      env().client.workflow.execute('reconciliationWorkflow', {
        workflowId: 'reconciliation:rcn-test',
        taskQueue: 'recon-test',
        args: [{ reconciliationId: 'rcn-test', batches: 5 }],
      }),
    );
    assert.deepEqual(applied, [0, 1, 2, 3, 4]);
    assert.equal(failedOnce, true);
    assert.deepEqual(result, { reconciliationId: 'rcn-test', state: 'done', rows: 20, applied: 5, unchanged: 0, rejected: 0 });
  });
});
