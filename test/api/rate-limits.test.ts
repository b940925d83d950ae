import { strict as assert } from 'node:assert';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { kitForm, KIT_FORMS, legacyChecksum, postForm, withChecksum, type Pairs } from '../support/checkout';
import { newOrderId, sandboxPay } from '../support/payments';
import { createQr } from '../support/qr';

describe('Rate limits: per merchant and API family', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ RATE_LIMIT_PER_SECOND: '5' });
  });
  after(async () => gw?.stop());

  it('answers 429 with Retry-After in the family envelope past the limit, for that merchant and family only', async () => {
    const [busy, quiet] = [await gw.newMerchant('Busy'), await gw.newMerchant('Quiet')];
    const body = (m: typeof busy) => ({ merchantIdentifier: m.merchantIdentifier, orderId: 'none', version: 13 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => checkStatus(gw.baseUrl, busy.secretKey, body(busy))));
    const limited = answers.filter((a) => a.status === 429);
    assert.ok(answers.filter((a) => a.status === 200).length <= 5 + 5, 'at most the limit per second got through');
    assert.ok(limited.length >= 5, `expected refusals, got ${answers.map((a) => a.status).join(',')}`);
    assert.deepEqual(limited[0]!.json, {
      status: false,
      message: { code: 2029, text: 'Too many requests: at most 5 requests per second for this API' },
    });
    assert.match(limited[0]!.headers.get('retry-after') ?? '', /^[1-9]\d*$/);

    assert.equal((await checkStatus(gw.baseUrl, quiet.secretKey, body(quiet))).status, 200, 'another merchant is not limited');
    const pay = await sandboxPay(gw, {
      merchantIdentifier: busy.merchantIdentifier,
      orderId: newOrderId(),
      payerVpa: 'success@sandbox',
    });
    assert.equal(pay.status, 202, 'another family of the same merchant is not limited');

    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await checkStatus(gw.baseUrl, busy.secretKey, body(busy))).status, 200, 'the next second is allowed again');
  });

  it("a payer replaying a merchant's public checkout form or QR image address spends its own budget, not the merchant's", async () => {
    const proxied = await startTestGateway({ RATE_LIMIT_PER_SECOND: '5', TRUST_PROXY: 'true' });
    try {
      const m = await proxied.newMerchant('Replayed');
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
      const form = (orderId: string): Pairs => {
        const pairs = kitForm(KIT_FORMS.wooCommerce20, {
          merchantIdentifier: m.merchantIdentifier,
          orderId,
          returnUrl: 'http://localhost/zp/response.php',
          amount: '10000',
        });
        return withChecksum(pairs, legacyChecksum(m.secretKey, pairs));
      };
      const signed = form(newOrderId('rp'));
      assert.equal((await postForm(`${proxied.baseUrl}/transact`, signed, from('203.0.113.9'))).status, 303);
      // The replayer posts the same signed form again and again within one second.
      const replays = await Promise.all(
        Array.from({ length: 15 }, () => postForm(`${proxied.baseUrl}/transact`, signed, from('203.0.113.9'))),
      );
      assert.ok(
        replays.some((r) => r.status === 429),
        `the replayer is limited: ${replays.map((r) => r.status).join(',')}`,
      );
      // The merchant's real customers, from their own addresses, still check out.
      for (const customer of ['198.51.100.7', '198.51.100.8', '198.51.100.9']) {
        const res = await postForm(`${proxied.baseUrl}/transact`, form(newOrderId('rp')), from(customer));
        assert.equal(res.status, 303, `${customer}: ${res.status} ${res.text.slice(0, 200)}`);
      }

      const qr = await createQr(proxied, m, { orderId: newOrderId('rq') });
      const image = new URL(qr.json.data.qrDetails.imgUrl);
      const fetchImage = (address: string) =>
        fetch(`${proxied.baseUrl}${image.pathname}${image.search}`, { headers: { 'x-forwarded-for': address } });
      const images = await Promise.all(Array.from({ length: 15 }, () => fetchImage('203.0.113.9')));
      assert.ok(
        images.some((r) => r.status === 429),
        `the replayer is limited: ${images.map((r) => r.status).join(',')}`,
      );
      assert.equal((await fetchImage('198.51.100.7')).status, 200, "a customer's QR image still renders");
    } finally {
      await proxied.stop();
    }
  });

  it('shares the count between API replicas through the store, within one sharing period', async () => {
    const replica = await startTestGateway({
      RATE_LIMIT_PER_SECOND: '5',
      MASTER_KEY: gw.rt.config.secrets.masterKey,
      TEMPORAL_TASK_QUEUE: gw.rt.config.temporal.taskQueue,
    });
    try {
      const m = await gw.newMerchant('Shared');
      const body = { merchantIdentifier: m.merchantIdentifier, orderId: 'none', version: 13 };
      // Align to the start of a second, so both replicas count within the same one.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
      const first = await Promise.all(Array.from({ length: 5 }, () => checkStatus(gw.baseUrl, m.secretKey, body)));
      assert.deepEqual(
        first.map((r) => r.status),
        [200, 200, 200, 200, 200],
      );
      const sharingPeriods = () => new Promise((resolve) => setTimeout(resolve, 250));
      await sharingPeriods();
      assert.equal((await checkStatus(gw.baseUrl, m.secretKey, body)).status, 429, 'the second is used up');
      // The other replica learns it when it next adds its own count: it overshoots by one period at most.
      assert.equal((await checkStatus(replica.baseUrl, m.secretKey, body)).status, 200);
      await sharingPeriods();
      assert.equal((await checkStatus(replica.baseUrl, m.secretKey, body)).status, 429, 'the other replica refuses too');
    } finally {
      await replica.stop();
    }
  });
});
