/**
 * What rate limiting costs on the hot path: the status API with limits on (a limit so high that it
 * counts every request in the store but refuses none) beside the same API with limits off.
 */
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { seedPaidOrders, signedStatusRequests } from './support/seed';
import { describeWork, rateLimitsOf, storeCommandCounter } from './support/work';

export async function benchRateLimitCost(
  off: TestGateway,
  on: TestGateway,
  o: { connections: number; seconds: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  const merchant = await off.newMerchant('Bench limits');
  const orderIds = await seedPaidOrders(off.rt.transactions, merchant.merchantIdentifier, 100);
  const signed = signedStatusRequests(merchant, orderIds);
  // Both gateways serve from this process: the store commands each sends during its load are counted here.
  const counter = storeCommandCounter();
  counter.start();
  const withoutLimits = await httpLoad({ url: `${off.baseUrl}/api/payments/v1/status`, requests: signed, ...o });
  const offCommands = counter.stop();
  counter.start();
  const withLimits = await httpLoad({ url: `${on.baseUrl}/api/payments/v1/status`, requests: signed, ...o });
  const onCommands = counter.stop();
  const work = (gw: TestGateway, load: LoadResult, byName: Record<string, number>) =>
    describeWork({
      does: `signed status request (HMAC checksum) by autocannon, ${o.connections} connections, one merchant; the test gateway in the bench process (API and worker)`,
      storeCommands: { byName, operations: load.total ?? 0 },
      logLevel: gw.rt.config.observability.logLevel,
      rateLimits: rateLimitsOf(gw.rt.config.limits.requestsPerSecond),
    });
  return {
    rows: [
      ratioRow(
        'status API with rate limits on / off',
        {
          label: `${round(withLimits.perSecond)}/s, ${withLimits.failures} failed`,
          value: withLimits.failures ? 0 : withLimits.perSecond,
          work: work(on, withLimits, onCommands),
        },
        {
          label: `${round(withoutLimits.perSecond)}/s`,
          value: withoutLimits.perSecond,
          work: work(off, withoutLimits, offCommands),
        },
        { atLeast: 0.9 },
      ),
    ],
    details: { 'status API, limits off': withoutLimits, 'status API, limits on': withLimits },
  };
}
