import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { hmacSha256Hex } from '../../src/domain/checksum';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request, type HttpResult } from '../support/http';
import { fetchTxn, ledger } from '../support/ledger';
import { createData, istAt, istDate, notifyData, transactU } from '../support/mandates';
import { createLinks, linkEntry, linkExpireBy, newBatchId } from '../support/payment-links';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createQr, payQr } from '../support/qr';
import { refundFinished, updateTxn } from '../support/refunds';

/** What merchants' existing code sends besides the contract's fields (design.md, Unknown fields). */
const EXTRAS = {
  extra1: 'x',
  extra5: 'y',
  udf1: 'u',
  mode: '0',
  merchantIpAddress: '203.0.113.7',
  billingAddress: { city: 'Pune' },
};
const hasNoExtras = (o: object) =>
  assert.deepEqual(
    Object.keys(EXTRAS).filter((k) => k in o && k !== 'mode'),
    [],
  );

/**
 * Unknown fields: ignored (stripped, never echoed) on the contract's and the Zaakpay-shaped APIs,
 * refused with 400 (2002) on the gateway's own, with nothing stored.
 */
describe('Unknown fields: ignored by contract APIs, refused by our own', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  // 08:00 IST tomorrow: outside the peak windows, so mandate notifies are taken.
  const clock = istAt(new Date(), 1, '08:00:00');
  const day = istDate(clock);

  before(async () => {
    gw = await startTestGateway({ SANDBOX_MANDATE_PAYER_SECONDS: '0.2' }, { now: () => clock });
    merchant = await gw.newMerchant('Extras Ltd');
  });
  after(() => gw?.stop());

  const ops = { authorization: () => `Bearer ${gw.rt.config.secrets.opsToken}` };
  async function paidOrder(): Promise<string> {
    const orderId = newOrderId('extras');
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal(paid.status, 202, paid.text);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  async function until<T>(read: () => Promise<T>, ok: (t: T) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  describe('ignored by the contract and Zaakpay-shaped APIs', () => {
    it('status API: mode, extra1..5, udf, merchantIpAddress, an address; the checksum covers them', async () => {
      const orderId = await paidOrder();
      const res = await checkStatus(gw.baseUrl, merchant.secretKey, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
        version: 13,
        ...EXTRAS,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.json.status, res.json.data.orders[0].orderDetail.orderId], [true, orderId]);
    });

    it('dynamic QR: created (208), the extras neither stored nor echoed', async () => {
      const orderId = newOrderId('qr');
      const res = await createQr(gw, merchant, { orderId, ...EXTRAS });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.message.code, '208');
      hasNoExtras(res.json.data);
      hasNoExtras((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!);
      // The image address with a query parameter it does not know: still the image.
      const address = new URL(res.json.data.qrDetails.imgUrl);
      const image = await fetch(`${gw.baseUrl}${address.pathname}${address.search}&extra1=x`);
      assert.deepEqual([image.status, image.headers.get('content-type')], [200, 'image/png']);
    });

    it('ledger and bulk: extras at the top level are ignored', async () => {
      const orderId = await paidOrder();
      const page = await ledger(gw, merchant.apiKey, { startDateTime: day, endDateTime: day, status: 'ALL', ...EXTRAS });
      assert.equal(page.status, 200, page.text);
      const bulk = await fetchTxn(gw, merchant.apiKey, { txnDate: day, status: 'success', ...EXTRAS });
      assert.equal(bulk.status, 200, bulk.text);
      assert.ok(bulk.json.data.some((r: { orderid: string }) => r.orderid === orderId));
    });

    it('payment links: extras on the batch and on entries are ignored, and no entry echoes them', async () => {
      const expiry = linkExpireBy(24 * 3_600_000, clock.getTime());
      const good = linkEntry({ ...EXTRAS, linkExpireBy: expiry });
      const bad = linkEntry({ ...EXTRAS, linkExpireBy: expiry, amount: 1 });
      const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [good, bad], ...EXTRAS });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.statusCode, 207, res.text);
      const [created, refused] = res.json.data;
      assert.ok(created.link, res.text);
      assert.equal(refused.link, null);
      for (const entry of [created, refused]) hasNoExtras(entry);
      assert.equal(created.invoiceNumber, 'INV-1001', 'the fields the API knows are echoed');
    });

    it('/transactU create, notify and execute: extras in the form and at every level of data; none echoed', async () => {
      const orderId = newOrderId('mandate');
      const data = createData(merchant, { orderId, today: clock });
      Object.assign(data, { extra1: 'x', udf1: 'u', customerName: 'Asha' });
      Object.assign(data.orderDetail, { extra1: 'x', product1Description: 'Milk' });
      Object.assign(data.billingAddress, { firstName: 'Asha', landmark: 'Temple' });
      Object.assign(data.shippingAddress, { landmark: 'Temple' });
      Object.assign(data.paymentInstrument, { extra: 'x' });
      Object.assign(data.paymentInstrument.upiMandate, { note: 'x' });
      Object.assign(data.paymentInstrument.upiMandate.mandateConfig, { amountRule: 'MAX' });
      const text = JSON.stringify(data);
      const form = new URLSearchParams({ data: text, checksum: hmacSha256Hex(merchant.secretKey, text), extra: '1' });
      const created = await transactU(gw.baseUrl, merchant, data, { body: form.toString() });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.json.responseCode, '1101', created.text);
      assert.deepEqual(
        [
          'extra1' in created.json.orderDetail,
          'product1Description' in created.json.orderDetail,
          'note' in created.json.paymentInstrument.upiMandate,
          'amountRule' in created.json.paymentInstrument.upiMandate.mandateConfig,
        ],
        [false, false, false, false],
      );
      await until(
        () => gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }).then((m) => m?.state),
        (s) => s === 'ACTIVE',
        'the sandbox payer',
      );

      const debit = newOrderId('debit');
      const notify = notifyData(merchant, { orderId: debit, parent: orderId, executionDate: `${istDate(clock, 2)} 08:00:00` });
      Object.assign(notify, EXTRAS);
      Object.assign(notify.orderDetail, { extra1: 'x' });
      Object.assign(notify.paymentInstrument.upiMandate, { note: 'x' });
      const notified = await transactU(gw.baseUrl, merchant, notify);
      assert.equal(notified.json.responseCode, '1109', notified.text);
      assert.equal('note' in notified.json.paymentInstrument.upiMandate, false);

      const execute = structuredClone(notify);
      execute.paymentInstrument.upiMandate = {
        action: 'execute',
        payerVpa: notify.paymentInstrument.upiMandate.payerVpa,
        mandateParentOrderId: orderId,
        note: 'x',
      };
      const executed = await transactU(gw.baseUrl, merchant, execute);
      // Read and answered (nothing awaits confirmation before executionDate), not refused as invalid.
      assert.equal(executed.status, 200, executed.text);
      assert.equal(executed.json.responseCode, '1121', executed.text);
    });

    it('/updateTxn: extras in the form and in data are ignored; the refund is made', async () => {
      const orderId = await paidOrder();
      const text = JSON.stringify({
        merchantIdentifier: merchant.merchantIdentifier,
        mode: '0',
        orderDetail: { orderId, currency: 'INR' },
        updateDesired: '14',
        updateReason: 'customer request',
        merchantRefId: 'extras-1',
        extra1: 'x',
        merchantIpAddress: '203.0.113.7',
      });
      const form = new URLSearchParams({ data: text, checksum: hmacSha256Hex(merchant.secretKey, text), extra: '1' });
      const res = await request(`${gw.baseUrl}/updateTxn`, {
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.responseCode, '230', res.text);
      await refundFinished(gw, merchant.merchantIdentifier, orderId, 'extras-1');
      // The same request through the usual helper is the same refund: nothing of the extras mattered.
      const again = await updateTxn(gw, merchant, text);
      assert.equal(again.json.responseCode, '230');
    });
  });

  describe('refused with 400 (2002) by the gateway’s own APIs, nothing stored', () => {
    const refused = (res: HttpResult) => {
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.success, false, res.text);
      assert.equal(res.json.message.code, '2002', res.text);
      assert.match(res.json.message.text, /unrecognized|unknown|extra/i);
    };
    const post = (path: string, body: object, auth = false, method = 'POST') =>
      request(`${gw.baseUrl}${path}`, { method, body, headers: auth ? { authorization: ops.authorization() } : {} });

    it('ops: provision a merchant, change its settings, a chargeback, a webhook replay', async () => {
      const name = `Extra ${randomBytes(3).toString('hex')}`;
      refused(await post('/ops/v1/merchants', { name, extra1: 'x' }, true));
      assert.equal(await gw.rt.store.db.collection('merchants').countDocuments({ name }), 0);
      refused(await post(`/ops/v1/merchants/${merchant.merchantIdentifier}`, { autoRefund: true, extra1: 'x' }, true, 'PATCH'));
      assert.equal((await gw.rt.merchants.findById(merchant.merchantIdentifier))?.autoRefund, false);
      const orderId = await paidOrder();
      refused(
        await post(
          '/ops/v1/chargebacks',
          { merchantIdentifier: merchant.merchantIdentifier, orderId, amount: 10_000, action: 'raise', reason: 'x' },
          true,
        ),
      );
      assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.status, 'Success');
      refused(await post('/ops/v1/webhooks/replay', { since: new Date().toISOString(), extra1: 'x' }, true));
    });

    it('sandbox: a payment, paying a QR, revoking a mandate', async () => {
      const orderId = newOrderId('sandbox');
      refused(
        await sandboxPay(gw, {
          merchantIdentifier: merchant.merchantIdentifier,
          orderId,
          payerVpa: 'success@sandbox',
          extra1: 'x',
        }),
      );
      assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null);
      const qr = newOrderId('qr');
      assert.equal((await createQr(gw, merchant, { orderId: qr })).json.message.code, '208');
      refused(
        await payQr(gw, {
          merchantIdentifier: merchant.merchantIdentifier,
          orderId: qr,
          payerVpa: 'success@sandbox',
          extra1: 'x',
        }),
      );
      assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, qr))?.instrument.kind, 'UPI_QR');
      refused(
        await post('/sandbox/v1/mandates/revoke', { merchantIdentifier: merchant.merchantIdentifier, orderId: 'm', extra1: 'x' }),
      );
    });
  });
});
