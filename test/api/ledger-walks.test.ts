import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { fetchTxn, ledger, seedOrder } from '../support/ledger';

const DAY = 86_400_000;
const minute = (d: Date) => formatIstDateTime(d).slice(0, 16);
const day = (d: Date) => formatIstDateTime(d).slice(0, 10);
const orderIds = (res: { json: any }) => res.json.data.transactions.map((t: { orderId: string }) => t.orderId);

/**
 * A walk page by page continues from where the previous page ended (a keyset kept by the API),
 * and answers exactly what reading each page with skip answers, also when records before the
 * keyset were written between two pages.
 */
describe('Ledger and bulk walks: page N+1 continues from page N', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Walks')));

  /** How many pages the API has read each way since it started. */
  async function pageReads(api: 'ledger' | 'bulk'): Promise<Record<string, number>> {
    const text = (
      await request(`${gw.baseUrl}/metrics`, { headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` } })
    ).text;
    const counts: Record<string, number> = {};
    for (const [, read, n] of text.matchAll(new RegExp(`^api_page_reads_total\\{api="${api}",read="([^"]+)"\\} (\\d+)`, 'gm')))
      counts[read!] = Number(n);
    return counts;
  }

  /** 23 orders two days ago, some sharing a millisecond (txnId orders those). */
  async function seedPast() {
    const start = new Date(Date.now() - 2 * DAY);
    const seeded = [];
    for (let i = 0; i < 23; i++)
      seeded.push(
        await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(start.getTime() + Math.floor(i / 2) * 1000) }),
      );
    return { start, seeded };
  }

  it('a ledger walk reads pages 2 to 5 from keysets, each the same page as read with skip', async () => {
    const { start } = await seedPast();
    const q = { startDateTime: minute(start), endDateTime: day(new Date(start.getTime() + DAY)), status: 'ALL', pageSize: 5 };
    // Last page first: no page is asked after the one before it, so each is read with skip.
    const bySkip: unknown[] = [];
    for (let page = 5; page >= 1; page--) bySkip[page] = (await ledger(gw, merchant.apiKey, { ...q, pageNumber: page })).json;
    const before = await pageReads('ledger');
    for (let page = 1; page <= 5; page++) {
      const res = await ledger(gw, merchant.apiKey, { ...q, pageNumber: page });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, bySkip[page], `page ${page}`);
    }
    const after = await pageReads('ledger');
    assert.equal((after.keyset ?? 0) - (before.keyset ?? 0), 4, 'pages 2 to 5 continued from a keyset');
    assert.equal(orderIds({ json: bySkip[5] }).length, 3);
  });

  it('a bulk walk reads page 2 on from keysets, each the same page as read with skip', async () => {
    const { start } = await seedPast();
    const q = { txnDate: day(start), status: 'success', pageSize: 4 };
    const bySkip: unknown[] = [];
    for (let page = 6; page >= 1; page--) bySkip[page] = (await fetchTxn(gw, merchant.apiKey, { ...q, pageNumber: page })).json;
    const before = await pageReads('bulk');
    for (let page = 1; page <= 6; page++)
      assert.deepEqual((await fetchTxn(gw, merchant.apiKey, { ...q, pageNumber: page })).json, bySkip[page], `page ${page}`);
    const after = await pageReads('bulk');
    assert.equal((after.keyset ?? 0) - (before.keyset ?? 0), 5);
  });

  it('a record before the keyset written between pages: the next page is read with skip, as the contract answers', async () => {
    const { start, seeded } = await seedPast();
    const q = { startDateTime: minute(start), endDateTime: day(new Date(start.getTime() + DAY)), status: 'ALL', pageSize: 5 };
    const page1 = orderIds(await ledger(gw, merchant.apiKey, { ...q, pageNumber: 1 }));
    const txns = gw.rt.store.db.collection<{ _id: string; orderId: string }>('transactions');
    // Between the pages: one record of page 1 becomes a delayed success (out of this query), and
    // a record is stored that sorts before page 1's last: both written now.
    await txns.updateOne({ orderId: page1[1] }, { $set: { delayedSuccess: true, updatedAt: new Date() } });
    const late = await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(start.getTime() + 500) });
    await txns.updateOne({ orderId: late.orderId }, { $set: { updatedAt: new Date() } });
    const before = await pageReads('ledger');
    const page2 = orderIds(await ledger(gw, merchant.apiKey, { ...q, pageNumber: 2 }));

    const now = [...seeded.filter((t) => t.orderId !== page1[1]), late]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.txnId < b.txnId ? -1 : 1))
      .map((t) => t.orderId);
    assert.deepEqual(page2, now.slice(5, 10), 'the records at positions 6 to 10 now');
    const after = await pageReads('ledger');
    assert.equal((after['stale keyset, skip'] ?? 0) - (before['stale keyset, skip'] ?? 0), 1);
    assert.equal((after.keyset ?? 0) - (before.keyset ?? 0), 0);
  });
});
