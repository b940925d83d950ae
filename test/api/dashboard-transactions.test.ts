import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { newTxnId } from '../../src/domain/identifiers';
import type { NewTransaction } from '../../src/store/transaction-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { dashboardUser, type FormClient } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refundFinished } from '../support/refunds';

/**
 * The dashboard's transactions over real HTTP as a browser without script uses them: search (by
 * orderId, txnId, status, kind and period, paged by a keyset cursor), an order's page with its
 * timeline, and refunds from it through /updateTxn's use case; tenant isolation, CSRF and roles.
 */
describe('Merchant dashboard: transactions and refunds (/dashboard/transactions)', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let owner: FormClient;

  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Nilgiri Teas'));
    ({ client: owner } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner'));
  });

  async function paidOrder(m = merchant, payerVpa = 'success@sandbox', amount = 10_000): Promise<string> {
    const orderId = newOrderId('dt');
    const res = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, amount, payerVpa });
    assert.ok([200, 202].includes(res.status), res.text);
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    return orderId;
  }
  const today = () => formatIstDateTime(gw.rt.now()).slice(0, 10);
  const path = (orderId: string) => `/dashboard/transactions/${encodeURIComponent(orderId)}`;
  /** The refund form's own id on the order's page. */
  const refundIdOf = async (client: FormClient, orderId: string) => {
    const page = await client.send(path(orderId));
    return /name="refundId" value="([^"]+)"/.exec(page.text)![1]!;
  };

  it('finds orders by orderId, txnId, status and kind within a period, and never another merchant’s', async () => {
    const paid = await paidOrder();
    const declined = await paidOrder(merchant, 'failure@sandbox');
    const other = await gw.newMerchant('Other');
    const othersOrder = await paidOrder(other);
    const txnId = (await storedTransaction(gw, merchant.merchantIdentifier, paid))!.txnId;

    const byOrder = await owner.send(`/dashboard/transactions?orderId=${paid}`);
    assert.equal(byOrder.status, 200);
    assert.match(byOrder.text, new RegExp(`href="${path(paid)}"`));
    const byTxn = await owner.send(`/dashboard/transactions?txnId=${txnId}`);
    assert.match(byTxn.text, new RegExp(paid));
    assert.doesNotMatch(byTxn.text, new RegExp(declined));

    const success = await owner.send(`/dashboard/transactions?status=Success&from=${today()}&to=${today()}`);
    assert.match(success.text, new RegExp(paid));
    assert.doesNotMatch(success.text, new RegExp(declined));
    const failed = await owner.send(`/dashboard/transactions?status=Failure&from=${today()}&to=${today()}`);
    assert.match(failed.text, new RegExp(declined));
    assert.doesNotMatch(failed.text, new RegExp(paid));
    const payments = await owner.send(`/dashboard/transactions?kind=payment`);
    assert.match(payments.text, new RegExp(paid));
    const links = await owner.send(`/dashboard/transactions?kind=link`);
    assert.match(links.text, /No transaction matches/);

    // Another merchant's order: not found by any search, and its page is 404 with nothing of it.
    const all = await owner.send('/dashboard/transactions');
    assert.doesNotMatch(all.text, new RegExp(othersOrder));
    const othersTxn = (await storedTransaction(gw, other.merchantIdentifier, othersOrder))!.txnId;
    for (const q of [`orderId=${othersOrder}`, `txnId=${othersTxn}`])
      assert.match((await owner.send(`/dashboard/transactions?${q}`)).text, /No transaction matches/);
    const page = await owner.send(path(othersOrder));
    assert.equal(page.status, 404);
    assert.doesNotMatch(page.text, new RegExp(othersTxn));
  });

  it('pages by a keyset cursor: every order once, oldest first, 50 a page', async () => {
    const start = gw.rt.now().getTime() - 3_600_000;
    const orders: NewTransaction[] = Array.from({ length: 63 }, (_, i) => ({
      txnId: newTxnId(new Date(start)),
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: `page-${String(i).padStart(3, '0')}`,
      amountPaise: 1000 + i,
      productDescription: 'page test',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI_QR' },
      // Some share a createdAt, so the cursor's txnId decides between them.
      createdAt: new Date(start + Math.floor(i / 3) * 1000),
    }));
    assert.ok((await gw.rt.transactions.createPendingMany(orders)).every(Boolean));
    const listed = (html: string) => [...html.matchAll(/href="\/dashboard\/transactions\/(page-\d+)"/g)].map((m) => m[1]!);

    const from = formatIstDateTime(new Date(start)).slice(0, 10);
    const first = await owner.send(`/dashboard/transactions?kind=qr&from=${from}&to=${today()}`);
    assert.equal(listed(first.text).length, 50);
    const next = /id="next-page" href="([^"]+)"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(next, 'a link to the next page');
    const second = await owner.send(next);
    assert.equal(second.status, 200);
    assert.doesNotMatch(second.text, /id="next-page"/);
    const seen = [...listed(first.text), ...listed(second.text)];
    const expected = [...orders]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.txnId < b.txnId ? -1 : 1))
      .map((o) => o.orderId);
    assert.deepEqual(seen, expected);
  });

  it('refuses a bad search with a message (400), never a 500', async () => {
    for (const q of [
      'status=Paid',
      'kind=cash',
      'from=2026-02-30',
      'from=yesterday',
      'after=nonsense',
      'colour=blue',
      'from=2025-01-01&to=2026-01-01',
    ]) {
      const res = await owner.send(`/dashboard/transactions?${q}`);
      assert.equal(res.status, 400, q);
      assert.match(res.text, /role="alert"/, q);
    }
  });

  it("shows the order's timeline and its workflow in Temporal UI", async () => {
    const orderId = await paidOrder();
    const page = await owner.send(path(orderId));
    assert.equal(page.status, 200);
    assert.match(page.text, /Created: ₹100\.00/);
    assert.match(page.text, /Bank answered: paid/);
    assert.match(
      page.text,
      new RegExp(
        `id="workflow-link" href="[^"]+/namespaces/default/workflows/payment%3A${merchant.merchantIdentifier}%3A${orderId}"`,
      ),
    );
  });

  it('refunds part from the order page through the refund use case; the status API shows it', async () => {
    const orderId = await paidOrder();
    const refundId = await refundIdOf(owner, orderId);
    const res = await owner.post(`${path(orderId)}/refunds`, {
      updateDesired: '22',
      amount: '25.50',
      reason: 'damaged box',
      refundId,
    });
    assert.equal(res.status, 303, res.text.slice(0, 500));
    assert.equal(res.location, `${path(orderId)}?done=refund`);
    // Sent twice (a double click): still one refund.
    assert.equal(
      (await owner.post(`${path(orderId)}/refunds`, { updateDesired: '22', amount: '25.50', reason: 'damaged box', refundId }))
        .status,
      303,
    );
    await refundFinished(gw, merchant.merchantIdentifier, orderId, refundId);
    const status = await checkStatus(gw.baseUrl, merchant.secretKey, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
    });
    const order = status.json.data.orders[0];
    assert.equal(order.txnStatus, '4');
    assert.deepEqual(
      order.refundDetails.map((r: Record<string, string>) => [r.merchantRefId, r.amount, r.refundStatus]),
      [[refundId, '2550', 'SUCCESS']],
    );
    const page = await owner.send(path(orderId));
    assert.match(page.text, /id="remaining">₹74\.50/);
    assert.match(page.text, new RegExp(`Refund ${refundId} success`));
  });

  it('a refund above what remains shows why and changes nothing', async () => {
    const orderId = await paidOrder();
    const before = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const refundId = await refundIdOf(owner, orderId);
    const res = await owner.post(`${path(orderId)}/refunds`, {
      updateDesired: '22',
      amount: '100.01',
      reason: 'too much',
      refundId,
    });
    assert.equal(res.status, 409);
    assert.match(res.text, /more than what remains to refund \(₹100\.00\)\. Nothing was refunded\./);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), before);
    for (const bad of <Record<string, string>[]>[
      { updateDesired: '22', amount: '-5', reason: 'negative', refundId },
      { updateDesired: '22', amount: '0', reason: 'nothing at all', refundId },
      { updateDesired: '22', amount: '5', reason: 'x', refundId },
      { updateDesired: '7', reason: 'unknown kind', refundId },
      { updateDesired: '14', reason: 'no id here' },
    ]) {
      const r = await owner.post(`${path(orderId)}/refunds`, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match(r.text, /Nothing was refunded/);
    }
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), before);
  });

  it('a viewer sees no refund form and its POST is refused (403); nothing changes', async () => {
    const orderId = await paidOrder();
    const { client: viewer } = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer');
    const page = await viewer.send(path(orderId));
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /name="refundId"/);
    assert.match(page.text, /Your role cannot refund/);
    const before = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const res = await viewer.post(`${path(orderId)}/refunds`, {
      updateDesired: '14',
      reason: 'viewer tries',
      refundId: 'dash0123456789abcdef',
    });
    assert.equal(res.status, 403);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), before);
  });

  it('refuses a refund POST without the session’s CSRF token, or to another merchant’s order; nothing changes', async () => {
    const orderId = await paidOrder();
    const other = await gw.newMerchant('Other');
    const othersOrder = await paidOrder(other);
    const refundId = await refundIdOf(owner, orderId);
    const before = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const fields = { updateDesired: '14', reason: 'csrf check', refundId };
    for (const csrf of [undefined, 'stale-token-from-elsewhere']) {
      const res = await owner.send(`${path(orderId)}/refunds`, { form: { ...(csrf ? { csrf } : {}), ...fields } });
      assert.equal(res.status, 403);
    }
    const foreign = await owner.send(`${path(orderId)}/refunds`, {
      form: { csrf: await owner.csrfOf('/dashboard'), ...fields },
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(foreign.status, 403);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), before);

    const othersBefore = await storedTransaction(gw, other.merchantIdentifier, othersOrder);
    const cross = await owner.post(`${path(othersOrder)}/refunds`, fields);
    assert.equal(cross.status, 404);
    assert.deepEqual(await storedTransaction(gw, other.merchantIdentifier, othersOrder), othersBefore);
  });
});
