import { strict as assert } from 'node:assert';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { QR_IMAGE_LABEL } from '../../src/domain/qr-image-address';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createQr, payQr, pngSize, qrBody } from '../support/qr';

describe('Dynamic QR: POST /api/payments/v1/upi/qr', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Chai Point')));

  it('creates a Pending UPI order with the intent, a signed image address and a PNG of the requested size', async () => {
    const orderId = newOrderId('qr');
    const res = await createQr(gw, merchant, {
      orderId,
      amount: 12_345,
      productDescription: 'Tea & snacks',
      width: 300,
      height: 240,
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.success, true);
    assert.deepEqual(res.json.message, { code: '208', text: 'Transaction is in processing state' });
    const { data } = res.json;
    assert.equal(data.orderId, orderId);
    assert.match(data.serviceOrderId, /^[0-9A-Z]{16,}$/);
    assert.equal(
      data.qrDetails.url,
      `upi://pay?pa=merchantgateway%40sandbox&pn=Chai%20Point&am=123.45&tr=${data.serviceOrderId}&tn=Tea%20%26%20snacks&cu=INR&mc=5399`,
    );
    assert.deepEqual(pngSize(Buffer.from(data.qrDetails.imgData, 'base64')), { width: 300, height: 240 });

    const img = new URL(data.qrDetails.imgUrl);
    assert.equal(img.pathname, '/api/payments/v1/upi/qr/image');
    const rawData = /[?&]data=([^&]*)/.exec(img.search)![1]!;
    assert.equal(decodeURIComponent(rawData), data.qrDetails.url);
    assert.equal(
      img.searchParams.get('checksum'),
      hmacSha256Hex(merchant.secretKey, `${QR_IMAGE_LABEL}${merchant.merchantIdentifier}300240${rawData}`),
    );
    const png = await fetch(`${gw.baseUrl}${img.pathname}${img.search}`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.deepEqual(pngSize(Buffer.from(await png.arrayBuffer())), { width: 300, height: 240 });

    const status = await checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
    });
    const order = status.json.data.orders[0];
    assert.equal(order.txnStatus, '2');
    assert.equal(order.paymentInstrument.paymentMode, 'UPI');
    assert.equal(order.orderDetail.amount, '12345');
    assert.equal(order.orderDetail.txnId, data.serviceOrderId);
  });

  it('defaults width and height to 200', async () => {
    const res = await createQr(gw, merchant, { orderId: newOrderId('qr') });
    assert.deepEqual(pngSize(Buffer.from(res.json.data.qrDetails.imgData, 'base64')), { width: 200, height: 200 });
  });

  it('answers a repeat with 128 and the first data byte for byte, whatever the repeat carries', async () => {
    const orderId = newOrderId('qr');
    const first = await createQr(gw, merchant, { orderId, width: 150, height: 150 });
    const repeat = await createQr(gw, merchant, {
      orderId,
      amount: 99_999,
      productDescription: 'Other',
      width: 400,
      height: 400,
    });
    assert.equal(repeat.status, 200);
    assert.equal(repeat.json.success, false);
    assert.deepEqual(repeat.json.message, { code: '128', text: 'Order id already processed' });
    assert.equal(dataText(repeat.text), dataText(first.text));
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.amountPaise, 10_000);
  });

  it('gives exactly one 208 and nineteen 128 with identical data when 20 requests race for a new order id', async () => {
    const orderId = newOrderId('qr');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createQr(gw, merchant, { orderId, amount: 1000 + i })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(20).fill(200),
    );
    assert.equal(answers.filter((a) => a.json.message.code === '208').length, 1);
    assert.equal(answers.filter((a) => a.json.message.code === '128').length, 19);
    assert.equal(new Set(answers.map((a) => dataText(a.text))).size, 1);
  });

  it('answers 128 without creating a second transaction when the order id belongs to a sandbox payment', async () => {
    const orderId = newOrderId('qr');
    const paid = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    const res = await createQr(gw, merchant, { orderId });
    assert.equal(res.json.message.code, '128');
    assert.deepEqual(res.json.data, { orderId, serviceOrderId: paid.json.data.txnId });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.instrument.kind, 'UPI');
  });

  describe('bad input: right status and envelope, never a 500, nothing stored', () => {
    const cases: [string, (orderId: string) => Promise<{ status: number; json: any }>, number, string][] = [
      ['malformed JSON', () => request(`${gwUrl()}/api/payments/v1/upi/qr`, { body: '{"merchantIdentifier":' }), 400, '2001'],
      ['missing merchantIdentifier', (o) => request(`${gwUrl()}/api/payments/v1/upi/qr`, { body: { orderId: o } }), 400, '2002'],
      ['missing checksum', (o) => post({ ...qrBody(merchant, { orderId: o }), checksum: undefined }), 401, '2010'],
      ['wrong checksum', (o) => createQr(gw, merchant, { orderId: o, checksum: 'a'.repeat(64) }), 401, '2011'],
      ['unknown merchant', (o) => post({ ...qrBody(merchant, { orderId: o }), merchantIdentifier: 'f'.repeat(32) }), 401, '2012'],
      ['amount as text', (o) => createQr(gw, merchant, { orderId: o, amount: '100' }), 400, '2002'],
      ['fractional amount', (o) => createQr(gw, merchant, { orderId: o, amount: 100.5 }), 400, '2002'],
      ['zero amount', (o) => createQr(gw, merchant, { orderId: o, amount: 0 }), 400, '2002'],
      ['missing productDescription', (o) => createQr(gw, merchant, { orderId: o, productDescription: undefined }), 400, '2002'],
      ['width 99', (o) => createQr(gw, merchant, { orderId: o, width: 99 }), 400, '2002'],
      ['height 1001', (o) => createQr(gw, merchant, { orderId: o, height: 1001 }), 400, '2002'],
      ['width as text', (o) => createQr(gw, merchant, { orderId: o, width: '200' }), 400, '2002'],
      ['bad buyerEmail', (o) => createQr(gw, merchant, { orderId: o, buyerEmail: 'nope' }), 400, '2002'],
    ];
    const gwUrl = () => gw.baseUrl;
    const post = (body: object) => request(`${gw.baseUrl}/api/payments/v1/upi/qr`, { body: JSON.stringify(body) });
    for (const [name, send, status, code] of cases) {
      it(name, async () => {
        const orderId = newOrderId('bad');
        const res = await send(orderId);
        assert.equal(res.status, status);
        assert.equal(res.json.success, false);
        assert.equal(res.json.message.code, code);
        assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null);
      });
    }

    it("signing with another merchant's key does not reach that merchant's order", async () => {
      const other = await gw.newMerchant('Other');
      const orderId = newOrderId('qr');
      await createQr(gw, merchant, { orderId });
      const forged = qrBody(other, { orderId });
      const res = await post({ ...forged, merchantIdentifier: merchant.merchantIdentifier });
      assert.equal(res.status, 401);
      const own = await createQr(gw, other, { orderId });
      assert.equal(own.json.message.code, '208', 'the same order id is a new order for another merchant');
    });
  });
});

