import { strict as assert } from 'node:assert';
import { parse } from 'csv-parse/sync';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { DASHBOARD_PASSWORD, dashboardUser, FormClient } from '../support/dashboard';
import { request } from '../support/http';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { seedPaidSettlement } from '../support/settlements';

/** The dashboard's Settlements pages and bank account over real HTTP: roles, CSRF, masking, CSV, isolation. */
describe('Dashboard: settlements and the settlement bank account', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => {
    gw = await sharedGateway();
    merchant = await gw.newMerchant('Settling Stores');
  });

  async function paid(orderId = newOrderId('st')) {
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!;
  }

  it('an owner sets the bank account: CSRF checked, validated, only the masked number shown afterwards', async () => {
    const { client } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
    const empty = await client.send('/dashboard/settlements/account');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /No bank account yet/);

    const noCsrf = await client.send('/dashboard/settlements/account', {
      form: { ifsc: 'HDFC0001234', accountNumber: '50100123456789', holderName: 'Settling Stores' },
    });
    assert.equal(noCsrf.status, 403);
    const bad = await client.post('/dashboard/settlements/account', {
      ifsc: 'HDFC1001234',
      accountNumber: '50100123456789',
      holderName: 'S',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /ifsc: must be an IFSC/);
    assert.ok(!bad.text.includes('50100123456789'), 'a refused number is not echoed back');

    const saved = await client.post('/dashboard/settlements/account', {
      ifsc: ' hdfc0001234 ',
      accountNumber: '5010 0123 4567 89',
      holderName: 'Settling Stores',
      password: DASHBOARD_PASSWORD,
    });
    assert.equal(saved.status, 303, saved.text.slice(0, 300));
    const page = await client.send(saved.location!);
    assert.match(page.text, /Bank account saved/);
    assert.match(page.text, /XXXXXXXXXX6789/);
    assert.match(page.text, /HDFC0001234/);
    assert.ok(!page.text.includes('50100123456789'), 'the whole number is never shown');
  });

  it("changing the account needs the owner's password: without it or with a wrong one nothing changes, and wrong ones count as failed sign-ins", async () => {
    const m = await gw.newMerchant('Guarded Stores');
    const { client, email } = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const account = { ifsc: 'HDFC0001234', accountNumber: '50100123451111', holderName: 'Guarded Stores' };
    assert.equal((await client.post('/dashboard/settlements/account', { ...account, password: DASHBOARD_PASSWORD })).status, 303);
    const stolen = { ifsc: 'SBIN0000001', accountNumber: '99990000002222', holderName: 'Someone Else' };
    const missing = await client.post('/dashboard/settlements/account', stolen);
    assert.equal(missing.status, 400);
    assert.match(missing.text, /Enter your password/);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/dashboard/settlements/account', { ...stolen, password: `not the password ${i}` });
      assert.equal(wrong.status, 403, wrong.text.slice(0, 300));
      assert.match(wrong.text, /Wrong password: nothing was changed/);
      assert.ok(!wrong.text.includes(stolen.accountNumber), 'the refused number is not echoed back');
    }
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: m.merchantIdentifier as never });
    assert.equal(doc!.settlementAccount.accountLast4, '1111', 'nothing was changed');
    // Five wrong passwords are five failed sign-ins: the account is throttled, even with the right one.
    const throttled = await client.post('/dashboard/settlements/account', { ...stolen, password: DASHBOARD_PASSWORD });
    assert.equal(throttled.status, 429);
    assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 429, 'sign-in shares the limit');
    const after = await gw.rt.store.db.collection('merchants').findOne({ _id: m.merchantIdentifier as never });
    assert.equal(after!.settlementAccount.accountLast4, '1111');
    const { json } = await request(`${gw.baseUrl}/ops/v1/audit?merchantIdentifier=${m.merchantIdentifier}`, {
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    const changes = json.data.records.filter((r: { action: string }) => r.action === 'settlement_account.changed');
    assert.equal(changes.length, 1, 'only the change made with the password is recorded');
    assert.deepEqual(changes[0].actor, { kind: 'staff', email });
    assert.equal(changes[0].detail.accountLast4, '1111');
    assert.equal(changes[0].detail.previousAccountLast4, null);
    assert.equal(changes[0].detail.coolingUntil, null, 'a first account does not cool');
    assert.ok(changes[0].from, 'the client address is recorded');
    assert.ok(!JSON.stringify(json).includes(account.accountNumber));
  });

  it('every user sees the last change (a demoted owner too): when, by whom, the last four digits and the cooling time', async () => {
    const m = await gw.newMerchant('Noticed Stores');
    const { client, email } = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const other = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const first = { ifsc: 'HDFC0001234', accountNumber: '50100123453333', holderName: 'Noticed Stores' };
    await client.post('/dashboard/settlements/account', { ...first, password: DASHBOARD_PASSWORD });
    const second = { ...first, accountNumber: '60200123454444' };
    assert.equal((await client.post('/dashboard/settlements/account', { ...second, password: DASHBOARD_PASSWORD })).status, 303);
    for (const path of ['/dashboard/settlements/account', '/dashboard/settlements']) {
      const page = await other.client.send(path);
      assert.match(page.text, /id="account-change-notice"/, path);
      assert.ok(page.text.includes(`by owner ${email}`), path);
      assert.match(page.text, /account ending 4444/, path);
      assert.match(page.text, /Payouts to it wait until/, path);
    }
    for (const role of ['developer', 'viewer'] as const) {
      const page = await (await dashboardUser(gw, m.merchantIdentifier, role)).client.send('/dashboard/settlements');
      assert.match(page.text, /id="account-change-notice"/, role);
      assert.match(page.text, /account ending 4444/, role);
      assert.ok(!page.text.includes('60200123454444'), 'never the whole number');
    }
  });

  it('developers and viewers cannot see or change the bank account', async () => {
    for (const role of ['developer', 'viewer'] as const) {
      const { client } = await dashboardUser(gw, merchant.merchantIdentifier, role);
      assert.equal((await client.send('/dashboard/settlements/account')).status, 403, role);
      const posted = await client.post('/dashboard/settlements/account', {
        ifsc: 'SBIN0000001',
        accountNumber: '999999999',
        holderName: 'Someone Else',
        password: DASHBOARD_PASSWORD,
      });
      assert.equal(posted.status, 403, role);
      const nav = await client.send('/dashboard/settlements');
      assert.equal(nav.status, 200, 'every role reads settlements');
      assert.ok(!nav.text.includes('/dashboard/settlements/account'), `${role} is not offered the bank account page`);
    }
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: merchant.merchantIdentifier as never });
    assert.notEqual(doc!.settlementAccount?.accountLast4, '9999', 'nothing was changed');
  });

  it('lists settlements, shows one with its lines, downloads them as formula-safe CSV; the order page says settled', async () => {
    const orders = [await paid(), await paid()];
    const unsettled = await paid();
    // A line whose text a spreadsheet would run as a formula (as a hostile orderId would be).
    const lines = [orders[0]!, { ...orders[1]!, orderId: '=HYPERLINK("https://evil.example")' }];
    const { settlementId } = await seedPaidSettlement(gw, merchant.merchantIdentifier, lines, { utr: 'UTR2611240777' });
    const { client } = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');

    const list = await client.send('/dashboard/settlements');
    assert.match(list.text, /2026-11-24/);
    assert.match(list.text, /UTR2611240777/);
    assert.match(list.text, /₹195\.28/, 'net: 2 × (₹100.00 - ₹2.00 fee - ₹0.36 GST)');

    const detail = await client.send(`/dashboard/settlements/${encodeURIComponent(settlementId)}`);
    assert.equal(detail.status, 200);
    for (const t of orders) assert.ok(detail.text.includes(t.txnId), t.txnId);

    const csv = await client.send(`/dashboard/settlements/${encodeURIComponent(settlementId)}/lines.csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 2);
    assert.deepEqual(Object.keys(rows[0]!), [
      'partner_transaction_id',
      'client_transaction_id',
      'txn_date',
      'amount',
      'settlement_date',
      'settlement_action',
      'transaction_utr',
      'partner_service_fee',
      'partner_service_tax',
      'settlement_amount',
      'rrn',
      'arn',
    ]);
    const formula = rows.find((r) => r.client_transaction_id!.includes('HYPERLINK'))!;
    assert.ok(formula.client_transaction_id!.startsWith("'="), 'a formula-looking cell is neutralised');
    assert.equal(formula.amount, '100.00');
    assert.equal(formula.transaction_utr, 'UTR2611240777');

    const settledOrder = await client.send(`/dashboard/transactions/${encodeURIComponent(orders[0]!.orderId)}`);
    assert.match(settledOrder.text, /Settled on 2026-11-24 with UTR UTR2611240777/);
    const pending = await client.send(`/dashboard/transactions/${encodeURIComponent(unsettled.orderId)}`);
    assert.match(pending.text, /id="settlement-state">Pending settlement</);
  });

  it("another merchant's settlement is 404, page and CSV", async () => {
    const other = await gw.newMerchant('Other');
    const { settlementId } = await seedPaidSettlement(gw, other.merchantIdentifier, [], { date: '2026-11-20' });
    const { client } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
    assert.equal((await client.send(`/dashboard/settlements/${encodeURIComponent(settlementId)}`)).status, 404);
    assert.equal((await client.send(`/dashboard/settlements/${encodeURIComponent(settlementId)}/lines.csv`)).status, 404);
    assert.equal((await client.send('/dashboard/settlements/no-such-settlement')).status, 404);
  });
});
