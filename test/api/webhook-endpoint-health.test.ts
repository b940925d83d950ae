import { strict as assert } from 'node:assert';
import { withinHealthBound } from '../support/endpoint-health';
import { WebhookRepository } from '../../src/store/webhook-repository';
import { deliveryOutcome } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver, type ReceiverAnswer } from '../support/receiver';
import { skipTime, startTimeSkippingGateway } from '../support/time-skipping';

const DAY_S = 86_400;

/** A merchant of `gw` whose webhooks go to a receiver answering with `answer`. */
async function merchantWithReceiver(gw: TestGateway, answer: (n: number) => ReceiverAnswer) {
  const receiver = await startReceiver(answer);
  const m = await gw.newMerchant('Endpoint health');
  await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
  return { receiver, m };
}

async function pay(gw: TestGateway, merchantIdentifier: string, prefix: string): Promise<string> {
  const orderId = newOrderId(prefix);
  const paid = await sandboxPay(gw, { merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
  assert.equal(paid.status, 202, paid.text);
  await paymentFinished(gw, merchantIdentifier, orderId);
  return `rt:${merchantIdentifier}:${orderId}`;
}

const opsAuth = (gw: TestGateway) => ({ authorization: `Bearer ${gw.rt.config.secrets.opsToken}` });

describe('Webhook endpoint health: 410 disables, calls while disabled are kept failed, enable and replay, Retry-After, metrics', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let ops: Record<string, string>;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,1s,60s,60s' });
    ops = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  after(async () => gw?.stop());

  const endpoint = (merchantIdentifier: string) =>
    request(`${gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/webhook-endpoint`, { headers: ops });
  const enable = (merchantIdentifier: string, body?: object | string) =>
    request(`${gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/webhook-endpoint/enable`, {
      method: 'POST',
      headers: ops,
      ...(body !== undefined ? { body } : {}),
    });
  const stored = (deliveryId: string) => new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);

  it('410 Gone disables the endpoint at once; a call due while disabled is not sent but kept failed; enabled, a replay delivers both', async () => {
    const state = { gone: true };
    const { receiver, m } = await merchantWithReceiver(gw, () =>
      state.gone ? { status: 410, body: 'gone' } : { status: 200, body: 'SUCCESS' },
    );
    try {
      const since = new Date(Date.now() - 1000).toISOString();
      const first = await pay(gw, m.merchantIdentifier, 'gone');
      assert.deepEqual(await deliveryOutcome(gw, first), { state: 'failed', attempts: 1, workflow: false });
      assert.equal((await stored(first))?.failureReason, 'endpoint disabled');
      assert.equal(receiver.calls.length, 1);

      const health = await endpoint(m.merchantIdentifier);
      assert.equal(health.status, 200, health.text);
      assert.equal(health.json.data.state, 'disabled');
      assert.equal(health.json.data.disabledReason, 'answered 410 Gone');
      assert.equal(health.json.data.attempts, 1);
      assert.equal(health.json.data.successes, 0);

      // Disabled: the next payment's call is stored and failed without a request.
      const second = await pay(gw, m.merchantIdentifier, 'gone');
      assert.deepEqual(await deliveryOutcome(gw, second), { state: 'failed', attempts: 0, workflow: false });
      assert.equal((await stored(second))?.failureReason, 'endpoint disabled');
      assert.equal(receiver.calls.length, 1, 'nothing sent while disabled');
      const listed = await request(`${gw.baseUrl}/ops/v1/webhooks?merchantIdentifier=${m.merchantIdentifier}&state=failed`, {
        headers: ops,
      });
      assert.deepEqual(
        listed.json.data.map((d: { failureReason?: string }) => d.failureReason),
        ['endpoint disabled', 'endpoint disabled'],
      );

      const metrics = (await request(`${gw.baseUrl}/metrics`, { headers: opsAuth(gw) })).text;
      assert.match(metrics, new RegExp(`webhook_endpoints_disabled\\{merchantIdentifier="${m.merchantIdentifier}"\\} 1`));

      // Replay while disabled sends nothing either.
      state.gone = false;
      const enabled = await enable(m.merchantIdentifier);
      assert.equal(enabled.status, 200, enabled.text);
      assert.equal(enabled.json.data.state, 'enabled');
      assert.equal(enabled.json.data.failingSince, null);
      assert.equal((await endpoint(m.merchantIdentifier)).json.data.state, 'enabled');

      const replay = await request(`${gw.baseUrl}/ops/v1/webhooks/replay`, {
        method: 'POST',
        headers: ops,
        body: { since, merchantIdentifier: m.merchantIdentifier },
      });
      assert.equal(replay.status, 202, replay.text);
      const replayed = replay.json.data.replayed as { deliveryId: string; replayId: string }[];
      assert.deepEqual(replayed.map((r) => r.deliveryId).sort(), [first, second].sort());
      for (const r of replayed) {
        assert.equal((await gw.rt.temporal.workflow.getHandle(`webhook:${r.replayId}`).result()).state, 'delivered');
      }
      assert.equal(receiver.calls.length, 3);
      const bodies = new Set(receiver.calls.slice(1).map((c) => c.body));
      assert.equal(bodies.size, 2, 'each replay sent its own stored bytes');
      const healed = await withinHealthBound(
        () => endpoint(m.merchantIdentifier),
        (h) => h.json.data.successes === 2,
      );
      assert.equal(healed.json.data.successes, 2, 'the replays counted once the worker added its counts');
      assert.equal(healed.json.data.attempts, 3);
    } finally {
      await receiver.close();
    }
  });

  it('a 503 with Retry-After is waited for instead of the longer scheduled wait by the delivery workflow, and a 429 at the first attempt by its quick retry', async () => {
    // Attempt 1: 429 Retry-After 2 (schedule: 1 s); attempt 2, a quick retry in the payment workflow: 503
    // Retry-After 2 (schedule: 60 s, past WEBHOOK_QUICK_RETRIES_WITHIN: handed over); attempt 3: SUCCESS.
    const { receiver, m } = await merchantWithReceiver(gw, (n) =>
      n === 1
        ? { status: 429, body: 'slow down', headers: { 'retry-after': '2' } }
        : n === 2
          ? { status: 503, body: 'busy', headers: { 'retry-after': '2' } }
          : { status: 200, body: 'SUCCESS' },
    );
    try {
      const deliveryId = await pay(gw, m.merchantIdentifier, 'later');
      assert.deepEqual(await deliveryOutcome(gw, deliveryId), { state: 'delivered', attempts: 3, workflow: true });
      const gaps = receiver.calls.slice(1).map((c, i) => c.receivedAt - receiver.calls[i]!.receivedAt);
      // Capped by the schedule's next wait: 1 s, not the 2 s asked for.
      assert.ok(gaps[0]! >= 900 && gaps[0]! < 1900, `gap 1: ${gaps.join(',')}`);
      // Waited for: 2 s, not the scheduled 60 s (a loaded machine adds seconds to the hand-over, never 58).
      assert.ok(gaps[1]! >= 1900 && gaps[1]! < 55_000, `gap 2: ${gaps.join(',')}`);
    } finally {
      await receiver.close();
    }
  });

  it('reports attempts, successes, latency and disabled endpoints per merchant in /metrics', async () => {
    const { receiver, m } = await merchantWithReceiver(gw, (n) =>
      n === 1 ? { status: 500, body: 'down' } : { status: 200, body: 'SUCCESS' },
    );
    try {
      const deliveryId = await pay(gw, m.merchantIdentifier, 'metrics');
      assert.equal((await deliveryOutcome(gw, deliveryId)).state, 'delivered');
      assert.equal((await request(`${gw.baseUrl}/metrics`)).status, 401, 'no operator token, no merchant list');
      const label = `merchantIdentifier="${m.merchantIdentifier}"`;
      // The failed attempt is counted at once, the acknowledged one within the health bound.
      const res = await withinHealthBound(
        () => request(`${gw.baseUrl}/metrics`, { headers: opsAuth(gw) }),
        (r) => r.text.includes(`webhook_successes_total{${label}} 1`),
      );
      assert.match(res.text, /^webhook_metrics_truncated 0$/m, 'one bounded read, not truncated here');
      assert.equal(res.status, 200);
      assert.match(res.text, new RegExp(`^webhook_attempts_total\\{${label}\\} 2$`, 'm'));
      assert.match(res.text, new RegExp(`^webhook_successes_total\\{${label}\\} 1$`, 'm'));
      assert.match(res.text, new RegExp(`^webhook_attempt_duration_seconds_bucket\\{${label},le="\\+Inf"\\} 2$`, 'm'));
      assert.match(res.text, new RegExp(`^webhook_attempt_duration_seconds_count\\{${label}\\} 2$`, 'm'));
      assert.match(res.text, new RegExp(`^webhook_endpoints_disabled\\{${label}\\} 0$`, 'm'));
      assert.match(res.text, /# TYPE webhook_attempt_duration_seconds histogram/);
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad input on the endpoint routes with 4xx, never a 500', async () => {
    const m = await gw.newMerchant('Endpoint input');
    assert.equal((await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}/webhook-endpoint`)).status, 401);
    assert.equal((await endpoint('nobody')).status, 404);
    assert.equal((await enable('nobody')).status, 404);
    const unknownQuery = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}/webhook-endpoint?surprise=1`, {
      headers: ops,
    });
    assert.equal(unknownQuery.status, 400, unknownQuery.text);
    for (const body of [{ extra: true }, '{', [], 'null']) {
      const res = await enable(m.merchantIdentifier, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.json.success, false);
    }
    const ok = await enable(m.merchantIdentifier, {});
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.data.state, 'enabled');
    assert.equal((await endpoint(m.merchantIdentifier)).json.data.attempts, 0);
  });
});

describe('Webhook endpoint health over time-skipped days', function () {
  this.timeout(240_000);
  let gw: TestGateway;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver(() => ({ status: 500, body: 'down' }));
    gw = await startTimeSkippingGateway({ TIME_SKIP_TIMEOUT_SECONDS: '20' });
  });
  after(async () => {
    await gw?.stop();
    await receiver?.close();
  });

  it('five days in which every delivery failed (500) disable the endpoint; the next call is kept failed, unsent', async () => {
    const m = await gw.newMerchant('Five bad days');
    await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    const health = async () =>
      (
        await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}/webhook-endpoint`, {
          headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
        })
      ).json.data;
    const deliveries: string[] = [];
    for (let day = 0; day < 5; day++) {
      deliveries.push(await pay(gw, m.merchantIdentifier, `day${day}`));
      // The last skip a minute past the fifth day, whatever the clock did while paying on day 0.
      const skipped = await skipTime(gw, { seconds: day === 4 ? DAY_S + 60 : DAY_S });
      assert.equal(skipped.status, 200, skipped.text);
      assert.equal((await health()).state, 'enabled', `still enabled after day ${day + 1}`);
    }
    const callsBefore = receiver.calls.length;
    // 120 h after the first failure: this delivery's first attempt fails, and disables the endpoint.
    const last = await pay(gw, m.merchantIdentifier, 'day5');
    const h = await health();
    assert.equal(h.state, 'disabled', JSON.stringify(h));
    assert.match(h.disabledReason, /every attempt failed for 120h/);
    assert.equal(receiver.calls.length, callsBefore + 1);
    assert.equal(
      (await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(last))?.failureReason,
      'endpoint disabled',
    );
    // Deliveries still on their schedule are not sent any more either.
    await skipTime(gw, { seconds: DAY_S });
    assert.equal(receiver.calls.length, callsBefore + 1, 'nothing sent while disabled');
    const states = await Promise.all(
      deliveries.map(async (d) => (await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(d))?.state),
    );
    assert.deepEqual(states, ['failed', 'failed', 'failed', 'failed', 'failed']);
  });
});
