/**
 * What rate limiting costs on the hot path: the status API with limits on (a limit so high that it
 * counts every request in the store but refuses none) beside the same API with limits off.
 */
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { seedPaidOrders, signedStatusRequests } from './support/seed';

export async function benchRateLimitCost(
  off: TestGateway,
  on: TestGateway,
  o: { connections: number; seconds: number },
): Promise<{ rows: BenchRow[]; details: Record<string, LoadResult> }> {
  const merchant = await off.newMerchant('Bench limits');
  const orderIds = await seedPaidOrders(off.rt.transactions, merchant.merchantIdentifier, 100);
  const signed = signedStatusRequests(merchant, orderIds);
  const withoutLimits = await httpLoad({ url: `${off.baseUrl}/api/payments/v1/status`, requests: signed, ...o });
  const withLimits = await httpLoad({ url: `${on.baseUrl}/api/payments/v1/status`, requests: signed, ...o });
  return {
    rows: [
      ratioRow(
        'status API with rate limits on / off',
        {
          label: `${round(withLimits.perSecond)}/s, ${withLimits.failures} failed`,
          value: withLimits.failures ? 0 : withLimits.perSecond,
        },
        { label: `${round(withoutLimits.perSecond)}/s`, value: withoutLimits.perSecond },
        { atLeast: 0.9 },
      ),
    ],
    details: { 'status API, limits off': withoutLimits, 'status API, limits on': withLimits },
  };
}
