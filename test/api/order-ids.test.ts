import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, type HttpResult } from '../support/http';
import { createData, istAt, istDate, notifyData, transactU } from '../support/mandates';
import { createLinks, linkEntry, linkExpireBy, newBatchId } from '../support/payment-links';
import { sandboxPay } from '../support/payments';
import { createQr } from '../support/qr';
import { startReceiver } from '../support/receiver';

/**
 * One orderId namespace per merchant across every kind of order (design.md, Transactions and
 * states): sandbox payments, QR orders, payment links, mandates and each mandate debit. Every debit,
 * first debits included, is read through the status API by its orderId.
 */
describe('orderIds: one namespace per merchant across every kind of order', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  // 08:00 IST tomorrow: outside the peak windows, so notifies are taken.
  const clock = istAt(new Date(), 1, '08:00:00');

  before(async () => {
    gw = await startTestGateway({ SANDBOX_MANDATE_PAYER_SECONDS: '1' }, { now: () => clock });
    merchant = await gw.newMerchant('One namespace');
  });
  after(() => gw?.stop());

  const newId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json;
  const mandateState = (orderId: string) =>
    gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }).then((m) => m?.state);
  async function until<T>(read: () => Promise<T>, ok: (t: T) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  const createMandate = (orderId: string, o: Partial<Parameters<typeof createData>[1]> = {}) =>
    transactU(gw.baseUrl, merchant, createData(merchant, { orderId, today: clock, ...o }));
  const qr = (orderId: string) => createQr(gw, merchant, { orderId });
  const pay = (orderId: string) =>
    sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
  const link = (orderId: string) =>
    createLinks(gw, merchant.apiKey, {
      batchId: newBatchId(),
      details: [linkEntry({ orderId, linkExpireBy: linkExpireBy(24 * 3_600_000, clock.getTime()) })],
    });
  const linkMade = (res: HttpResult) => res.json.data[0].link !== null;

  it("a mandate's orderId is refused to a QR (128, its ids), a sandbox payment (2030), a link and a debit (1102)", async () => {
    const orderId = newId('mandate');
    const created = await createMandate(orderId);
    assert.equal(created.json.responseCode, '1101', created.text);
    const txnid = created.json.bankPostData.txnid;

    const q = await qr(orderId);
    assert.deepEqual([q.json.success, q.json.message.code, q.json.data], [false, '128', { orderId, serviceOrderId: txnid }]);
    const p = await pay(orderId);
    assert.deepEqual([p.json.success, p.json.message.code, p.json.data.txnId], [false, '2030', txnid]);
    const l = await link(orderId);
    assert.equal(l.json.data[0].link, null, l.text);
    assert.match(l.json.data[0].errorDescription, /orderId/);
    await until(
      () => mandateState(orderId),
      (s) => s === 'ACTIVE',
      'the payer approves',
    );
    const parent = newId('parent');
    assert.equal((await createMandate(parent)).json.responseCode, '1101');
    await until(
      () => mandateState(parent),
      (s) => s === 'ACTIVE',
      'the payer approves',
    );
    const notify = await transactU(
      gw.baseUrl,
      merchant,
      notifyData(merchant, { orderId, parent, executionDate: `${istDate(clock, 2)} 08:00:00` }),
    );
    assert.equal(notify.json.responseCode, '1102', notify.text);

    // The status API still shows the mandate, and nothing else was stored under its orderId.
    const s = await statusOf(orderId);
    assert.deepEqual(
      [s.data.orders[0].orderDetail.txnId, s.data.orders[0].paymentInstrument.paymentMode],
      [txnid, 'UPI_MANDATE'],
    );
    assert.equal(await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }), null);
  });

  it('an orderId of a QR, a link or a sandbox payment is refused to a mandate (1102)', async () => {
    for (const [kind, make] of [
      ['qr', qr],
      ['link', link],
      ['payment', pay],
    ] as const) {
      const orderId = newId(kind);
      await make(orderId);
      const res = await createMandate(orderId);
      assert.equal(res.json.responseCode, '1102', `${kind}: ${res.text}`);
      assert.equal(await mandateState(orderId), undefined);
    }
  });

  it('a mandate racing a QR, a sandbox payment and a link for one orderId: exactly one of them gets it', async () => {
    for (let round = 0; round < 6; round++) {
      const orderId = newId('race');
      const [m, q, p, l] = await Promise.all([createMandate(orderId), qr(orderId), pay(orderId), link(orderId)]);
      const winners = [
        m.json.responseCode === '1101' && 'mandate',
        q.json.message?.code === '208' && 'qr',
        p.status === 202 && 'payment',
        linkMade(l) && 'link',
      ].filter(Boolean);
      assert.equal(winners.length, 1, `round ${round}: ${winners.join(', ')} all got ${orderId}`);
      const stored = [
        await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }),
        await gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }),
      ].filter(Boolean);
      assert.equal(stored.length, 1, `round ${round}: one order stored`);
    }
  });

  it("a first debit's orderId is held from the mandate's creation: a QR cannot take it, and the debit runs under it", async () => {
    const orderId = newId('mandate');
    const created = await createMandate(orderId, { firstDebit: true, firstDebitAmount: 10_000 });
    assert.equal(created.json.responseCode, '1101', created.text);
    // The payer has not answered yet (1 s): the debit does not exist, its orderId is held all the same.
    const q = await qr(`${orderId}-first`);
    assert.deepEqual([q.json.success, q.json.message.code], [false, '128'], q.text);
    await until(
      () => mandateState(orderId),
      (s) => s !== 'CREATED',
      'the payer',
    );
    const first = await until(
      () => statusOf(`${orderId}-first`),
      (s) => s.data?.orders?.[0]?.txnStatus === '0',
      'the first debit',
    );
    assert.equal(first.data.orders[0].responseCode, '1111');
    assert.equal(await mandateState(orderId), 'ACTIVE');
  });

  it('every first debit is readable by its orderId: <txnid>-first when <orderId>-first is too long or used', async () => {
    const receiver = await startReceiver();
    try {
      await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'json' });
      // A 64-character orderId: <orderId>-first would be 70, past what the status API accepts.
      const long = `L${randomBytes(16).toString('hex')}${'x'.repeat(31)}`;
      assert.equal(long.length, 64);
      // And an orderId whose <orderId>-first another order holds already.
      const short = newId('mandate');
      assert.equal((await pay(`${short}-first`)).status, 202);

      for (const orderId of [long, short]) {
        const created = await createMandate(orderId, { firstDebit: true, firstDebitAmount: 12_345 });
        assert.equal(created.json.responseCode, '1101', created.text);
        const debitId = `${created.json.bankPostData.txnid}-first`;
        const first = await until(
          () => statusOf(debitId),
          (s) => s.data?.orders?.[0]?.txnStatus === '0',
          `the first debit ${debitId}`,
        );
        assert.deepEqual(
          [first.data.orders[0].orderDetail.orderId, first.data.orders[0].responseCode, first.data.orders[0].orderDetail.amount],
          [debitId, '1111', '12345'],
        );
        assert.equal(await mandateState(orderId), 'ACTIVE');
        const hook = await until(
          async () =>
            receiver.calls
              .map((c) => JSON.parse(JSON.parse(c.body).txnData).txns[0])
              .find((t: { orderId: string }) => t.orderId === debitId),
          (t) => t !== undefined,
          'its webhook',
        );
        assert.equal(hook.responseCode, '1111');
      }
      // The order that held <short>-first is untouched: still the sandbox payment.
      const other = await statusOf(`${short}-first`);
      assert.equal(other.data.orders[0].paymentInstrument.paymentMode, 'UPI');
      assert.equal(other.data.orders[0].orderDetail.amount, '10000');
    } finally {
      await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: null, webhookFormat: 'form' });
      await receiver.close();
    }
  });
});
