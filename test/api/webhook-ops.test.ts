import { strict as assert } from 'node:assert';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { replayFailedSince } from '../../src/usecases/replay-webhook';
import { deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';

describe('Operator webhook API: GET /ops/v1/webhooks, replay one, replay all failed since', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let ops: Record<string, string>;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    ops = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  after(async () => gw?.stop());

  /** A merchant whose receiver answers 500 until `up` is set, and one failed real-time delivery of it. */
  async function failedDelivery() {
    const state = { up: false };
    const receiver = await startReceiver(() => (state.up ? { status: 200, body: 'SUCCESS' } : { status: 500, body: 'down' }));
    const m = await gw.newMerchant('Hooks ops');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    const orderId = newOrderId('whop');
    await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
    assert.deepEqual(await deliveryResult(gw, deliveryId), { state: 'failed', attempts: 2 });
    return { receiver, state, m, deliveryId };
  }
  const list = (query: string) => request(`${gw.baseUrl}/ops/v1/webhooks?${query}`, { headers: ops });

  it('lists a failed delivery with its attempts, and a replay delivers the same bytes as a new linked delivery', async () => {
    const { receiver, state, m, deliveryId } = await failedDelivery();
    try {
      const failed = await list(`merchantIdentifier=${m.merchantIdentifier}&state=failed`);
      assert.equal(failed.status, 200);
      assert.equal(failed.json.data.length, 1);
      const d = failed.json.data[0];
      assert.equal(d.deliveryId, deliveryId);
      assert.equal(d.state, 'failed');
      assert.deepEqual(
        d.attempts.map((a: { attempt: number; httpStatus: number; response: string }) => [a.attempt, a.httpStatus, a.response]),
        [
          [1, 500, 'down'],
          [2, 500, 'down'],
        ],
      );
      assert.equal((await list(`merchantIdentifier=${m.merchantIdentifier}&state=delivered`)).json.data.length, 0);

      state.up = true;
      const replay = await request(`${gw.baseUrl}/ops/v1/webhooks/${encodeURIComponent(deliveryId)}/replay`, {
        method: 'POST',
        headers: ops,
      });
      assert.equal(replay.status, 202);
      const { replayId } = replay.json.data;
      assert.notEqual(replayId, deliveryId);
      assert.deepEqual(await gw.rt.temporal.workflow.getHandle(`webhook:${replayId}`).result(), {
        state: 'delivered',
        attempts: 1,
      });

      assert.equal(receiver.calls.length, 3);
      assert.equal(receiver.calls[2]!.body, receiver.calls[0]!.body, 'the same bytes');
      assert.equal(receiver.calls[2]!.headers['x-webhook-id'], replayId);
      const delivered = await list(`merchantIdentifier=${m.merchantIdentifier}&state=delivered`);
      assert.deepEqual(
        delivered.json.data.map((x: { deliveryId: string; replayOf: string }) => [x.deliveryId, x.replayOf]),
        [[replayId, deliveryId]],
      );
      // The first delivery stays failed: the replay is its own record.
      assert.equal(
        (await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId))?.state,
        'failed',
      );
    } finally {
      await receiver.close();
    }
  });

  it('replays every failed delivery since a time', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const a = await failedDelivery();
    try {
      a.state.up = true;
      const res = await request(`${gw.baseUrl}/ops/v1/webhooks/replay`, {
        method: 'POST',
        headers: ops,
        body: { since, merchantIdentifier: a.m.merchantIdentifier },
      });
      assert.equal(res.status, 202);
      assert.equal(res.json.data.replayed.length, 1);
      assert.equal(res.json.data.replayed[0].deliveryId, a.deliveryId);
      const { replayId } = res.json.data.replayed[0];
      assert.equal((await gw.rt.temporal.workflow.getHandle(`webhook:${replayId}`).result()).state, 'delivered');
      // A time after the failure replays nothing.
      const later = await request(`${gw.baseUrl}/ops/v1/webhooks/replay`, {
        method: 'POST',
        headers: ops,
        body: { since: new Date(Date.now() + 60_000).toISOString(), merchantIdentifier: a.m.merchantIdentifier },
      });
      assert.deepEqual(later.json.data.replayed, []);
    } finally {
      await a.receiver.close();
    }
  });

  it('replays all failed originals since a time, page after page, oldest first; never a replay, never twice', async () => {
    const state = { up: false };
    const receiver = await startReceiver(() => (state.up ? { status: 200, body: 'SUCCESS' } : { status: 500, body: 'down' }));
    try {
      const m = await gw.newMerchant('Hooks replay all');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const since = new Date(Date.now() - 1000);
      const originals: string[] = [];
      for (let i = 0; i < 3; i++) {
        const orderId = newOrderId('whall');
        await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
        await paymentFinished(gw, m.merchantIdentifier, orderId);
        originals.push(`rt:${m.merchantIdentifier}:${orderId}`);
        assert.equal((await deliveryResult(gw, originals[i]!)).state, 'failed');
      }
      const webhooks = new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey);
      const deps = { webhooks, temporal: gw.rt.temporal, taskQueue: gw.rt.config.temporal.taskQueue };
      const replayAll = async () => {
        const res = await request(`${gw.baseUrl}/ops/v1/webhooks/replay`, {
          method: 'POST',
          headers: ops,
          body: { since: since.toISOString(), merchantIdentifier: m.merchantIdentifier },
        });
        assert.equal(res.status, 202);
        return res.json.data.replayed as { deliveryId: string; replayId: string }[];
      };
      const settled = async (replayIds: string[]) =>
        Promise.all(replayIds.map(async (id) => (await gw.rt.temporal.workflow.getHandle(`webhook:${id}`).result()).state));

      // Pages of 2 over 3 failed originals: every one, oldest first, each under its first replay id.
      const first = await replayFailedSince({ ...deps, replayPageSize: 2 }, since, m.merchantIdentifier);
      assert.deepEqual(
        first,
        originals.map((deliveryId) => ({ deliveryId, replayId: `${deliveryId}:replay-1` })),
      );
      assert.deepEqual(await settled(first.map((r) => r.replayId)), ['failed', 'failed', 'failed']);

      // The failed replays are not replayed themselves: the originals are, as their second replay.
      state.up = true;
      const second = await replayAll();
      assert.deepEqual(
        second.map((r) => [r.deliveryId, r.replayId]).sort(),
        originals.map((id) => [id, `${id}:replay-2`]).sort(),
      );
      assert.deepEqual(await settled(second.map((r) => r.replayId)), ['delivered', 'delivered', 'delivered']);
      const calls = receiver.calls.length;

      // The same request again starts nothing: every original has a delivered replay.
      assert.deepEqual(await replayAll(), []);
      // Replaying one by its id, or by its replay's id, answers the standing replay and sends nothing.
      for (const id of [originals[0]!, `${originals[0]!}:replay-1`, `${originals[0]!}:replay-2`]) {
        const one = await request(`${gw.baseUrl}/ops/v1/webhooks/${encodeURIComponent(id)}/replay`, {
          method: 'POST',
          headers: ops,
        });
        assert.equal(one.status, 202);
        assert.equal(one.json.data.replayId, `${originals[0]!}:replay-2`, id);
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.calls.length, calls, 'nothing more sent');
      const stored = await webhooks.list({ merchantIdentifier: m.merchantIdentifier }, 50);
      assert.equal(stored.length, 3 * 3, 'three originals, two replays each');
      assert.ok(
        stored.filter((d) => d.replayOf).every((d) => originals.includes(d.replayOf!)),
        'replays link to originals',
      );
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad input with the right envelope and status, changing nothing', async () => {
    assert.equal((await request(`${gw.baseUrl}/ops/v1/webhooks`)).status, 401);
    assert.equal((await request(`${gw.baseUrl}/ops/v1/webhooks`, { headers: { authorization: 'Bearer nope' } })).status, 401);
    for (const q of ['state=lost', 'limit=0', 'limit=abc', 'surprise=1', 'state=failed&state=pending']) {
      const res = await list(q);
      assert.equal(res.status, 400, q);
      assert.equal(res.json.success, false, q);
    }
    const missing = await request(`${gw.baseUrl}/ops/v1/webhooks/${encodeURIComponent('rt:none:none')}/replay`, {
      method: 'POST',
      headers: ops,
    });
    assert.equal(missing.status, 404);
    for (const body of [{}, { since: 'yesterday' }, { since: 5 }, { since: new Date().toISOString(), extra: true }, '{']) {
      const res = await request(`${gw.baseUrl}/ops/v1/webhooks/replay`, { method: 'POST', headers: ops, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.json.success, false);
    }
  });
});
