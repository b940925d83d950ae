/**
 * Status API throughput and latency against the real stack (FerretDB or MONGODB_URI, Temporal dev
 * server, worker, Koa on loopback): seeds paid orders, then replays signed status requests across
 * them with autocannon. Run: npm run bench:status [-- --seconds 15 --connections 8]
 *
 * Targets (2-core development machine, FerretDB/SQLite store, 8 connections): >= 400 requests/s,
 * p99 <= 100 ms, no errors, RSS growth <= 64 MiB over the run. The load generator shares the cores,
 * and the store dominates: FerretDB 1.24's SQLite handler scans even for _id lookups and takes
 * about two thirds of the CPU, which is why orders are keyed by _id and merchants cached.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { hmacSha256Hex } from '../src/domain/checksum';
import { startTestGateway } from '../test/support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../test/support/payments';
import { stopTestServers } from '../test/support/servers';

const TARGET = { requestsPerSecond: 400, p99Ms: 100, rssGrowthMiB: 64 };

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '8' },
      orders: { type: 'string', default: '200' },
    },
  });
  const gw = await startTestGateway();
  try {
    const merchant = await gw.newMerchant('Bench');
    const orderIds = Array.from({ length: Number(values.orders) }, () => newOrderId('bench'));
    for (const orderId of orderIds) {
      await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    }
    await Promise.all(orderIds.map((o) => paymentFinished(gw, merchant.merchantIdentifier, o)));
    const requests = orderIds.map((orderId) => {
      const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId, version: 13 });
      return { body, headers: { 'content-type': 'application/json', checksum: hmacSha256Hex(merchant.secretKey, body) } };
    });

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let next = 0;
    const result = await autocannon({
      url: `${gw.baseUrl}/api/payments/v1/status`,
      method: 'POST',
      connections: Number(values.connections),
      duration: Number(values.seconds),
      requests: [{ setupRequest: (req) => ({ ...req, ...requests[next++ % requests.length] }) }],
    });
    const rssGrowthMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;

    const rows = {
      'requests/s (mean)': result.requests.average,
      'latency p50 ms': result.latency.p50,
      'latency p99 ms': result.latency.p99,
      'non-2xx': result.non2xx,
      errors: result.errors,
      'RSS growth MiB': Number(rssGrowthMiB.toFixed(1)),
    };
    console.table(rows);
    const ok =
      result.requests.average >= TARGET.requestsPerSecond &&
      result.latency.p99 <= TARGET.p99Ms &&
      result.non2xx === 0 &&
      result.errors === 0 &&
      rssGrowthMiB <= TARGET.rssGrowthMiB;
    console.log(`${ok ? 'MET' : 'MISSED'}: targets ${JSON.stringify(TARGET)}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await gw.stop();
    await stopTestServers();
  }
}

void main();
