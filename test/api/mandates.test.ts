import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { v8Data } from '../support/checkout';
import { startReceiver } from '../support/receiver';
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
  /** A new mandate once the sandbox payer has answered. */
  async function activeMandate(o: Partial<Parameters<typeof createData>[1]> = {}): Promise<string> {
    const orderId = newId('mandate');
    const res = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId, today: clock, ...o }));
    assert.equal(res.json.responseCode, '1101', res.text);
    // With a first debit, ACTIVE is not settled until the debit has succeeded (or made it INACTIVE).
    const settled = async () => {
      const state = await mandateState(orderId);
      if (!o.firstDebit || state !== 'ACTIVE') return state;
      const first = await gw.rt.transactions.findByOrder({
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: `${orderId}-first`,
      });
      return first?.status === 'Success' ? state : 'CREATED';
    };
    await until(settled, (s) => s !== 'CREATED', 'the sandbox payer and any first debit');
    return orderId;
  }

  describe('create', () => {
    // Each mode with a txnDate with and without zero padding, under both RSA paddings and both versions.
    for (const [mode, padded, v, padding] of [
      ['upiCollectMandate', true, '13', 'pkcs1'],
      ['upiCollectMandate', false, '12', 'oaep-sha256'],
      ['upiIntentMandate', false, '13', 'pkcs1'],
      ['upiIntentMandate', true, '12', 'oaep-sha1'],
      ['upiQrMandate', true, '12', 'pkcs1'],
      ['upiQrMandate', false, '13', 'oaep-sha256'],
    ] as const) {
      it(`${mode}, txnDate ${padded ? 'zero-padded' : 'without zero padding'}, v=${v}, payerVpa ${padding}: 1101 with the echo and the mode's bankPostData`, async () => {
        const orderId = newId('mandate');
        const data = createData(merchant, { orderId, today: clock, mode, padding });
        data.orderDetail.txnDate = padded ? '2026-01-05' : '2026-1-5';
        // The contract's other samples: no debitorcredit, purpose as a number.
        if (!padded) {
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

    // Live merchants send mode "1" (LetsTryFoods, Magento and WooCommerce in live mode), some as a number.
    for (const mode of ['1', 1, '0', 0]) {
      it(`mode ${JSON.stringify(mode)} is accepted and ignored: 1101`, async () => {
        const orderId = newId('mandate');
        const res = await transactU(gw.baseUrl, merchant, { ...createData(merchant, { orderId, today: clock }), mode });
        assert.equal(res.json.responseCode, '1101', res.text);
      });
    }

    it('email "" is absent and a phone written +91, 91 or 0 is accepted (as Zaakpay’s clients send them): 1101', async () => {
      for (const phone of ['+919876543210', '919876543210', '09876543210', '']) {
        const orderId = newId('mandate');
        const data = createData(merchant, { orderId, today: clock });
        data.orderDetail = { ...data.orderDetail, email: '', phone };
        const res = await transactU(gw.baseUrl, merchant, data);
        assert.equal(res.json.responseCode, '1101', `${phone}: ${res.text}`);
      }
      const orderId = newId('mandate');
      const data = createData(merchant, { orderId, today: clock });
      data.orderDetail = { ...data.orderDetail, phone: '+449876543210' };
      const res = await transactU(gw.baseUrl, merchant, data);
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, /orderDetail\.phone/);
    });

    it('a phone written in groups (+91 98765 43210, +91-9876543210) is accepted as its 10 digits; wrong numbers are not', async () => {
      for (const phone of [
        '+91 98765 43210',
        '+91-9876543210',
        '+91-98765-43210',
        '98765 43210',
        '0 98765 43210',
        '91 9876543210',
      ]) {
        const orderId = newId('mandate');
        const data = createData(merchant, { orderId, today: clock });
        data.orderDetail = { ...data.orderDetail, phone };
        const res = await transactU(gw.baseUrl, merchant, data);
        assert.equal(res.json.responseCode, '1101', `${phone}: ${res.text}`);
        assert.equal(res.json.orderDetail.phone, '9876543210', phone);
      }
      const wrong = [
        '+91 12345 67890',
        '+91 98765 4321',
        '+91  98765 43210',
        '+91 98765 43210 1',
        '+44 98765 43210',
        '98765_43210',
        '-9876543210',
        '9876543210-',
      ];
      for (const phone of wrong) {
        const orderId = newId('mandate');
        const data = createData(merchant, { orderId, today: clock });
        data.orderDetail = { ...data.orderDetail, phone };
        const res = await transactU(gw.baseUrl, merchant, data);
        assert.equal(res.status, 400, `${phone}: ${res.text}`);
        assert.match(res.text, /orderDetail\.phone/);
        assert.equal(await gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }), null, phone);
      }
    });

    it('any other mode is a validation error (400) and creates nothing', async () => {
      for (const mode of ['2', 2, 'live', '']) {
        const orderId = newId('mandate');
        const res = await transactU(gw.baseUrl, merchant, { ...createData(merchant, { orderId, today: clock }), mode });
        assert.equal(res.status, 400, res.text);
        assert.match(res.text, /mode/);
        assert.equal(await mandateState(orderId), undefined);
      }
    });

    it('firstDebit: the first debit runs at once on approval as its own order <orderId>-first (1111), and is a webhook', async () => {
      const receiver = await startReceiver();
      try {
        await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'json' });
        const orderId = await activeMandate({ firstDebit: true, firstDebitAmount: 12_345 });
        assert.equal(await mandateState(orderId), 'ACTIVE');
        const first = await status(`${orderId}-first`);
        assert.deepEqual([first.txnStatus, first.responseCode, first.orderDetail.amount], ['0', '1111', '12345']);
        await receiver.received(1);
        const [txn] = JSON.parse(JSON.parse(receiver.calls[0]!.body).txnData).txns;
        assert.deepEqual(
          [txn.orderId, txn.responseCode, txn.amount, txn.paymentMode],
          [`${orderId}-first`, '1111', '12345', 'UPI'],
        );
      } finally {
        await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: null, webhookFormat: 'form' });
        await receiver.close();
      }
    });

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

    const execution = (days: number, time: string) => `${istDate(clock, days)} ${time}`;
    const refusals: [string, string, () => Promise<{ parent: string; executionDate: string; amount?: string }>][] = [
      ['no such parent', '1113', async () => ({ parent: 'no-such-mandate', executionDate: execution(2, '08:00:00') })],
      [
        'a parent that is not Adhoc',
        '1115',
        async () => ({ parent: await activeMandate({ frequency: 'Monthly' }), executionDate: execution(2, '08:00:00') }),
      ],
      [
        'a parent the payer declined',
        '1114',
        async () => ({ parent: await activeMandate({ payer: 'failure@sandbox' }), executionDate: execution(2, '08:00:00') }),
      ],
      [
        'a parent whose first debit failed',
        '1117',
        async () => ({
          parent: await activeMandate({ payer: 'debitfail@sandbox', firstDebit: true, firstDebitAmount: 10_000 }),
          executionDate: execution(2, '08:00:00'),
        }),
      ],
      [
        'an executionDate 23 h 59 m ahead',
        '1116',
        async () => ({ parent: await activeMandate(), executionDate: execution(1, '07:59:00') }),
      ],
      [
        'an executionDate in a peak window',
        '1118',
        async () => ({ parent: await activeMandate(), executionDate: execution(2, '17:00:00') }),
      ],
      [
        'an executionDate after endDate',
        '1119',
        async () => ({ parent: await activeMandate({ endInDays: 2 }), executionDate: execution(3, '08:00:00') }),
      ],
      [
        'an amount above the mandate',
        '1120',
        async () => ({ parent: await activeMandate(), executionDate: execution(2, '08:00:00'), amount: '500001' }),
      ],
      [
        'a payer whose bank refuses the notification (notifyfail@sandbox)',
        '1110',
        async () => ({ parent: await activeMandate({ payer: 'notifyfail@sandbox' }), executionDate: execution(2, '08:00:00') }),
      ],
    ];
    for (const [what, code, setUp] of refusals) {
      it(`refuses ${what} with ${code} (HTTP 200) and schedules nothing`, async () => {
        const o = await setUp();
        const orderId = newId('debit');
        const res = await transactU(gw.baseUrl, merchant, notifyData(merchant, { orderId, ...o }));
        assert.equal(res.status, 200);
        assert.deepEqual(Object.keys(res.json), MANDATE_SHAPE);
        assert.equal(res.json.responseCode, code, res.text);
        assert.equal(res.json.bankPostData, null);
        assert.equal(await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }), null);
      });
    }

    it('refuses with 1118 a notify that arrives inside a peak window (10:00:00), and takes one at 13:00:00', async () => {
      const parent = await activeMandate();
      clock = istAt(morning, 0, '10:00:00');
      const inPeak = await transactU(
        gw.baseUrl,
        merchant,
        notifyData(merchant, { orderId: newId('debit'), parent, executionDate: execution(2, '08:00:00') }),
      );
      assert.equal(inPeak.json.responseCode, '1118');
      clock = istAt(morning, 0, '13:00:00');
      const after = await transactU(
        gw.baseUrl,
        merchant,
        notifyData(merchant, { orderId: newId('debit'), parent, executionDate: execution(2, '08:00:00') }),
      );
      assert.equal(after.json.responseCode, '1109');
    });

    it('a scheduled notify resent after a peak window began is answered 1109 again, not refused (one debit)', async () => {
      const parent = await activeMandate();
      clock = istAt(morning, 0, '09:59:00');
      const orderId = newId('debit');
      const data = notifyData(merchant, { orderId, parent, executionDate: execution(2, '08:00:00') });
      assert.equal((await transactU(gw.baseUrl, merchant, data)).json.responseCode, '1109');
      clock = istAt(morning, 0, '10:00:30');
      const resent = await transactU(gw.baseUrl, merchant, data);
      assert.equal(resent.json.responseCode, '1109', `the resend learns its debit is scheduled: ${resent.text}`);
      const other = notifyData(merchant, { orderId: newId('debit'), parent, executionDate: execution(2, '08:00:00') });
      assert.equal(
        (await transactU(gw.baseUrl, merchant, other)).json.responseCode,
        '1118',
        'a new notify in the window is refused',
      );
      const debit = await status(orderId);
      assert.equal(debit.txnStatus, '2');
    });

    it('action execute before the executionDate has nothing to confirm: 1121', async () => {
      const parent = await activeMandate();
      const orderId = newId('debit');
      const notify = await transactU(
        gw.baseUrl,
        merchant,
        notifyData(merchant, { orderId, parent, executionDate: execution(2, '08:00:00'), autoExecute: false }),
      );
      assert.equal(notify.json.responseCode, '1109');
      const data = notifyData(merchant, { orderId, parent, executionDate: execution(2, '08:00:00') });
      data.paymentInstrument.upiMandate = {
        action: 'execute',
        payerVpa: data.paymentInstrument.upiMandate.payerVpa,
        mandateParentOrderId: parent,
      };
      const res = await transactU(gw.baseUrl, merchant, data);
      assert.equal(res.json.responseCode, '1121', res.text);
      assert.equal((await status(orderId)).txnStatus, '2');
    });
  });

  describe('revoke (the sandbox payer)', () => {
    it('ends an ACTIVE mandate, cancels its scheduled debit (1124), and later notifies are refused', async () => {
      const parent = await activeMandate();
      const orderId = newId('debit');
      const executionDate = `${istDate(clock, 2)} 08:00:00`;
      assert.equal(
        (await transactU(gw.baseUrl, merchant, notifyData(merchant, { orderId, parent, executionDate }))).json.responseCode,
        '1109',
      );
      const revoke = () =>
        request(`${gw.baseUrl}/sandbox/v1/mandates/revoke`, {
          body: { merchantIdentifier: merchant.merchantIdentifier, orderId: parent },
        });
      const res = await revoke();
      assert.deepEqual(res.json, {
        success: true,
        data: { merchantIdentifier: merchant.merchantIdentifier, orderId: parent, state: 'REVOKED' },
      });
      const m = await status(parent);
      assert.deepEqual([m.txnStatus, m.responseCode], ['1', '1126']);
      const debit = await until(
        () => status(orderId),
        (d) => d.txnStatus !== '2',
        'the debit to be cancelled',
      );
      assert.deepEqual([debit.txnStatus, debit.responseCode], ['1', '1124']);
      const later = await transactU(
        gw.baseUrl,
        merchant,
        notifyData(merchant, { orderId: newId('debit'), parent, executionDate }),
      );
      assert.equal(later.json.responseCode, '1114');
      const again = await revoke();
      assert.equal(again.json.success, false);
      assert.equal(again.json.message.code, '2037');
      const unknown = await request(`${gw.baseUrl}/sandbox/v1/mandates/revoke`, {
        body: { merchantIdentifier: merchant.merchantIdentifier, orderId: 'nope' },
      });
      assert.equal(unknown.json.message.code, '2036');
    });
  });

  describe('bad requests: the mandate response shape, the right HTTP status, nothing stored', () => {
    const stored = (orderId: string) => gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId });
    async function refused(res: Awaited<ReturnType<typeof transactU>>, http: number, code: string, orderId?: string) {
      assert.equal(res.status, http, res.text);
      assert.deepEqual(Object.keys(res.json), MANDATE_SHAPE);
      assert.equal(res.json.responseCode, code, res.text);
      assert.ok(res.json.responseDescription.length > 5);
      if (orderId) assert.equal(await stored(orderId), null);
    }
    const fresh = () => {
      const orderId = newId('mandate');
      return { orderId, data: createData(merchant, { orderId, today: clock }) };
    };

    it('a missing or unsupported version v: 400, 2009', async () => {
      const { orderId, data } = fresh();
      await refused(await transactU(gw.baseUrl, merchant, data, { v: null }), 400, '2009', orderId);
      await refused(await transactU(gw.baseUrl, merchant, data, { v: '11' }), 400, '2009', orderId);
      await refused(await transactU(gw.baseUrl, merchant, data, { v: '99' }), 400, '2009', orderId);
    });

    it('another method: 405 in the shape of the version asked for, the mandate shape when none is served', async () => {
      for (const v of ['', '?v=13', '?v=99']) {
        const res = await request(`${gw.baseUrl}/transactU${v}`, { method: 'GET' });
        await refused(res, 405, '2041');
        assert.equal(res.headers.get('allow'), 'POST');
      }
      const checkout = await request(`${gw.baseUrl}/transactU?v=8`, { method: 'GET' });
      assert.deepEqual(
        [checkout.status, checkout.json.responseCode, checkout.json.paymentMode],
        [405, '2041', null],
        checkout.text,
      );
    });

    it("the checksum does not cover v: a signed form is refused by the other version's rules, and creates nothing there", async () => {
      const { orderId, data } = fresh();
      const asCheckout = await transactU(gw.baseUrl, merchant, data, { v: '8' });
      assert.equal(asCheckout.json.responseCode, '109', `a mandate's signed data is no checkout: ${asCheckout.text}`);
      assert.equal(await stored(orderId), null);
      assert.equal(await mandateState(orderId), undefined);
      const checkoutOrderId = newId('checkout');
      const asMandate = await transactU(gw.baseUrl, merchant, v8Data(merchant, checkoutOrderId), { v: '13' });
      await refused(asMandate, 400, '2002', checkoutOrderId);
      assert.equal(await mandateState(checkoutOrderId), undefined);
    });

    it('one address, each version its own: another content type is 415 in the mandate shape (v=12, 13), the checkout shape (v=8)', async () => {
      const json = (v: string) => request(`${gw.baseUrl}/transactU?v=${v}`, { body: { data: '{}' } });
      for (const v of ['12', '13']) await refused(await json(v), 415, '2003');
      // v=8 is the custom checkout's: its refusal, in its own shape.
      const checkout = await json('8');
      const checkoutShape = [
        'responseCode',
        'responseDescription',
        'doRedirect',
        'orderDetail',
        'paymentInstrument',
        'paymentMode',
        'bankPostData',
      ];
      assert.deepEqual(Object.keys(checkout.json), checkoutShape, checkout.text);
      assert.match(checkout.json.responseDescription, /Unsupported content type/, checkout.text);
    });

    it('a malformed form: a field twice, bad percent-encoding, no data: 400', async () => {
      const { orderId, data } = fresh();
      const text = encodeURIComponent(JSON.stringify(data));
      await refused(
        await transactU(gw.baseUrl, merchant, data, { body: `data=${text}&data=${text}&checksum=x` }),
        400,
        '2005',
        orderId,
      );
      await refused(await transactU(gw.baseUrl, merchant, data, { body: 'data=%ZZ&checksum=x' }), 400, '2005', orderId);
      await refused(await transactU(gw.baseUrl, merchant, data, { body: 'checksum=x' }), 400, '2002', orderId);
    });

    it('data that is not a JSON object: 400, 2001', async () => {
      await refused(await transactU(gw.baseUrl, merchant, '{"merchantIdentifier":'), 400, '2001');
      await refused(await transactU(gw.baseUrl, merchant, '[1,2]'), 400, '2001');
    });

    it('a missing or wrong checksum, an unknown merchant: 401', async () => {
      const { orderId, data } = fresh();
      await refused(await transactU(gw.baseUrl, merchant, data, { checksum: null }), 401, '2010', orderId);
      await refused(await transactU(gw.baseUrl, merchant, data, { checksum: 'ab'.repeat(32) }), 401, '2011', orderId);
      await refused(await transactU(gw.baseUrl, merchant, { ...data, merchantIdentifier: 'f'.repeat(32) }), 401, '2012', orderId);
      await refused(await transactU(gw.baseUrl, merchant, { ...data, merchantIdentifier: 7 }), 401, '2012', orderId);
    });

    it("an unknown encryptionKeyId, or another merchant's: 400, 2015", async () => {
      const other = await gw.newMerchant('Other');
      const { orderId, data } = fresh();
      await refused(await transactU(gw.baseUrl, merchant, { ...data, encryptionKeyId: 'nope' }), 400, '2015', orderId);
      await refused(
        await transactU(gw.baseUrl, merchant, { ...data, encryptionKeyId: other.encryptionKeyId }),
        400,
        '2015',
        orderId,
      );
    });

    it('a payerVpa that does not decrypt: one and the same 400, 2016, whatever went wrong', async () => {
      const other = await gw.newMerchant('Other');
      const bodies: string[] = [];
      for (const payerVpa of [
        Buffer.from('not a ciphertext').toString('base64'),
        encryptVpa(other.publicKeyPem, 'success@sandbox', 'pkcs1'),
        encryptVpa(other.publicKeyPem, 'success@sandbox', 'oaep-sha256'),
        encryptVpa(merchant.publicKeyPem, 'not a vpa', 'pkcs1'),
      ]) {
        const { orderId, data } = fresh();
        data.paymentInstrument.upiMandate.payerVpa = payerVpa;
        const res = await transactU(gw.baseUrl, merchant, data);
        await refused(res, 400, '2016', orderId);
        bodies.push(res.text);
      }
      assert.equal(new Set(bodies).size, 1);
    });

    const yesterday = () => istDate(clock, -1);
    const invalid: [string, (d: Record<string, any>) => void][] = [
      ['amount not a number', (d) => (d.orderDetail.amount = 'abc')],
      ['amount zero', (d) => (d.orderDetail.amount = '0')],
      ['amount as a JSON number', (d) => (d.orderDetail.amount = 500000)],
      ['an orderId with a space', (d) => (d.orderDetail.orderId = 'two words')],
      ['no productDescription', (d) => delete d.orderDetail.productDescription],
      ['a bad email', (d) => (d.orderDetail.email = 'nobody')],
      ['a bad phone', (d) => (d.orderDetail.phone = '12345')],
      ['purpose as a Boolean', (d) => (d.orderDetail.purpose = true)],
      ['txnDate not a date', (d) => (d.orderDetail.txnDate = 'yesterday')],
      ['currency USD', (d) => (d.orderDetail.currency = 'USD')],
      ['merchantIpAddress not an address', (d) => (d.merchantIpAddress = 'localhost')],
      ['returnUrl not http(s)', (d) => (d.returnUrl = 'ftp://merchant.example/')],
      ['paymentMode upiMandate', (d) => (d.paymentInstrument.paymentMode = 'upiMandate')],
      ['action cancel', (d) => (d.paymentInstrument.upiMandate.action = 'cancel')],
      ['payerVpa not base64', (d) => (d.paymentInstrument.upiMandate.payerVpa = 'success@sandbox')],
      ['no mandateConfig on create', (d) => delete d.paymentInstrument.upiMandate.mandateConfig],
      ['frequency Hourly', (d) => (d.paymentInstrument.upiMandate.mandateConfig.frequency = 'Hourly')],
      ['firstDebit without firstDebitAmount', (d) => (d.paymentInstrument.upiMandate.mandateConfig.firstDebit = true)],
      [
        'firstDebitAmount above the amount',
        (d) => Object.assign(d.paymentInstrument.upiMandate.mandateConfig, { firstDebit: true, firstDebitAmount: 500001 }),
      ],
      ['startDate not a calendar date', (d) => (d.paymentInstrument.upiMandate.mandateConfig.startDate = '2026-02-30')],
      ['startDate in the past', (d) => (d.paymentInstrument.upiMandate.mandateConfig.startDate = yesterday())],
      [
        'endDate not after startDate',
        (d) => (d.paymentInstrument.upiMandate.mandateConfig.endDate = d.paymentInstrument.upiMandate.mandateConfig.startDate),
      ],
      ['endDate in the past', (d) => (d.paymentInstrument.upiMandate.mandateConfig.endDate = yesterday())],
      [
        'a notify without mandateParentOrderId',
        (d) =>
          (d.paymentInstrument.upiMandate = {
            action: 'notify',
            payerVpa: d.paymentInstrument.upiMandate.payerVpa,
            executionDate: '2030-01-01 08:00:00',
          }),
      ],
      [
        'a notify with a malformed executionDate',
        (d) =>
          (d.paymentInstrument.upiMandate = {
            action: 'notify',
            payerVpa: d.paymentInstrument.upiMandate.payerVpa,
            mandateParentOrderId: 'p',
            executionDate: '2030-01-01T08:00:00',
          }),
      ],
      [
        'a notify whose executionDate does not exist',
        (d) =>
          (d.paymentInstrument.upiMandate = {
            action: 'notify',
            payerVpa: d.paymentInstrument.upiMandate.payerVpa,
            mandateParentOrderId: 'p',
            executionDate: '2030-02-30 08:00:00',
          }),
      ],
    ];
    for (const [what, spoil] of invalid) {
      it(`${what}: 400, 2002`, async () => {
        const { orderId, data } = fresh();
        spoil(data);
        await refused(await transactU(gw.baseUrl, merchant, data), 400, '2002', orderId);
      });
    }
  });
});
