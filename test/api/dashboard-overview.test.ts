import { strict as assert } from 'node:assert';
import { newTxnId } from '../../src/domain/identifiers';
import { formatIstDateTime, istStartOfDay } from '../../src/domain/ist-time';
import { DailyFiguresRepository } from '../../src/store/daily-figures-repository';
import { PaymentResponse } from '../../src/domain/response-codes';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { WebhookEndpointRepository } from '../../src/store/webhook-endpoint-repository';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { dashboardUser, type FormClient } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';

const DAY_MS = 86_400_000;

/**
 * The overview over real HTTP: today's figures, the last 14 days as SVG charts with a table of the
 * same figures, and what needs attention, all of the signed-in user's merchant only.
 */
describe('Merchant dashboard: overview (/dashboard)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let owner: FormClient;

  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Malabar Coffee'));
    ({ client: owner } = await dashboardUser(gw, merchant.merchantIdentifier, 'viewer'));
  });

  /** Stores an order created at `at` and, unless pending, its outcome a second later. */
  async function order(m: string, at: Date, amountPaise: number, outcome: 'Success' | 'Failure' | 'Pending') {
    const t = {
      txnId: newTxnId(at),
      merchantIdentifier: m,
      orderId: `ov-${newTxnId(at)}`,
      amountPaise,
      productDescription: 'overview',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'NETBANKING' as const, bankCode: 'SBI', bankName: 'State Bank' },
      createdAt: at,
    };
    await gw.rt.transactions.createPending(t);
    if (outcome === 'Pending') return;
    const code = outcome === 'Success' ? PaymentResponse.success : PaymentResponse.declinedByBank;
    await gw.rt.transactions.recordOutcome(
      t,
      {
        status: outcome,
        responseCode: code.code,
        responseDescription: code.description,
        bankRefNum: null,
        authCode: null,
        markedFailedByService: false,
      },
      new Date(at.getTime() + 1000),
    );
  }

  it("shows today's volume, count and success rate, 14 days as charts and a table, of this merchant only", async () => {
    const now = gw.rt.now();
    const m = merchant.merchantIdentifier;
    await order(m, now, 12_345, 'Success');
    await order(m, now, 10_000, 'Success');
    await order(m, now, 5_000, 'Failure');
    await order(m, now, 7_000, 'Pending');
    const threeDaysAgo = new Date(now.getTime() - 3 * DAY_MS);
    await order(m, threeDaysAgo, 50_000, 'Success');
    await order(m, new Date(now.getTime() - 20 * DAY_MS), 99_900, 'Success'); // outside the 14 days
    const other = await gw.newMerchant('Other');
    await order(other.merchantIdentifier, now, 77_700, 'Success');

    const page = await owner.send('/dashboard');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src/, 'no script');
    assert.match(page.text, /id="today-volume">₹223\.45</);
    assert.match(page.text, /id="today-count">4</);
    assert.match(page.text, /id="today-rate">66\.7%</);
    for (const id of ['chart-volume', 'chart-count', 'chart-rate'])
      assert.match(page.text, new RegExp(`<svg id="${id}" role="img" aria-labelledby="${id}-title ${id}-desc"`));
    assert.equal((page.text.match(/<tbody>.*?<\/tbody>/s)![0].match(/<tr>/g) ?? []).length, 14);
    const day = formatIstDateTime(threeDaysAgo).slice(0, 10);
    assert.match(
      page.text,
      new RegExp(`<th scope="row">${day}</th><td>₹500\\.00</td><td>1</td><td>1</td><td>0</td><td>100\\.0%</td>`),
    );
    assert.doesNotMatch(page.text, /₹999\.00|₹777\.00/);
    assert.match(page.text, /id="all-well"/);
  });

  it('a retried outcome changes no figure, and a rebuild from the orders gives the same page, to the paisa', async () => {
    const now = gw.rt.now();
    const m = merchant.merchantIdentifier;
    await order(m, now, 12_345, 'Success');
    await order(m, now, 5_001, 'Failure');
    await order(m, new Date(now.getTime() - 2 * DAY_MS), 99_999, 'Success');
    const page = async () => (await owner.send('/dashboard')).text.replace(/<input[^>]*csrf[^>]*>/g, '');
    const before = await page();
    assert.match(before, /id="today-volume">₹123\.45</);
    // The payment activity retried after its write: every order's outcome recorded again.
    const orders = await gw.rt.store.db.collection('transactions').find({ merchantIdentifier: m }).toArray();
    for (const t of orders)
      await gw.rt.transactions.recordOutcome(
        { merchantIdentifier: m, orderId: t.orderId as string, txnId: t.txnId as string },
        {
          status: t.status as 'Success' | 'Failure',
          responseCode: t.responseCode as string,
          responseDescription: t.responseDescription as string,
          bankRefNum: null,
          authCode: null,
          markedFailedByService: false,
        },
        now,
      );
    assert.equal(await page(), before);
    const today = istStartOfDay(now).getTime();
    await new DailyFiguresRepository(gw.rt.store.db).rebuild(m, new Date(today - 13 * DAY_MS), new Date(today + DAY_MS));
    assert.equal(await page(), before);
  });

  it('says when the webhook endpoint is disabled and deliveries failed; never another merchant’s', async () => {
    const now = gw.rt.now();
    const endpoints = new WebhookEndpointRepository(gw.rt.store.db);
    const webhooks = new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey);
    await endpoints.recordAttempt(
      { merchantIdentifier: merchant.merchantIdentifier, acknowledged: false, at: now, httpStatus: 410, durationMs: 5 },
      1000,
    );
    const other = await gw.newMerchant('Other');
    for (const [m, id] of [
      [merchant.merchantIdentifier, `ov-failed-${now.getTime()}`],
      [other.merchantIdentifier, `ov-others-${now.getTime()}`],
    ] as const) {
      await webhooks.createOrGet({
        _id: id,
        merchantIdentifier: m,
        realtime: true,
        url: 'https://m.example/hook',
        contentType: 'application/json',
        body: '{}',
        createdAt: now,
      });
      await webhooks.finish(id, 'failed', 'endpoint disabled');
    }
    const page = await owner.send('/dashboard');
    assert.match(page.text, /id="endpoint-disabled"><strong>Your webhook endpoint is disabled/);
    assert.match(page.text, /answered 410 Gone/);
    assert.match(page.text, /id="failed-deliveries"><strong>1 webhook delivery failed/);
    assert.match(page.text, new RegExp(`ov-failed-${now.getTime()}`));
    assert.doesNotMatch(page.text, /ov-others-/);
    assert.doesNotMatch(page.text, /id="all-well"/);
  });
});
