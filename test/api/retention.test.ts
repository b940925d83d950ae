import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { BankConnector } from '../../src/bank/connector';
import { mandateDebitWorkflowId, mandateWorkflowId, paymentWorkflowId, refundWorkflowId } from '../../src/temporal/workflow-ids';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { createData, transactU } from '../support/mandates';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { refund, refundFinished } from '../support/refunds';

/**
 * Temporal refuses a second workflow with a used id only while it remembers the first: after the
 * namespace's retention (a day by default) the id is free again. A repeated request for an order,
 * refund or mandate that has ended must not ask the bank a second time then. The test makes
 * Temporal forget the ended workflows (terminated if running, then deleted) and repeats the request.
 */
describe('A repeated request after Temporal forgot the ended workflow pays, refunds and debits nothing again', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  /** Bank requests by txnId (payments and mandate debits) and by refund id. */
  const payments = new Map<string, number>();
  const paymentsOf = new Map<string, string[]>();
  const refunds = new Map<string, number>();
  const count = (m: Map<string, number>, id: string) => m.set(id, (m.get(id) ?? 0) + 1);

  before(async () => {
    gw = await startTestGateway(
      { SANDBOX_MANDATE_PAYER_SECONDS: '0.2' },
      {
        activityDeps: (deps) => {
          const real = deps.bank;
          const bank: BankConnector = Object.create(real);
          bank.requestPayment = (r) => {
            count(payments, r.txnId);
            paymentsOf.set(r.merchantIdentifier, [...(paymentsOf.get(r.merchantIdentifier) ?? []), r.txnId]);
            return real.requestPayment(r);
          };
          bank.requestRefund = (r) => (count(refunds, r.refundId), real.requestRefund(r));
          return { ...deps, bank };
        },
      },
    );
  });
  after(() => gw?.stop());

  const exists = (workflowId: string) =>
    gw.rt.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        (e: unknown) => {
          if (e instanceof WorkflowNotFoundError) return false;
          throw e;
        },
      );

  /** What retention does to a closed workflow, at once: Temporal no longer knows the id. */
  async function forget(workflowId: string): Promise<void> {
    await gw.rt.temporal.workflow
      .getHandle(workflowId)
      .terminate('the test plays retention')
      .catch(() => undefined); // closed already
    await gw.rt.temporal.workflowService.deleteWorkflowExecution({
      namespace: gw.rt.config.temporal.namespace,
      workflowExecution: { workflowId },
    });
    // At once on the test dev server (see servers.ts); a server of other settings takes a while.
    for (let i = 0; i < 450 && (await exists(workflowId)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await exists(workflowId), false, `${workflowId} is still known`);
  }
  /** A moment for a workflow the repeat might have started to reach the bank. */
  const settle = () => new Promise((r) => setTimeout(r, 2_000));

  it('a paid order: the repeated payment request answers the order and starts no workflow', async () => {
    const m = await gw.newMerchant('Retention pay');
    const orderId = newOrderId('kept');
    const body = { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' };
    const first = await sandboxPay(gw, body);
    assert.equal(first.status, 202, first.text);
    assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Success');
    const workflowId = paymentWorkflowId(m.merchantIdentifier, orderId);
    await forget(workflowId);

    const repeat = await sandboxPay(gw, body);
    assert.equal(repeat.status, 200, repeat.text);
    await settle();
    assert.equal(await exists(workflowId), false, 'no second payment workflow');
    assert.equal(payments.get(first.json.data.txnId), 1, 'the bank was asked once');
    const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId });
    assert.equal(t?.status, 'Success');
  });

  it('a settled refund: the repeated refund request answers as the first and starts no workflow', async () => {
    const m = await gw.newMerchant('Retention refund');
    const orderId = newOrderId('refunded');
    await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    const merchantRefId = `ref-${randomBytes(4).toString('hex')}`;
    const first = await refund(gw, m, { orderId, merchantRefId });
    assert.equal(first.json.responseCode, '230', first.text);
    assert.equal((await refundFinished(gw, m.merchantIdentifier, orderId, merchantRefId)).refundStatus, 'SUCCESS');
    const workflowId = refundWorkflowId(m.merchantIdentifier, orderId, merchantRefId);
    await forget(workflowId);

    const repeat = await refund(gw, m, { orderId, merchantRefId });
    assert.equal(repeat.json.responseCode, '230', repeat.text);
    await settle();
    assert.equal(await exists(workflowId), false, 'no second refund workflow');
    const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId });
    assert.equal(refunds.get(`${t!.txnId}:${merchantRefId}`), 1, 'the bank was asked once');
    assert.deepEqual(
      t!.refunds.map((r) => [r.merchantRefId, r.status]),
      [[merchantRefId, 'SUCCESS']],
    );
    assert.equal(t!.status, 'Refund');
  });

  it('an ended mandate: the repeated create answers 1101 and neither asks the payer nor debits again', async () => {
    const m = await gw.newMerchant('Retention mandate');
    const orderId = `mandate-${randomBytes(4).toString('hex')}`;
    const data = createData(m, { orderId, today: new Date(), firstDebit: true, firstDebitAmount: 10_000 });
    assert.equal((await transactU(gw.baseUrl, m, data)).json.responseCode, '1101');
    const workflowId = mandateWorkflowId(m.merchantIdentifier, orderId);
    // The first debit is the merchant's only bank payment.
    const firstDebit = async () => (await gw.rt.transactions.findByTxnIds(paymentsOf.get(m.merchantIdentifier) ?? []))[0];
    for (let i = 0; i < 100 && (await firstDebit())?.status !== 'Success'; i++) await new Promise((r) => setTimeout(r, 100));
    const debit = (await firstDebit())!;
    assert.equal(debit.status, 'Success');
    const revoked = await request(`${gw.baseUrl}/sandbox/v1/mandates/revoke`, {
      body: { merchantIdentifier: m.merchantIdentifier, orderId },
    });
    assert.equal(revoked.json.data?.state, 'REVOKED', revoked.text);
    await gw.rt.temporal.workflow.getHandle(workflowId).result();
    await forget(workflowId);
    await forget(mandateDebitWorkflowId(m.merchantIdentifier, debit.orderId));

    const repeat = await transactU(gw.baseUrl, m, data);
    assert.equal(repeat.json.responseCode, '1101', repeat.text);
    await settle();
    assert.equal(await exists(workflowId), false, 'no second mandate workflow');
    assert.deepEqual(paymentsOf.get(m.merchantIdentifier), [debit.txnId], 'the first debit reached the bank once');
    assert.equal((await gw.rt.mandates.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId }))?.state, 'REVOKED');
  });
});
