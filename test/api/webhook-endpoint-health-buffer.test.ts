import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { EndpointHealthBuffer } from '../../src/store/webhook-endpoint-buffer';
import type { EndpointAttempt } from '../../src/store/webhook-endpoint-counts';
import { WebhookEndpointRepository, type WebhookEndpointDoc } from '../../src/store/webhook-endpoint-repository';
import { testStore } from '../support/servers';

const HOUR_MS = 3_600_000;
const DISABLE_AFTER_MS = 120 * HOUR_MS;
/** Longer than any test here: only the test decides when a buffer writes. */
const NEVER_MS = 600_000;

/** A repository whose writes of batches fail as `plan` says: 'lost answer' applies the write, then throws. */
class FlakyEndpoints extends WebhookEndpointRepository {
  readonly plan: ('ok' | 'lost answer' | 'refused')[] = [];
  writes = 0;
  override async addCounts(...args: Parameters<WebhookEndpointRepository['addCounts']>) {
    this.writes++;
    const step = this.plan.shift() ?? 'ok';
    if (step === 'refused') throw new Error('store away');
    const r = await super.addCounts(...args);
    if (step === 'lost answer') throw new Error('answer lost');
    return r;
  }
}

describe('Webhook endpoint health counted per worker and written in batches (EndpointHealthBuffer)', function () {
  this.timeout(60_000);
  let client: MongoClient;
  let db: Db;
  const buffers: EndpointHealthBuffer[] = [];
  before(async () => {
    const { uri, dbName } = await testStore();
    client = await new MongoClient(uri).connect();
    db = client.db(dbName);
  });
  after(async () => {
    for (const b of buffers) await b.close();
    await client?.close();
  });

  const newMerchant = () => `ehb-${randomBytes(5).toString('hex')}`;
  const bufferOver = (endpoints: WebhookEndpointRepository) => {
    const b = new EndpointHealthBuffer(endpoints, DISABLE_AFTER_MS, NEVER_MS);
    buffers.push(b);
    return b;
  };
  const stored = (m: string) => db.collection<WebhookEndpointDoc>('webhook_endpoints').findOne({ _id: m });
  const attempt = (merchantIdentifier: string, acknowledged: boolean, at: Date, over: Partial<EndpointAttempt> = {}) => ({
    merchantIdentifier,
    acknowledged,
    at,
    httpStatus: acknowledged ? 200 : 500,
    durationMs: 20,
    ...over,
  });

  it('acknowledged attempts are written at the flush, all at once: the health then equals the attempts made', async () => {
    const endpoints = new FlakyEndpoints(db);
    const buffer = bufferOver(endpoints);
    const m = newMerchant();
    const t0 = new Date('2026-11-20T10:00:00Z');
    for (let i = 0; i < 25; i++)
      await buffer.record(attempt(m, true, new Date(t0.getTime() + i * 1000), { durationMs: i < 5 ? 20 : 300 }));
    assert.equal(endpoints.writes, 0, 'nothing written before the flush');
    assert.equal(await stored(m), null);

    await buffer.flush();
    assert.equal(endpoints.writes, 1, 'one write for the 25');
    const h = await endpoints.health(m);
    assert.equal(h.attempts, 25);
    assert.equal(h.successes, 25);
    assert.equal(h.lastSuccessAt?.toISOString(), new Date(t0.getTime() + 24_000).toISOString());
    assert.equal(h.failingSince, null);
    const doc = await stored(m);
    assert.equal(doc?.latencyBuckets?.b0, 5, 'within 50 ms');
    assert.equal(doc?.latencyBuckets?.b3, 25, 'within 500 ms');
    assert.ok(Math.abs((doc?.latencySumSeconds ?? 0) - (5 * 0.02 + 20 * 0.3)) < 1e-9);
    assert.ok(buffer.knownEnabled(m), 'the write told the buffer the endpoint is enabled');

    await buffer.flush();
    assert.equal(endpoints.writes, 1, 'nothing more to write, nothing written');
  });

  it('a batch whose write was applied but whose answer was lost is written again and counted once; a refused one is not lost', async () => {
    const endpoints = new FlakyEndpoints(db);
    const buffer = bufferOver(endpoints);
    const m = newMerchant();
    const at = new Date('2026-11-20T11:00:00Z');
    for (let i = 0; i < 4; i++) await buffer.record(attempt(m, true, at));
    endpoints.plan.push('lost answer');
    await buffer.flush();
    assert.equal((await endpoints.health(m)).attempts, 4, 'applied once');
    // More attempts meanwhile; the next flush writes the lost batch again (added nothing), then these.
    for (let i = 0; i < 3; i++) await buffer.record(attempt(m, true, at));
    await buffer.flush();
    assert.equal(endpoints.writes, 3);
    assert.deepEqual(
      { attempts: (await endpoints.health(m)).attempts, successes: (await endpoints.health(m)).successes },
      { attempts: 7, successes: 7 },
      'none counted twice across the retry',
    );

    endpoints.plan.push('refused', 'refused');
    await buffer.record(attempt(m, true, at));
    await buffer.flush();
    await buffer.flush();
    assert.equal((await endpoints.health(m)).attempts, 7, 'not written while the store refuses');
    await buffer.flush();
    assert.equal((await endpoints.health(m)).attempts, 8, 'written once it answers');
  });

  it('a failed attempt is written at once with what was counted before it; a later success ends the failing streak', async () => {
    const endpoints = new FlakyEndpoints(db);
    const buffer = bufferOver(endpoints);
    const m = newMerchant();
    const t0 = new Date('2026-11-20T12:00:00Z');
    await buffer.record(attempt(m, true, t0));
    const failed = await buffer.record(attempt(m, false, new Date(t0.getTime() + 1000)));
    assert.deepEqual(failed, { disabled: null });
    let h = await endpoints.health(m);
    assert.deepEqual([h.attempts, h.successes], [2, 1]);
    assert.equal(h.failingSince?.toISOString(), new Date(t0.getTime() + 1000).toISOString());
    assert.equal(h.lastFailureAt?.toISOString(), new Date(t0.getTime() + 1000).toISOString());

    // A success that finished later but was made before the failure leaves the streak as it is.
    await buffer.record(attempt(m, true, new Date(t0.getTime() + 500)));
    await buffer.flush();
    h = await endpoints.health(m);
    assert.equal(h.failingSince?.toISOString(), new Date(t0.getTime() + 1000).toISOString());
    assert.equal(h.lastSuccessAt?.toISOString(), new Date(t0.getTime() + 500).toISOString(), 'the latest success kept');
    // A success after it ends the streak.
    await buffer.record(attempt(m, true, new Date(t0.getTime() + 2000)));
    await buffer.flush();
    h = await endpoints.health(m);
    assert.equal(h.failingSince, null);
    assert.deepEqual([h.attempts, h.successes], [4, 3]);
  });

  it('a failed attempt disables the endpoint at once on 410, or after every attempt failed for the period; two workers count apart', async () => {
    const m = newMerchant();
    const first = bufferOver(new WebhookEndpointRepository(db));
    const second = bufferOver(new WebhookEndpointRepository(db));
    const t0 = new Date('2026-11-01T00:00:00Z');
    assert.deepEqual(await first.record(attempt(m, false, t0)), { disabled: null });
    assert.deepEqual(await second.record(attempt(m, false, new Date(t0.getTime() + 60 * HOUR_MS))), { disabled: null });
    assert.equal((await new WebhookEndpointRepository(db).health(m)).state, 'enabled');
    const late = await first.record(attempt(m, false, new Date(t0.getTime() + DISABLE_AFTER_MS)));
    assert.deepEqual(late, { disabled: 'every attempt failed for 120h' });
    assert.equal(first.knownEnabled(m), false);
    const h = await new WebhookEndpointRepository(db).health(m);
    assert.equal(h.state, 'disabled');
    assert.equal(h.attempts, 3, 'each worker’s batches are numbered apart: none taken for another’s retry');
    assert.equal(h.failingSince?.toISOString(), t0.toISOString());

    const gone = newMerchant();
    assert.deepEqual(await first.record(attempt(gone, false, t0, { httpStatus: 410 })), { disabled: 'answered 410 Gone' });
    assert.equal((await new WebhookEndpointRepository(db).health(gone)).disabledReason, 'answered 410 Gone');
  });

  it('close writes what was counted since the last flush', async () => {
    const endpoints = new WebhookEndpointRepository(db);
    const buffer = new EndpointHealthBuffer(endpoints, DISABLE_AFTER_MS, NEVER_MS);
    const m = newMerchant();
    for (let i = 0; i < 3; i++) await buffer.record(attempt(m, true, new Date('2026-11-20T13:00:00Z')));
    assert.equal((await endpoints.health(m)).attempts, 0);
    await buffer.close();
    assert.equal((await endpoints.health(m)).attempts, 3);
  });
});
