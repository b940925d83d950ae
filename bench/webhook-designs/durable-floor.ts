/**
 * The least a durable webhook delivery costs, beside the product's: each delivery of the product
 * (productDesignWorkflow, the delivery code the gateway's workflows run, over orders already
 * stored) against a loop that stores a delivery record in the same store and then POSTs its body
 * to the same receiver through the gateway's webhook POST, at the same concurrency, in rounds
 * ceiling-measured, measured-ceiling (ABBA). A delivery counts once the receiver acknowledged it.
 * The receiver answers every call of these rounds at once: what is compared is the delivery, not
 * its retries.
 */
import { createBenchWorker } from '../support/bench-worker';
import { lookup } from 'node:dns';
import { createWebhookActivities } from '../../activities/webhook-activities';
import { postWebhook } from '../../src/outbound/webhook-post';
import { activityDeps } from '../../src/main/runtime';
import type { TestGateway } from '../../test/support/gateway';
import { round, runConcurrently } from '../support/load';
import { describeWork, historyWork, meanWork, storeCommandCounter } from '../support/work';
import type { Receiver } from './compare';
import { createRetriesDeliveryActivities } from './retries-activity';

const CONCURRENCY = 32;
/** Histories read for the product's Temporal work. */
const SAMPLE = 10;

export interface FloorFigures {
  product: { perSecond: number; rounds: number[]; work: string };
  floor: { perSecond: number; rounds: number[]; work: string };
  delivered: number;
  acknowledgedTwice: number;
}

export async function compareWithDurableFloor(
  gw: TestGateway,
  o: {
    merchantIdentifier: string;
    orderIds: string[];
    /** Deliveries per side, over four rounds. */
    count: number;
    run: string;
    receiver: Receiver & { url: string };
    /** A body and content type as the product posts them, for the loop to post. */
    sample: { body: string; contentType: string };
  },
): Promise<FloorFigures> {
  const taskQueue = `bench-floor-${o.run}`;
  const deps = activityDeps(gw.rt);
  const { worker, connection } = await createBenchWorker(gw, {
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities: { ...createWebhookActivities(deps), ...createRetriesDeliveryActivities(deps) },
  });
  const records = gw.rt.store.db.collection<{ _id: string }>('bench_delivery_records');
  const counter = storeCommandCounter();
  const commands = { product: {} as Record<string, number>, floor: {} as Record<string, number> };
  const perRound = Math.max(1, Math.floor(o.count / 4));
  const ids = { product: [] as string[], floor: [] as string[] };

  const productDelivery = (r: string) => async (i: number) => {
    const deliveryId = `bench-floor-product:${o.run}:${r}:${i}`;
    ids.product.push(deliveryId);
    await gw.rt.temporal.workflow.execute('productDesignWorkflow', {
      workflowId: `bench-floor-product-${o.run}-${r}-${i}`,
      taskQueue,
      args: [{ deliveryId, merchantIdentifier: o.merchantIdentifier, orderId: o.orderIds[i % o.orderIds.length]! }],
    });
  };
  const floorDelivery = (r: string) => async (i: number) => {
    const deliveryId = `bench-floor-loop:${o.run}:${r}:${i}`;
    ids.floor.push(deliveryId);
    await records.insertOne({
      _id: deliveryId,
      merchantIdentifier: o.merchantIdentifier,
      orderId: o.orderIds[i % o.orderIds.length]!,
      url: o.receiver.url,
      contentType: o.sample.contentType,
      body: o.sample.body,
      createdAt: new Date(),
    } as { _id: string });
    const answer = await postWebhook(
      { deliveryId, attempt: 1, url: o.receiver.url, contentType: o.sample.contentType, body: o.sample.body },
      {},
      lookup,
      15_000,
    );
    if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}`);
  };
  const timed = async (side: 'product' | 'floor', r: string) => {
    const op = side === 'product' ? productDelivery(r) : floorDelivery(r);
    const from = ids[side].length;
    counter.start();
    const began = performance.now();
    await runConcurrently(perRound, CONCURRENCY, op);
    const mine = ids[side].slice(from);
    const deadline = Date.now() + 5 * 60_000;
    while (mine.some((id) => !o.receiver.acked.has(id)) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
    const seconds = (performance.now() - began) / 1000;
    for (const [name, n] of Object.entries(counter.stop())) commands[side][name] = (commands[side][name] ?? 0) + n;
    return perRound / seconds;
  };

  const rounds = { product: [] as number[], floor: [] as number[] };
  await worker.runUntil(async () => {
    // Warm-up of each (the workflow bundle, connections), not counted.
    await runConcurrently(20, CONCURRENCY, productDelivery('warm'));
    await runConcurrently(20, CONCURRENCY, floorDelivery('warm'));
    ids.product.length = 0;
    ids.floor.length = 0;
    for (const [r, order] of (
      [
        ['floor', 'product'],
        ['product', 'floor'],
        ['floor', 'product'],
        ['product', 'floor'],
      ] as const
    ).entries())
      for (const side of order) rounds[side].push(round(await timed(side, String(r))));
  });
  const histories = await Promise.all(
    ids.product.slice(0, SAMPLE).map(async (id) => {
      const [, run, r, i] = id.split(':');
      const h = await gw.rt.temporal.workflow.getHandle(`bench-floor-product-${run}-${r}-${i}`).fetchHistory();
      return historyWork(h.events ?? []);
    }),
  );
  await connection.close();

  const all = [...ids.product, ...ids.floor];
  const perSecond = (xs: number[]) => round(xs.length / xs.reduce((s, x) => s + 1 / x, 0));
  return {
    product: {
      perSecond: perSecond(rounds.product),
      rounds: rounds.product,
      work: describeWork({
        does: `execute productDesignWorkflow (the product's delivery of a stored order's webhook: its first attempt, signed, and the attempt's record), ${CONCURRENCY} at a time, until the receiver acknowledged it`,
        temporal: meanWork(histories),
        storeCommands: { byName: commands.product, operations: ids.product.length },
        logLevel: gw.rt.config.observability.logLevel,
      }),
    },
    floor: {
      perSecond: perSecond(rounds.floor),
      rounds: rounds.floor,
      work: describeWork({
        does: `insert a delivery record (the body and its address) into the store, then POST the body to the same receiver through the gateway's webhook POST (unsigned, no address check), ${CONCURRENCY} at a time; no Temporal`,
        storeCommands: { byName: commands.floor, operations: ids.floor.length },
      }),
    },
    delivered: all.filter((id) => o.receiver.acked.has(id)).length,
    acknowledgedTwice: all.filter((id) => (o.receiver.acked.get(id) ?? 0) > 1).length,
  };
}