describe('QR image: GET /api/payments/v1/upi/qr/image', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let address: URL;

  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant());
    const res = await createQr(gw, merchant, { orderId: newOrderId('img') });
    address = new URL(res.json.data.qrDetails.imgUrl);
  });

  const get = (search: string) => fetch(`${gw.baseUrl}${address.pathname}?${search}`);
  const tamper = (name: string, value: string) =>
    address.search.slice(1).replace(new RegExp(`${name}=[^&]*`), `${name}=${value}`);

  it('refuses a tampered, unsigned or foreign-merchant address with 401', async () => {
    const other = await gw.newMerchant('Other');
    for (const search of [
      tamper('width', '201'),
      tamper('data', 'upi%3A%2F%2Fpay%3Fpa%3Dthief%2540upi'),
      tamper('checksum', 'b'.repeat(64)),
      tamper('mid', other.merchantIdentifier),
      address.search.slice(1).replace(/&checksum=[^&]*/, ''),
      '',
    ]) {
      const res = await get(search);
      assert.equal(res.status, 401, search);
      const json = (await res.json()) as any;
      assert.equal(json.success, false);
    }
  });

  it("never takes an image address's checksum for a QR create's, nor a create's for an image's", async () => {
    const q = Object.fromEntries(
      address.search
        .slice(1)
        .split('&')
        .map((kv) => kv.split('=') as [string, string]),
    );
    // The create text mid+orderId+amount+productDescription spelled as the image's mid+width+height+data.
    const asCreate = await request(`${gw.baseUrl}/api/payments/v1/upi/qr`, {
      body: JSON.stringify({
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: q.width,
        amount: Number(q.height),
        productDescription: q.data,
        checksum: q.checksum,
      }),
    });
    assert.equal(asCreate.status, 401, asCreate.text);
    assert.equal(asCreate.json.message.code, '2011');

    const data = 'upi%3A%2F%2Fpay%3Fpa%3Dthief%2540upi';
    const createChecksum = qrBody(merchant, { orderId: '300', amount: 300, productDescription: data }).checksum;
    const asImage = await get(`mid=${merchant.merchantIdentifier}&width=300&height=300&data=${data}&checksum=${createChecksum}`);
    assert.equal(asImage.status, 401);
  });

  it('serves an address signed the earlier (unlabelled) way only while QR_IMAGE_UNLABELLED_UNTIL lasts', async () => {
    const data = encodeURIComponent('upi://pay?pa=merchantgateway%40sandbox&am=1.00&cu=INR');
    const unlabelled = (m: MerchantCredentials) =>
      `mid=${m.merchantIdentifier}&width=200&height=200&data=${data}&checksum=${hmacSha256Hex(m.secretKey, `${m.merchantIdentifier}200200${data}`)}`;
    assert.equal((await get(unlabelled(merchant))).status, 401, 'unset: refused');
    const upgrading = await startTestGateway({ QR_IMAGE_UNLABELLED_UNTIL: new Date(Date.now() + 3_600_000).toISOString() });
    const over = await startTestGateway({ QR_IMAGE_UNLABELLED_UNTIL: new Date(Date.now() - 1000).toISOString() });
    try {
      const m = await upgrading.newMerchant('Upgrading');
      const res = await fetch(`${upgrading.baseUrl}${address.pathname}?${unlabelled(m)}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      const late = await over.newMerchant('Window over');
      assert.equal((await fetch(`${over.baseUrl}${address.pathname}?${unlabelled(late)}`)).status, 401);
    } finally {
      await upgrading.stop();
      await over.stop();
    }
  });

  it('refuses a malformed address with 400', async () => {
    for (const search of [
      tamper('width', 'abc'),
      tamper('height', '5000'),
      tamper('width', '99'),
      `${address.search.slice(1)}&width=300`,
    ]) {
      const res = await get(search);
      assert.equal(res.status, 400, search);
      assert.equal(((await res.json()) as any).message.code, '2002');
    }
  });
});

describe('Sandbox QR payer: POST /sandbox/v1/qr/pay', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  it('pays an open QR: the order becomes Success with the payer recorded, and a second payment is refused', async () => {
    const orderId = newOrderId('qr');
    await createQr(gw, merchant, { orderId });
    const [a, b] = await Promise.all([
      payQr(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' }),
      payQr(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'failure@sandbox' }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 202]);
    const refused = a.status === 200 ? a : b;
    assert.equal(refused.json.message.code, '2032');
    const result = await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const winner = a.status === 202 ? 'success@sandbox' : 'failure@sandbox';
    assert.equal(result.status, winner === 'success@sandbox' ? 'Success' : 'Failure');
    assert.deepEqual(t?.instrument, { kind: 'UPI', vpa: winner, bankName: 'Sandbox UPI Bank', viaQr: true });

    const again = await payQr(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal(again.json.message.code, '2032');
  });

  it('refuses an unknown order, a non-QR order and a bad VPA', async () => {
    const unknown = await payQr(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: newOrderId(),
      payerVpa: 'success@sandbox',
    });
    assert.equal(unknown.json.message.code, '2020');
    const orderId = newOrderId();
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    const notQr = await payQr(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal(notQr.json.message.code, '2031');
    const bad = await payQr(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'someone@upi' });
    assert.equal(bad.status, 400);
  });

  it('expires an unpaid QR into Failure (1024) and refuses to pay it afterwards', async () => {
    const short = await startTestGateway({ QR_EXPIRY_SECONDS: '1' });
    const m = await short.newMerchant();
    const orderId = newOrderId('qr');
    await createQr(short, m, { orderId });
    const result = await paymentFinished(short, m.merchantIdentifier, orderId);
    assert.equal(result.status, 'Failure');
    const t = await storedTransaction(short, m.merchantIdentifier, orderId);
    assert.equal(t?.responseCode, '1024');
    assert.equal(t?.markedFailedByService, true);
    const late = await payQr(short, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    assert.equal(late.json.message.code, '2032');
    await short.stop();
  });
});

/** The `data` member of a QR response exactly as sent. */
function dataText(body: string): string {
  return body.slice(body.indexOf('"data":'));
}
