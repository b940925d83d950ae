import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { createData, encryptVpa, istAt, istDate, notifyData, transactU, type VpaPadding } from '../support/mandates';

const MANDATE_SHAPE = [
  'orderDetail',
  'responseCode',
  'responseDescription',
  'doRedirect',
  'paymentInstrument',
  'bankPostData',
  'paymentMode',
];

describe('Mandates: POST /transactU?v=13 (create, notify, execute) and the sandbox payer', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  // The one injectable clock: 08:00 IST on the next day, so tests decide the time of day.
  const morning = istAt(new Date(), 1, '08:00:00');
  let clock = morning;

  before(async () => {
    gw = await startTestGateway({ SANDBOX_MANDATE_PAYER_SECONDS: '0.2' }, { now: () => clock });
    merchant = await gw.newMerchant('Milk Co');
  });
  after(() => gw?.stop());
  beforeEach(() => {
    clock = morning;
  });

  const newId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const status = async (orderId: string, m = merchant) =>
    (await checkStatus(gw.baseUrl, m.secretKey, { merchantIdentifier: m.merchantIdentifier, orderId })).json.data.orders[0];
  async function until<T>(read: () => Promise<T>, ok: (t: T) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  const mandateState = (orderId: string) =>
    gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }).then((m) => m?.state);
  async function activeMandate(o: Partial<Parameters<typeof createData>[1]> = {}): Promise<string> {
    const orderId = newId('mandate');
    const res = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId, today: clock, ...o }));
    assert.equal(res.json.responseCode, '1101', res.text);
    await until(
      () => mandateState(orderId),
      (s) => s !== 'CREATED',
      'the sandbox payer',
    );
    return orderId;
  }

  describe('create', () => {
    for (const [mode, padded, v] of [
      ['upiCollectMandate', true, '13'],
      ['upiIntentMandate', false, '13'],
      ['upiQrMandate', true, '12'],
    ] as const) {
      it(`${mode}, txnDate ${padded ? 'zero-padded' : 'without zero padding'}, v=${v}: 1101 with the echo and the mode's bankPostData`, async () => {
        const orderId = newId('mandate');
        const data = createData(merchant, { orderId, today: clock, mode });
        data.orderDetail.txnDate = padded ? '2026-01-05' : '2026-1-5';
        if (mode === 'upiIntentMandate') {
          delete data.debitorcredit;
          data.orderDetail.purpose = 14;
        }
        const res = await transactU(gw.baseUrl, merchant, data, { v });
        assert.equal(res.status, 200, res.text);
        const body = res.json;
        assert.deepEqual(Object.keys(body), MANDATE_SHAPE);
        assert.equal(body.responseCode, '1101');
        assert.equal(body.paymentMode, 'UPI_MANDATE');
        assert.equal(body.doRedirect, 'false');
        assert.deepEqual(body.orderDetail, {
          ...data.orderDetail,
          amountBreakdown: { baseAmount: '500000', convenienceFee: '0', gst: '0', totalAmount: '500000' },
        });
        assert.equal(body.paymentInstrument.paymentMode, 'UPI_MANDATE');
        assert.equal(body.paymentInstrument.sendOtp, false);
        const cfg = body.paymentInstrument.upiMandate.mandateConfig;
        assert.match(cfg.startDate, /^[A-Z][a-z]{2} \d{1,2}, \d{4} 12:00:00 AM$/);
        assert.match(cfg.endDate, /^[A-Z][a-z]{2} \d{1,2}, \d{4} 12:00:00 AM$/);
        assert.equal(body.paymentInstrument.upiMandate.payerVpa, data.paymentInstrument.upiMandate.payerVpa);
        const post = body.bankPostData;
        assert.match(post.txnid, /^[0-9A-Z]{10,}$/);
        if (mode === 'upiCollectMandate') assert.deepEqual(Object.keys(post), ['txnid']);
        if (mode === 'upiIntentMandate') {
          assert.deepEqual(Object.keys(post), [
            'androidIntentUrl',
            'gpayIntentIosUrl',
            'phonepeIntentIosUrl',
            'paytmIntentIosUrl',
            'bhimIntentIosUrl',
            'txnid',
          ]);
          assert.match(
            post.androidIntentUrl,
            new RegExp(`^upi://mandate\\?pa=.*&tr=${post.txnid}&am=5000.00&.*recur=ASPRESENTED`),
          );
          for (const app of ['gpay', 'phonepe', 'paytm', 'bhim'])
            assert.ok(post[`${app}IntentIosUrl`].endsWith(post.androidIntentUrl.split('?')[1]));
        }
        if (mode === 'upiQrMandate') {
          assert.deepEqual(Object.keys(post), ['link', 'txnid']);
          const png = PNG.sync.read(Buffer.from(post.link, 'base64'));
          const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
          assert.match(decoded?.data ?? '', new RegExp(`^upi://mandate\\?.*tr=${post.txnid}&`));
        }
        // The status API reads the mandate by its create orderId: Pending until the payer approves.
        const before = await status(orderId);
        assert.equal(before.paymentInstrument.paymentMode, 'UPI_MANDATE');
        assert.equal(before.orderDetail.txnId, post.txnid);
        await until(
          () => mandateState(orderId),
          (s) => s === 'ACTIVE',
          'approval',
        );
        const after = await status(orderId);
        assert.deepEqual([after.txnStatus, after.responseCode, after.responseDescription], ['0', '1101', 'Mandate active']);
      });
    }

    for (const padding of ['oaep-sha1', 'oaep-sha256', 'pkcs1'] as VpaPadding[]) {
      it(`decrypts payerVpa encrypted with ${padding}`, async () => {
        const orderId = newId('mandate');
        const res = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId, today: clock, padding }));
        assert.equal(res.json.responseCode, '1101', res.text);
        const m = await gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
        assert.equal(m?.payerVpa, 'success@sandbox');
      });
    }

    it('failure@sandbox declines: the status API says Failure with the decline', async () => {
      const orderId = await activeMandate({ payer: 'failure@sandbox' });
      assert.equal(await mandateState(orderId), 'DECLINED');
      const s = await status(orderId);
      assert.deepEqual([s.txnStatus, s.responseCode], ['1', '1125']);
    });
  });

  describe('notify', () => {
    it('schedules a debit 24 h ahead: 1109 with {amount, initDateTime}; the debit is a Pending order; a repeat answers the same', async () => {
      const parent = await activeMandate();
      const orderId = newId('debit');
      const data = notifyData(merchant, { orderId, parent, executionDate: `${istDate(clock, 1)} 08:00:00` });
      const res = await transactU(gw.baseUrl, merchant, data);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.json), MANDATE_SHAPE);
      assert.equal(res.json.responseCode, '1109', res.text);
      assert.deepEqual(res.json.bankPostData, { amount: '25000', initDateTime: `${istDate(clock, 1)} 08:00:00` });
      const debit = await status(orderId);
      assert.deepEqual([debit.txnStatus, debit.orderDetail.amount, debit.paymentInstrument.paymentMode], ['2', '25000', 'UPI']);
      const repeat = await transactU(gw.baseUrl, merchant, data);
      assert.equal(repeat.json.responseCode, '1109');
      const other = await transactU(gw.baseUrl, merchant, { ...data, orderDetail: { ...data.orderDetail, amount: '26000' } });
      assert.equal(other.json.responseCode, '1102');
    });
  });
});
