import { strict as assert } from 'node:assert';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { PaymentLinkRepository } from '../../src/store/payment-link-repository';
import { payLink } from '../../src/usecases/pay-link';
import { startPaymentDeps } from '../../src/usecases/start-payment';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { ledger } from '../support/ledger';
import { startReceiver } from '../support/receiver';
import { newOrderId, sandboxPay, storedTransaction } from '../support/payments';
import {
  createLinks,
  linkEntry,
  linkExpireBy,
  linkPath,
  newBatchId,
  openLink,
  payByCard,
  payForm,
} from '../support/payment-links';

async function until(what: () => Promise<boolean>, label: string) {
  for (let i = 0; i < 200; i++) {
    if (await what()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out: ${label}`);
}

describe('Payment links: POST /pl/api/v1/create, GET /pl/:token and POST /pl/:token/pay', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Meera Textiles'));
  });
  const receivers: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const r of receivers) await r.close();
  });
  const create = (details: unknown[], batchId = newBatchId()) => createLinks(gw, merchant.apiKey, { batchId, details });
  const statusOf = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0];

  it('creates links: each entry echoed, a link to the page, a QR of the link at the asked size, the order Pending', async () => {
    const entry = linkEntry({ showQrImg: true, qrImgSize: { height: 300, width: 240 }, customerMobile: 9876543210 });
    const res = await create([entry, linkEntry({ customerMobile: '6123456789' })]);
    assert.equal(res.status, 200);
    assert.deepEqual([res.json.success, res.json.statusCode, res.json.errorMessage], [true, 200, null]);
    const [first, second] = res.json.data;
    assert.match(first.link, new RegExp(`^${gw.rt.config.http.publicBaseUrl}/pl/[A-Za-z0-9_-]{24}$`));
    assert.notEqual(first.link, second.link);
    assert.deepEqual(
      { ...first, link: undefined, qrCode: undefined },
      { ...entry, customerMobile: '9876543210', linkExpireBy: first.linkExpireBy, link: undefined, qrCode: undefined },
    );
    assert.match(first.linkExpireBy, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(second.customerMobile, '6123456789');
    assert.equal(second.qrCode, undefined, 'no QR unless asked');
    const png = PNG.sync.read(Buffer.from(first.qrCode, 'base64'));
    assert.deepEqual([png.width, png.height], [240, 300]);
    // Rendered in the worker pool: a QR reader still reads the link from it.
    assert.equal(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data, first.link);
    const order = await statusOf(entry.orderId as string);
    assert.deepEqual([order.txnStatus, order.orderDetail.amount], ['2', '24950']);
    // Its workflow waits for the payer, tagged for operators.
    await until(async () => {
      try {
        const d = await gw.rt.temporal.workflow
          .getHandle(paymentWorkflowId(merchant.merchantIdentifier, entry.orderId as string))
          .describe();
        return d.status.name === 'RUNNING';
      } catch {
        return false;
      }
    }, 'the link workflow runs');
  });

  it('answers a mixed batch per entry: 207 with the failing fields named, nothing stored for them', async () => {
    const good = linkEntry();
    const bad: [Record<string, unknown>, RegExp][] = [
      [linkEntry({ amount: 8.99 }), /^amount: /],
      [linkEntry({ amount: 10.005 }), /^amount: must have at most 2 decimals/],
      [linkEntry({ amount: '100' }), /^amount: /],
      [linkEntry({ linkExpireBy: linkExpireBy(-60_000) }), /^linkExpireBy: must be in the future/],
      [linkEntry({ linkExpireBy: '31/02/2027 10:00:00' }), /^linkExpireBy: no such date/],
      [linkEntry({ linkExpireBy: '2027-01-01 10:00:00' }), /^linkExpireBy: must be dd\/MM\/yyyy HH:mm:ss/],
      [linkEntry({ customerMobile: '12345' }), /^customerMobile: /],
      [linkEntry({ customerEmail: 'not-an-email' }), /^customerEmail: /],
      [linkEntry({ productDescription: undefined }), /^productDescription: /],
      [linkEntry({ orderId: 'has spaces' }), /^orderId: /],
      [linkEntry({ qrImgSize: { height: 5000, width: 200 } }), /^qrImgSize.height: /],
      [linkEntry({ showQrImg: 'yes' }), /^showQrImg: /],
    ];
    const res = await create([good, ...bad.map(([e]) => e)]);
    assert.equal(res.status, 200);
    assert.deepEqual([res.json.success, res.json.statusCode], [false, 207]);
    assert.match(res.json.errorMessage, /12 of 13/);
    assert.ok(res.json.data[0].link);
    bad.forEach(([entry, reason], i) => {
      const answer = res.json.data[i + 1];
      assert.equal(answer.link, null);
      assert.match(answer.errorDescription, reason, JSON.stringify(answer));
      assert.equal(answer.orderId, entry.orderId, 'echoed as sent');
    });
    for (const [entry] of bad)
      assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, entry.orderId as string), null);

    const none = await create([linkEntry({ amount: 1 })]);
    assert.deepEqual([none.status, none.json.success, none.json.statusCode], [200, false, 400]);
  });

  it('refuses a batchId or an orderId used before, per entry', async () => {
    const batchId = newBatchId();
    assert.equal((await create([linkEntry()], batchId)).json.statusCode, 200);
    const again = await create([linkEntry(), linkEntry()], batchId);
    assert.deepEqual(
      again.json.data.map((d: { errorDescription: string }) => d.errorDescription),
      ['batchId: already used for another batch', 'batchId: already used for another batch'],
    );
    const paidOrder = newOrderId('paid');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId: paidOrder, payerVpa: 'success@sandbox' });
    const twice = linkEntry();
    const res = await create([linkEntry({ orderId: paidOrder }), twice, { ...twice }]);
    assert.deepEqual(
      res.json.data.map((d: { link: string | null; errorDescription?: string }) => d.errorDescription ?? 'ok'),
      ['orderId: already used for another order', 'ok', 'orderId: already used for another order'],
    );
  });

  it('answers a batch of 500 in one call, every link distinct', async () => {
    const res = await create(Array.from({ length: 500 }, () => linkEntry()));
    assert.equal(res.json.statusCode, 200, res.text.slice(0, 300));
    assert.equal(new Set(res.json.data.map((d: { link: string }) => d.link)).size, 500);
  });

  it('refuses a batch whose QR images exceed the pixel budget: 400, code 2018, nothing created', async () => {
    const budget = gw.rt.config.qr.pixelBudget;
    const big = { showQrImg: true, qrImgSize: { width: 1000, height: 1000 } };
    const entries = Array.from({ length: Math.floor(budget / 1_000_000) + 1 }, () => linkEntry(big));
    const res = await create([...entries, linkEntry()]);
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.deepEqual([res.json.success, res.json.statusCode, res.json.data], [false, 400, []]);
    assert.match(
      res.json.errorMessage,
      new RegExp(`^2018: .*${entries.length * 1_000_000} pixels of QR images, at most ${budget}$`),
    );
    for (const e of [entries[0]!, entries.at(-1)!]) {
      assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, e.orderId as string), null, 'no order stored');
    }
    // Entries refused on their own render nothing, so they count for nothing; within the budget it passes.
    const fits = await create([linkEntry({ ...big, amount: 1 }), linkEntry({ showQrImg: true })]);
    assert.deepEqual([fits.status, fits.json.statusCode], [200, 207]);
  });

  describe('bad requests: the envelope with statusCode, never a 500', () => {
    const cases: [string, object | string, number][] = [
      ['malformed JSON', '{"batchId":', 400],
      ['no details', { batchId: 'b-1' }, 400],
      ['empty details', { batchId: 'b-1', details: [] }, 400],
      ['501 entries', { batchId: 'b-1', details: Array.from({ length: 501 }, () => ({})) }, 400],
      ['a batchId with spaces', { batchId: 'b 1', details: [{}] }, 400],
    ];
    for (const [what, body, status] of cases) {
      it(`${what}: ${status}`, async () => {
        const res = await createLinks(gw, merchant.apiKey, body);
        assert.equal(res.status, status, res.text);
        assert.equal(res.json.success, false);
        assert.equal(res.json.statusCode, status);
        assert.deepEqual(res.json.data, []);
        assert.equal(typeof res.json.errorMessage, 'string');
      });
    }
    it('a missing or wrong API key: 401', async () => {
      const res = await createLinks(gw, 'nope', { batchId: 'b', details: [linkEntry()] });
      assert.deepEqual([res.status, res.json.statusCode, res.json.success], [401, 401, false]);
    });
  });

  it('GET /pl/:token serves the page: merchant, product, invoice, amount, QR and time left, everything escaped; unknown links are 404', async () => {
    const entry = linkEntry({ productDescription: '<script>alert("x")</script> & silk', invoiceNumber: '<b>INV</b>' });
    const link = (await create([entry])).json.data[0].link;
    const page = await openLink(gw, linkPath(link));
    assert.equal(page.status, 200);
    assert.match(page.html, /Pay Meera Textiles/);
    assert.match(page.html, /₹249\.50/);
    assert.match(page.html, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; silk/);
    assert.ok(!page.html.includes('<script>'), 'no script from the merchant');
    assert.match(page.html, /&lt;b&gt;INV&lt;\/b&gt;/);
    assert.match(page.html, /<img class="qr" src="data:image\/png;base64,/);
    assert.match(page.html, /Time left: <strong id="time-left">23 h 59 min/);
    assert.match(page.cookie, /^pl_csrf=/);
    assert.equal((await openLink(gw, '/pl/AAAAAAAAAAAAAAAAAAAAAAAA')).status, 404);
    assert.equal((await openLink(gw, '/pl/nope')).status, 404);
  });

  it('POST /pl/:token/pay: 303 back to the page, then the paid page; Success in the status API, the ledger and a webhook', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url });
    const entry = linkEntry();
    const path = linkPath((await create([entry])).json.data[0].link);
    const page = await openLink(gw, path);
    const paid = await payForm(gw, path, { csrf: page.csrf, payerVpa: 'success@sandbox' }, { cookie: page.cookie });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), path);
    await until(async () => (await openLink(gw, path)).html.includes('Payment successful'), 'the paid page');
    const order = await statusOf(entry.orderId as string);
    assert.deepEqual([order.txnStatus, order.paymentInstrument.paymentMode], ['0', 'UPI']);
    await until(async () => receiver.calls.length > 0, 'the real-time webhook');
    const txnData = JSON.parse(new URLSearchParams(receiver.calls[0]!.body).get('txnData')!);
    assert.deepEqual([txnData.txns[0].orderId, txnData.txns[0].responseCode], [entry.orderId, '100']);
    const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const ledgerPage = await ledger(gw, merchant.apiKey, { startDateTime: today, endDateTime: today, status: 'SUCCESS' });
    assert.ok(ledgerPage.json.data.transactions.some((t: { orderId: string }) => t.orderId === entry.orderId));
    // Paid once: the form again changes nothing.
    const again = await openLink(gw, path);
    assert.equal(again.status, 200);
    assert.equal(again.csrf, '', 'no pay form on a paid link');
  });

  it('POST /pl/:token/pay with a declined card shows the decline; a bad instrument shows the error on the page, paying nothing', async () => {
    const entry = linkEntry();
    const path = linkPath((await create([entry])).json.data[0].link);
    const page = await openLink(gw, path);
    const bad = await payForm(gw, path, { csrf: page.csrf, cardNumber: '1111222233334444' }, { cookie: page.cookie });
    assert.equal(bad.status, 400);
    // Against a bank over http no card number is taken here at all: it is typed on the bank's page.
    const refusal = gw.bank ? /card numbers are entered on your bank&#39;s page/ : /cardNumber must be a test card/;
    assert.match(await bad.text(), refusal);
    assert.equal((await statusOf(entry.orderId as string)).txnStatus, '2');
    await payByCard(gw, path, page, '4000 0000 0000 0002');
    await until(async () => (await openLink(gw, path)).html.includes('Payment declined'), 'the declined page');
    assert.equal((await statusOf(entry.orderId as string)).txnStatus, '1');
  });

  it('POST /pl/:token/pay refuses cross-site form posts: no cookie, another cookie, another or an opaque origin', async () => {
    const entry = linkEntry();
    const path = linkPath((await create([entry])).json.data[0].link);
    const page = await openLink(gw, path);
    const attempts = [
      payForm(gw, path, { csrf: page.csrf, payerVpa: 'success@sandbox' }),
      payForm(gw, path, { csrf: page.csrf, payerVpa: 'success@sandbox' }, { cookie: 'pl_csrf=forged' }),
      payForm(
        gw,
        path,
        { csrf: page.csrf, payerVpa: 'success@sandbox' },
        { cookie: page.cookie, origin: 'https://evil.example' },
      ),
      payForm(gw, path, { csrf: page.csrf, payerVpa: 'success@sandbox' }, { cookie: page.cookie, origin: 'null' }),
    ];
    for (const res of await Promise.all(attempts)) assert.equal(res.status, 403);
    assert.equal((await statusOf(entry.orderId as string)).txnStatus, '2');
  });

  it('two payers at the same moment: exactly one pays', async () => {
    const entry = linkEntry();
    const token = linkPath((await create([entry])).json.data[0].link)
      .split('/')
      .pop()!;
    const link = (await new PaymentLinkRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).findByToken(token))!;
    const deps = startPaymentDeps(gw.rt);
    const results = await Promise.all([
      payLink(deps, link, { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank' }),
      payLink(deps, link, { kind: 'NETBANKING', bankCode: 'FAIL', bankName: 'Sandbox Declining Bank' }),
    ]);
    assert.deepEqual([...results].sort(), ['accepted', 'notOpen']);
    await until(async () => (await statusOf(entry.orderId as string)).txnStatus !== '2', 'the outcome');
    const won = results[0] === 'accepted' ? '0' : '1';
    assert.equal((await statusOf(entry.orderId as string)).txnStatus, won);
  });

  it('expires at linkExpireBy: GET /pl/:token says so with 410 and the order fails with 183', async () => {
    const entry = linkEntry({ linkExpireBy: linkExpireBy(2_500) });
    const path = linkPath((await create([entry])).json.data[0].link);
    await until(async () => (await statusOf(entry.orderId as string)).txnStatus === '1', 'the expiry');
    assert.equal((await statusOf(entry.orderId as string)).responseCode, '183');
    const page = await openLink(gw, path);
    assert.equal(page.status, 410);
    assert.match(page.html, /This payment link has expired/);
  });
});
