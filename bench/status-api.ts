/**
 * The status API beside its ceilings on the same stack and concurrency: a bare Koa JSON endpoint
 * (the HTTP layer alone) and a raw driver `findOne` by `_id` loop (the store alone).
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { orderKey } from '../src/store/transaction-repository';
import type { TestGateway } from '../test/support/gateway';
import { httpLoad, loopLoad, round, type LoadResult } from './support/load';
import { ratioRow, type BenchRow } from './support/report';
import { seedPaidOrders, signedStatusRequests } from './support/seed';

/** Rounds of the status API against the bare Koa + findOne endpoint, in turn. */
const ROUNDS = 4;

export interface StatusBench {
  rows: BenchRow[];
  details: Record<string, LoadResult & { rssGrowthMiB?: number }>;
}

export async function benchStatusApi(
  gw: TestGateway,
  o: { connections: number; seconds: number },
  orders = 200,
): Promise<StatusBench> {
  const merchant = await gw.newMerchant('Bench status');
  const orderIds = await seedPaidOrders(gw.rt.transactions, merchant.merchantIdentifier, orders);
  const signed = signedStatusRequests(merchant, orderIds);

  const coll = gw.rt.store.db.collection<{ _id: string }>('transactions');
  const bare = await bareKoaJsonServer();
  const bareWithFind = await bareKoaJsonServer(async (body) => {
    const { merchantIdentifier, orderId } = JSON.parse(body) as { merchantIdentifier: string; orderId: string };
    return coll.findOne({ _id: orderKey({ merchantIdentifier, orderId }) });
  });
  const keys = orderIds.map((orderId) => orderKey({ merchantIdentifier: merchant.merchantIdentifier, orderId }));
  try {
    const koa = await httpLoad({ url: bare.url, requests: signed, ...o });
    const findOne = await loopLoad((i) => coll.findOne({ _id: keys[i % keys.length]! }), {
      concurrency: o.connections,
      seconds: o.seconds,
    });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    // The status API and its closest ceiling in alternating rounds, the best of each kept: on a
    // shared machine, a burst of someone else's load then weighs on both alike.
    const statusUrl = `${gw.baseUrl}/api/payments/v1/status`;
    const round_ = { ...o, seconds: Math.max(2, o.seconds / 2) };
    let status: LoadResult | undefined;
    let koaFind: LoadResult | undefined;
    const best = (a: LoadResult | undefined, b: LoadResult) => (!a || b.perSecond > a.perSecond ? b : a);
    for (let r = 0; r < ROUNDS; r++) {
      const statusFirst = r % 2 === 0;
      if (statusFirst) status = best(status, await httpLoad({ url: statusUrl, requests: signed, ...round_ }));
      koaFind = best(koaFind, await httpLoad({ url: bareWithFind.url, requests: signed, ...round_ }));
      if (!statusFirst) status = best(status, await httpLoad({ url: statusUrl, requests: signed, ...round_ }));
    }
    if (!status || !koaFind) throw new Error('no round measured');
    const rssGrowthMiB = round((process.memoryUsage().rss - rssBefore) / 2 ** 20, 1);
    const ceiling = Math.min(koa.perSecond, findOne.perSecond);
    return {
      rows: [
        ratioRow(
          'status API requests/s',
          {
            label: `${round(status.perSecond)}/s, p99 ${status.p99Ms} ms, ${status.failures} failed`,
            value: status.failures ? 0 : status.perSecond,
          },
          {
            label: `min(bare Koa ${round(koa.perSecond)}/s, findOne ${round(findOne.perSecond)}/s)`,
            value: ceiling,
          },
          { atLeast: 0.8 },
        ),
        ratioRow(
          'status API vs the least a lookup can do',
          { label: `${round(status.perSecond)}/s`, value: status.failures ? 0 : status.perSecond },
          { label: `bare Koa + findOne ${round(koaFind.perSecond)}/s`, value: koaFind.perSecond },
          { atLeast: 0.9 },
        ),
      ],
      details: {
        'status API': { ...status, rssGrowthMiB },
        'bare Koa JSON': koa,
        'driver findOne by _id': findOne,
        'bare Koa + findOne by _id': koaFind,
      },
    };
  } finally {
    await bare.close();
    await bareWithFind.close();
  }
}

/**
 * The HTTP layer alone: reads the body and answers a record-sized JSON. With `lookup`, also the
 * store read a status request needs, and nothing else (no routing, auth, validation or metrics).
 */
async function bareKoaJsonServer(lookup?: (body: string) => Promise<unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  const record = { status: true, message: { code: 100, text: 'Transaction completed successfully' }, data: { orders: [] } };
  app.use(async (ctx) => {
    const body = await getRawBody(ctx.req, { limit: 65536, encoding: 'utf8' });
    ctx.body = lookup ? { ...record, data: { orders: [await lookup(body)] } } : record;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
