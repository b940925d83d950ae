import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { BankRefundRequest } from '../../activities/bank-connector';
import type { RecordRefundInput } from '../../activities/refund-activities';
import { SandboxBankConnector } from '../../activities/sandbox-bank-connector';
import type { RefundWorkflowInput } from '../../workflows/refund';
import { timeSkippingPerSuite, workflowBundle } from '../support/servers';

/**
 * The refund workflow on the time-skipping server with the real sandbox bank; the store activity
 * is faked in memory (the point is the workflow) and records what it was told, once per refund.
 */
describe('refund workflow (time-skipping)', function () {
  this.timeout(120_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'refund-workflow-test';
  const settled = new Map<string, { status: string; rrn: string | null; calls: number }>();
  const bankCalls: BankRefundRequest[] = [];

  const activities = {
    async requestBankRefund(request: BankRefundRequest) {
      bankCalls.push(request);
      return new SandboxBankConnector().requestRefund(request);
    },
    async recordRefundOutcome(input: RecordRefundInput) {
      const key = `${input.orderId}:${input.merchantRefId}`;
      const existing = settled.get(key);
      if (existing) {
        existing.calls++;
        return { applied: false, refundStatus: existing.status, txnStatus: 'Refund' };
      }
      const status = input.answer.approved ? 'SUCCESS' : 'FAILED';
      settled.set(key, { status, rrn: input.answer.approved ? input.answer.rrn : null, calls: 1 });
      return { applied: true, refundStatus: status, txnStatus: input.answer.approved ? 'Refund' : 'Success' };
    },
  };

  const input = (merchantRefId: string, reason = 'customer request'): RefundWorkflowInput => ({
    merchantIdentifier: 'b'.repeat(32),
    orderId: `order-${randomBytes(4).toString('hex')}`,
    txnId: 'TXN1',
    bankRefNum: '123456789012',
    merchantRefId,
    amountPaise: 2500,
    reason,
  });

  async function run(inputs: RefundWorkflowInput[]) {
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    return worker.runUntil(async () => {
      // All start before any is awaited, so they run side by side.
      const handles = await Promise.all(
        inputs.map((i) =>
          env().client.workflow.start('refundWorkflow', {
            workflowId: `refund:${i.orderId}:${i.merchantRefId}`,
            taskQueue,
            args: [i],
          }),
        ),
      );
      const results = [];
      for (const h of handles) results.push(await h.result());
      return results;
    });
  }

  it('records SUCCESS with the bank reference when the bank refunds', async () => {
    const i = input('ok-1');
    const [result] = await run([i]);
    assert.deepEqual(result, { applied: true, refundStatus: 'SUCCESS', txnStatus: 'Refund' });
    assert.match(settled.get(`${i.orderId}:ok-1`)?.rrn ?? '', /^\d{12}$/);
    assert.equal(bankCalls.at(-1)?.amountPaise, 2500);
  });

  it('records FAILED when the bank refuses ("sandbox fail")', async () => {
    const i = input('no-1', 'sandbox fail');
    const [result] = await run([i]);
    assert.equal(result.refundStatus, 'FAILED');
    assert.equal(settled.get(`${i.orderId}:no-1`)?.rrn, null);
  });

  it('two refunds of one order at once each ask the bank once and are each recorded once', async () => {
    const a = input('two-a');
    const b = { ...input('two-b'), orderId: a.orderId };
    const before = bankCalls.length;
    const results = await run([a, b]);
    assert.deepEqual(
      results.map((r) => r.refundStatus),
      ['SUCCESS', 'SUCCESS'],
    );
    assert.equal(bankCalls.length - before, 2);
    assert.deepEqual(
      bankCalls
        .slice(before)
        .map((c) => c.refundId)
        .sort(),
      [`TXN1:two-a`, `TXN1:two-b`],
    );
    assert.equal(settled.get(`${a.orderId}:two-a`)?.calls, 1);
    assert.equal(settled.get(`${a.orderId}:two-b`)?.calls, 1);
  });
});
