import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import type { MongoClient } from 'mongodb';
import { watchStoreMonitors } from '../../src/store/store-monitor-watchdog';

/**
 * The watchdog's rule, event by event, on a client that only emits the driver's monitoring events
 * (the race it heals happens in a fraction of real outages: test/store/store-client-outage.test.ts).
 */
class EventsOnlyClient extends EventEmitter {
  options = { heartbeatFrequencyMS: 10_000, connectTimeoutMS: 30_000 };
  closes = 0;
  connects = 0;
  /** Set to hold the watchdog's close open until released (an owner closing meanwhile). */
  closing?: Promise<void>;
  async close() {
    this.closes++;
    this.emit('topologyClosed', {});
    await this.closing;
  }
  connect() {
    this.connects++;
    return Promise.resolve(this);
  }
}

const ADDRESS = 'store:27017';
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('store monitor watchdog', () => {
  let client: EventsOnlyClient;
  let watchdog: { stop(): void };
  let stuck: string[];
  const watch = () =>
    (watchdog = watchStoreMonitors(client as unknown as MongoClient, {
      stuckAfterMs: 20,
      checkEveryMs: 5,
      repeatAfterMs: 1_000,
      onStuck: (a) => stuck.push(a),
    }));
  const unknown = () => client.emit('serverDescriptionChanged', { address: ADDRESS, newDescription: { type: 'Unknown' } });
  const heartbeat = (awaited = false) => client.emit('serverHeartbeatStarted', { connectionId: ADDRESS, awaited });

  beforeEach(() => {
    client = new EventsOnlyClient();
    stuck = [];
  });
  afterEach(() => watchdog.stop());

  it('reconnects once when a heartbeat stays unanswered past its bound while the server is Unknown', async () => {
    watch();
    unknown();
    heartbeat();
    await tick(60);
    assert.deepEqual(stuck, [ADDRESS]);
    assert.equal(client.closes, 1);
    assert.equal(client.connects, 1);
    await tick(40);
    assert.equal(client.closes, 1, 'the heartbeats it cleared are not taken for stuck again');
  });

  it('leaves a slow heartbeat of a known server alone, and an answered heartbeat of an Unknown one', async () => {
    watch();
    heartbeat();
    await tick(60);
    client.emit('serverHeartbeatSucceeded', { connectionId: ADDRESS });
    unknown();
    await tick(60);
    assert.deepEqual(stuck, []);
    assert.equal(client.closes, 0);
  });

  it("gives an awaited (streaming) heartbeat the server's own wait before it is stuck", async () => {
    watch();
    unknown();
    heartbeat(true);
    await tick(60);
    assert.deepEqual(stuck, [], 'an awaited heartbeat may be held for heartbeatFrequencyMS');
  });

  it('stops when its owner closes the client: a closed client stays closed', async () => {
    watch();
    client.emit('topologyClosed', {});
    unknown();
    heartbeat();
    await tick(60);
    assert.equal(client.connects, 0);
    assert.equal(client.listenerCount('serverHeartbeatStarted'), 0);
  });

  it('reconnects again during one outage only after repeatAfterMs, at once after the server was seen known', async () => {
    watch();
    unknown();
    heartbeat();
    await tick(60);
    unknown();
    heartbeat();
    await tick(60);
    assert.equal(client.closes, 1, 'a store still out of reach is not reconnected again and again');
    await tick(1_000);
    assert.equal(client.closes, 2, 'after repeatAfterMs it is');
    client.emit('serverDescriptionChanged', { address: ADDRESS, newDescription: { type: 'Standalone' } });
    unknown();
    heartbeat();
    await tick(60);
    assert.equal(client.closes, 3, 'a new outage after the store answered is healed at once');
  });

  it('an owner closing the client while the watchdog reconnects it keeps it closed', async () => {
    let release!: () => void;
    client.closing = new Promise((r) => (release = r));
    watch();
    unknown();
    heartbeat();
    await tick(60);
    assert.equal(client.closes, 1);
    watchdog.stop();
    release();
    await tick(20);
    assert.equal(client.connects, 0);
  });
});
