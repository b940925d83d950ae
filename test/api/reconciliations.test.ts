import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { csvFile, reconcile, uploadReconciliation } from '../support/reconciliations';
import { refundFinished } from '../support/refunds';

describe('Reconciliation: POST /ops/v1/reconciliations', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  /** A finished payment with the given payer: noanswer@sandbox ends as a Failure marked by the service. */
  async function payment(g: TestGateway, m: MerchantCredentials, payerVpa: string, amount = 10_000) {
    const orderId = newOrderId('rc');
    const res = await sandboxPay(g, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa, amount });
    return { orderId, txnId: res.json.data.txnId as string };
  }

  it('turns a Failure marked by the service into a delayed Success, and the same file twice changes nothing', async () => {
    const { orderId, txnId } = await payment(gw, merchant, 'noanswer@sandbox');
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.markedFailedByService, true);

    const file = csvFile([`${txnId},BANK0001,SUCCESS,10000`]);
    const first = await reconcile(gw, file);
    assert.deepEqual(
      { ...first, reconciliationId: '' },
      { reconciliationId: '', state: 'done', rows: 1, applied: 1, unchanged: 0, rejected: [] },
    );
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t?.status, 'Success');
    assert.equal(t?.delayedSuccess, true);
    assert.equal(t?.bankRefNum, 'BANK0001');
    const status = await checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
    });
    assert.deepEqual([status.json.data.orders[0].txnStatus, status.json.data.orders[0].responseCode], ['0', '100']);
    assert.deepEqual(t?.refunds, [], 'auto-refund is off');

    const second = await reconcile(gw, file);
    assert.deepEqual([second.applied, second.unchanged, second.rejected.length], [0, 1, 0]);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.version, t?.version);
  });

  it('gives a still-Pending payment the bank answer through its waiting workflow', async () => {
    const slow = await startTestGateway({ BANK_TIMEOUT_SECONDS: '600' });
    try {
      const m = await slow.newMerchant();
      const { orderId, txnId } = await payment(slow, m, 'noanswer@sandbox');
      const report = await reconcile(slow, csvFile([`${txnId},BANK0002,SUCCESS,10000`]));
      assert.equal(report.applied, 1);
      const result = await paymentFinished(slow, m.merchantIdentifier, orderId);
      assert.equal(result.status, 'Success');
      const t = await storedTransaction(slow, m.merchantIdentifier, orderId);
      assert.deepEqual([t?.delayedSuccess, t?.bankRefNum, t?.markedFailedByService], [true, 'BANK0002', false]);
    } finally {
      await slow.stop();
    }
  });

  it('rejects lines with their reasons and still applies the good ones', async () => {
    const silent = await payment(gw, merchant, 'noanswer@sandbox');
    const declined = await payment(gw, merchant, 'failure@sandbox');
    const paid = await payment(gw, merchant, 'success@sandbox');
    for (const o of [silent, declined, paid]) await paymentFinished(gw, merchant.merchantIdentifier, o.orderId);
    const report = await reconcile(
      gw,
      csvFile([
        `UNKNOWNTXN1,R1,SUCCESS,10000`,
        `${paid.txnId},R2,SUCCESS,9999`,
        `${declined.txnId},R3,SUCCESS,10000`,
        `${paid.txnId},,FAILED,10000`,
        `${silent.txnId},R5,MAYBE,10000`,
        `${silent.txnId},R6,SUCCESS,10000`,
        `${paid.txnId},R7,SUCCESS,10000`,
        `${declined.txnId},,FAILED,10000`,
      ]),
    );
    assert.deepEqual([report.rows, report.applied, report.unchanged], [8, 1, 2]);
    assert.deepEqual(
      report.rejected.map((r) => [r.line, r.reason]),
      [
        [2, 'unknown txnId'],
        [3, 'amount differs: the gateway has 10000 paise'],
        [4, 'the bank declined this transaction: a final answer is not revised'],
        [5, 'the transaction is Success: a final answer is not revised'],
        [6, 'status must be SUCCESS or FAILED'],
      ],
    );
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, silent.orderId))?.status, 'Success');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, declined.orderId))?.status, 'Failure');
  });

  it('refunds a delayed success at once when the merchant has auto-refund on', async () => {
    const m = await gw.newMerchant('Auto');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { autoRefund: true });
    const { orderId, txnId } = await payment(gw, m, 'noanswer@sandbox');
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    await reconcile(gw, csvFile([`${txnId},BANK0003,SUCCESS,10000`]));
    const refund = await refundFinished(gw, m.merchantIdentifier, orderId, `auto-${txnId}`);
    assert.equal(refund.refundStatus, 'SUCCESS');
    const t = await storedTransaction(gw, m.merchantIdentifier, orderId);
    assert.deepEqual([t?.status, t?.delayedSuccess, t?.refunds[0]?.amountPaise], ['Refund', true, 10_000]);
  });

  it('applies a 10,000-line file in batches with the right counts', async () => {
    const real = await Promise.all(Array.from({ length: 5 }, () => payment(gw, merchant, 'noanswer@sandbox')));
    for (const o of real) await paymentFinished(gw, merchant.merchantIdentifier, o.orderId);
    const lines = Array.from({ length: 10_000 - real.length }, (_, i) => `NOSUCHTXN${i},R${i},SUCCESS,100`);
    lines.splice(4321, 0, ...real.map((o, i) => `${o.txnId},BULK${i},SUCCESS,10000`));
    const report = await reconcile(gw, csvFile(lines));
    assert.deepEqual([report.rows, report.applied, report.unchanged, report.rejected.length], [10_000, 5, 0, 9_995]);
    assert.ok(report.rejected.every((r) => r.reason === 'unknown txnId'));
    for (const o of real) assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, o.orderId))?.status, 'Success');
  });

  it('GET /ops/v1/reconciliations/:id reports a file from upload to done, and only to the operator', async () => {
    const started = await uploadReconciliation(gw, csvFile(['NOSUCHTXN1,R1,SUCCESS,100', 'bad line']));
    const id = started.json.data.reconciliationId as string;
    assert.match(id, /^rcn-[0-9a-f]{16}$/);
    const read = (token = gw.rt.config.secrets.opsToken) =>
      request(`${gw.baseUrl}/ops/v1/reconciliations/${id}`, { headers: { authorization: `Bearer ${token}` } });
    const early = await read();
    assert.equal(early.status, 200);
    assert.ok(['running', 'done'].includes(early.json.data.state));
    assert.equal(early.json.data.rows, 2);
    await gw.rt.temporal.workflow.getHandle(`reconciliation:${id}`).result();
    assert.deepEqual((await read()).json, {
      success: true,
      data: {
        reconciliationId: id,
        state: 'done',
        rows: 2,
        applied: 0,
        unchanged: 0,
        rejected: [
          { line: 2, reason: 'unknown txnId' },
          { line: 3, reason: 'expected 4 columns, found 1' },
        ],
      },
    });
    const denied = await read('not-the-operator-token-at-all');
    assert.deepEqual([denied.status, denied.json.message.code], [401, '2014']);
  });

  it('refuses a bad upload with the right status and envelope', async () => {
    const cases: [Parameters<typeof uploadReconciliation>, number, string][] = [
      [[gw, 'a,b,c,d\n1,2,3,4'], 400, '2002'],
      [[gw, ''], 400, '2002'],
      [[gw, Buffer.from([0x74, 0xff, 0xfe])], 400, '2005'],
      [[gw, csvFile([]), { 'content-type': 'application/json' }], 415, '2003'],
      [[gw, csvFile([]), { authorization: 'Bearer nope-nope-nope-nope-nope' }], 401, '2014'],
    ];
    for (const [args, status, code] of cases) {
      const res = await uploadReconciliation(...args);
      assert.equal(res.status, status);
      assert.deepEqual([res.json.success, res.json.message.code], [false, code]);
    }
    const unknown = await request(`${gw.baseUrl}/ops/v1/reconciliations/rcn-0000`, {
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    assert.deepEqual([unknown.status, unknown.json.message.code], [404, '2043']);
  });
});
