/**
 * `npm run bench:payment-links`: one create call of 500 links (with and without a QR image each)
 * through the API, beside the least that call must do in the same run: one insert of 500 orders and
 * one of 500 link documents through the raw driver (printed for scale). Targets: within half a
 * second without images and within a second with a QR image each ("well within a second").
 */
import { randomBytes } from 'node:crypto';
import { startTestGateway, stopGateways } from '../test/support/gateway';
import { stopTestServers } from '../test/support/servers';
import { createLinks, linkEntry, newBatchId } from '../test/support/payment-links';
import { round } from './support/load';
import { ratioRow, report, runBench } from './support/report';
import { describeWork, rateLimitsOf, storeCommandCounter } from './support/work';

const ENTRIES = 500;

async function main(): Promise<boolean> {
  const gw = await startTestGateway({ RATE_LIMIT_PER_SECOND: '0' });
  const counter = storeCommandCounter();
  const commands = { plain: {} as Record<string, number>, qr: {} as Record<string, number> };
  try {
    const merchant = await gw.newMerchant('Links bench');
    const call = async (qr: boolean) => {
      const details = Array.from({ length: ENTRIES }, () => linkEntry(qr ? { showQrImg: true } : {}));
      counter.start();
      const started = performance.now();
      const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details });
      const ms = performance.now() - started;
      // The commands of the last call of each kind: those the call waits for, before it answers.
      commands[qr ? 'qr' : 'plain'] = counter.stop();
      if (res.json?.statusCode !== 200) throw new Error(`batch refused: ${res.text.slice(0, 300)}`);
      // Let the batch's workflows start (after the answer) before the next call is timed.
      await new Promise((r) => setTimeout(r, 8_000));
      return ms;
    };
    await call(false); // warm-up: code paths, connections
    const plainMs = Math.min(await call(false), await call(false));
    const qrMs = Math.min(await call(true), await call(true));

    // The floor: the same writes, straight to the store.
    const coll = gw.rt.store.db.collection('transactions');
    const links = gw.rt.store.db.collection('payment_links');
    const floor = async () => {
      const started = performance.now();
      await coll.insertMany(
        Array.from({ length: ENTRIES }, () => linkEntry()).map((e) => ({ _id: `floor:${e.orderId}` as never, ...e })),
        { ordered: false },
      );
      await links.insertMany(
        Array.from({ length: ENTRIES }, () => ({ _id: randomBytes(18).toString('base64url') as never, orderId: 'x' })),
      );
      return performance.now() - started;
    };
    const floorMs = Math.min(await floor(), await floor());
    console.log(
      JSON.stringify({ entries: ENTRIES, plainMs: round(plainMs, 0), withQrMs: round(qrMs, 0), storeFloorMs: round(floorMs, 0) }),
    );
    const work = (qr: boolean) =>
      describeWork({
        does: `one POST /pl/api/v1/create of ${ENTRIES} links (API key)${qr ? ', a QR image each' : ''}, timed until it answers (the batch's workflows start after)`,
        storeCommands: { byName: commands[qr ? 'qr' : 'plain'], operations: 1 },
        logLevel: gw.rt.config.observability.logLevel,
        rateLimits: rateLimitsOf(gw.rt.config.limits.requestsPerSecond),
      });
    const budget = 'a fixed budget of one second: nothing is run';
    return report([
      ratioRow(
        `create ${ENTRIES} links in one call`,
        { label: `${round(plainMs, 0)} ms (the store writes alone: ${round(floorMs, 0)} ms)`, value: plainMs, work: work(false) },
        { label: 'one second', value: 1000, work: budget },
        { atMost: 0.5 },
      ),
      ratioRow(
        `create ${ENTRIES} links with a QR image each`,
        { label: `${round(qrMs, 0)} ms`, value: qrMs, work: work(true) },
        { label: 'one second', value: 1000, work: budget },
        { atMost: 1 },
      ),
    ]);
  } finally {
    await stopGateways();
    await stopTestServers();
  }
}

runBench(main);
