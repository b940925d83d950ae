/**
 * Whether a status lookup costs more as the store grows: mean latency of sequential status
 * requests with 1,000 and then 100,000 stored transactions of other merchants.
 */
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { seedOtherMerchantsTo, seedPaidOrders, signedStatusRequests } from './support/seed';
import { describeWork, rateLimitsOf } from './support/work';

export async function benchStatusScaling(
  gw: TestGateway,
  o: { seconds: number; small: number; large: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  const merchant = await gw.newMerchant('Bench scaling');
  const orderIds = await seedPaidOrders(gw.rt.transactions, merchant.merchantIdentifier, 50);
  const signed = signedStatusRequests(merchant, orderIds);
  const measure = () =>
    httpLoad({ url: `${gw.baseUrl}/api/payments/v1/status`, requests: signed, connections: 1, seconds: o.seconds });

  await seedOtherMerchantsTo(gw.rt.store.db, gw.rt.config.secrets.masterKey, o.small);
  const small = await measure();
  const started = Date.now();
  await seedOtherMerchantsTo(gw.rt.store.db, gw.rt.config.secrets.masterKey, o.large);
  console.log(`seeded ${o.large} stored transactions in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const large = await measure();
  const work = (count: number) =>
    describeWork({
      does: `signed status request (HMAC checksum) by autocannon, 1 connection, one merchant's 50 orders, ${count} transactions stored; the test gateway in the bench process`,
      logLevel: gw.rt.config.observability.logLevel,
      rateLimits: rateLimitsOf(gw.rt.config.limits.requestsPerSecond),
    });
  const label = (count: number, r: LoadResult) => `${count}: mean ${r.meanMs.toFixed(2)} ms (p99 ${r.p99Ms} ms)`;
  return {
    rows: [
      ratioRow(
        `status latency, ${o.large} / ${o.small} stored`,
        { label: label(o.large, large), value: large.failures ? Infinity : large.meanMs, work: work(o.large) },
        { label: label(o.small, small), value: small.meanMs, work: work(o.small) },
        { atMost: 1.5 },
      ),
    ],
    details: { [`status, ${o.small} stored`]: small, [`status, ${o.large} stored`]: large },
  };
}
