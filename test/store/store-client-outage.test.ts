import { strict as assert } from 'node:assert';
import { connectStore, type Store } from '../../src/store/mongo';
import { startStoreProxy, type StoreProxy } from '../support/money-model/store-proxy';
import { testStore } from '../support/servers';

/**
 * The gateway's store client after a short outage of the store (the money model's proxy resets
 * every connection and refuses new ones for 200 ms, as a store restart or a network cut does)
 * while operations are in flight: it answers again within seconds. The driver's monitor can get
 * stuck on such a reset (store-monitor-watchdog.ts), a race met in about a third of the outages,
 * hence several rounds.
 */
describe('store client: answers again within seconds of a 200 ms outage under load', function () {
  this.timeout(180_000);
  const ROUNDS = 8;
  const RECOVERY_MS = 10_000;
  let proxy: StoreProxy;
  let store: Store;
  const stuck: string[] = [];

  before(async () => {
    const s = await testStore();
    proxy = await startStoreProxy(s.uri);
    store = await connectStore(proxy.uri, `${s.dbName}_outage_${Date.now().toString(36)}`, {
      onStuckMonitor: (address) => stuck.push(address),
    });
    await store.db.collection('outage').insertMany(Array.from({ length: 300 }, (_, i) => ({ i, pad: 'x'.repeat(200) })));
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
    await proxy?.close();
  });

  it(`recovers after each of ${ROUNDS} outages, reads and writes in flight`, async () => {
    const coll = store.db.collection<{ i: number; pad: string; n?: number }>('outage');
    let stop = false;
    // Cursors reading in batches, writes and point reads, each lane retrying at once after a failure.
    const lane = async (k: number) => {
      while (!stop) {
        try {
          if (k % 3 === 0) for await (const _ of coll.find({}, { batchSize: 20 }));
          else if (k % 3 === 1) await coll.updateOne({ i: k }, { $inc: { n: 1 } });
          else await coll.findOne({ i: k });
        } catch {
          // An operation the outage cut: the lane goes on, as a retried activity does.
        }
      }
    };
    const lanes = Array.from({ length: 12 }, (_, k) => lane(k));
    const recoveries: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await new Promise((r) => setTimeout(r, 300));
        await proxy.outage(200);
        const back = Date.now();
        for (;;) {
          const ok = await coll.findOne({ i: 1 }).then(
            (d) => d !== null,
            () => false,
          );
          if (ok) break;
          assert.ok(
            Date.now() - back < RECOVERY_MS,
            `round ${round}: no read succeeded within ${RECOVERY_MS} ms of the outage's end`,
          );
          await new Promise((r) => setTimeout(r, 50));
        }
        recoveries.push(Date.now() - back);
      }
    } finally {
      stop = true;
      await Promise.all(lanes);
    }
    console.error(`      recovered after ${recoveries.join(', ')} ms; stuck monitors reconnected: ${stuck.length}`);
  });
});
