import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { BankRefundRequest } from '../../src/bank/connector';
import type { RecordRefundInput } from '../../activities/refund-activities';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import type { RefundWorkflowInput } from '../../src/temporal/refund-contract';
import type { WebhookDeliveryInput } from '../../src/temporal/webhook-contract';
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

  /** What the workflow handed to the merchant's webhook (the delivery is faked: the point is the workflow). */
  const delivered: WebhookDeliveryInput[] = [];

  const activities = {
    async deliverWebhookFirstAttempt(input: WebhookDeliveryInput) {
      delivered.push(input);
      return { state: 'delivered', attempts: 1 };
    },
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

  it("hands each settled refund to the merchant's webhook, as recorded, under one id per refund", async () => {
    const ok = input('hook-ok');
    const no = { ...input('hook-no', 'sandbox fail'), orderId: ok.orderId };
    await run([ok, no]);
    const mine = delivered.filter((d) => d.orderId === ok.orderId);
    assert.deepEqual(
      mine
        .map((d) => d.update && [d.update.kind, (d.update as { merchantRefId: string }).merchantRefId, d.update.txnStatus])
        .sort(),
      [
        ['refund', 'hook-no', 'Success'],
        ['refund', 'hook-ok', 'Refund'],
      ],
    );
    const failed = mine.find((d) => d.update?.kind === 'refund' && d.update.refundStatus === 'FAILED')!;
    assert.equal(failed.merchantIdentifier, ok.merchantIdentifier);
    assert.match(failed.deliveryId, new RegExp(`^rf:${ok.merchantIdentifier}:[0-9a-f]{32}$`));
    assert.notEqual(mine[0]!.deliveryId, mine[1]!.deliveryId);
    // Run again (a repeated refund workflow finds the refund settled): the same delivery id.
    await run([no]);
    const again = delivered.filter(
      (d) => d.orderId === ok.orderId && d.update?.kind === 'refund' && d.update.refundStatus === 'FAILED',
    );
    assert.equal(new Set(again.map((d) => d.deliveryId)).size, 1);
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
