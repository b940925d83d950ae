import { strict as assert } from 'node:assert';
import { runCli, SPAWN_TIMEOUT_MS } from '../support/cli';
import { deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { testStore, testTemporal } from '../support/servers';

describe('Operator CLI: webhooks list and replay (child process)', function () {
  this.timeout(6 * SPAWN_TIMEOUT_MS);
  let gw: TestGateway;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    env = {
      ...process.env,
      MONGODB_URI: (await testStore()).uri,
      MONGODB_DB: gw.rt.config.MONGODB_DB,
      MASTER_KEY: gw.rt.config.MASTER_KEY,
      OPS_TOKEN: gw.rt.config.OPS_TOKEN,
      GATEWAY_ENV: 'test',
      TEMPORAL_ADDRESS: (await testTemporal()).address,
      TEMPORAL_TASK_QUEUE: gw.rt.config.TEMPORAL_TASK_QUEUE,
    };
  });
  after(async () => gw?.stop());

  const cli = (args: string[]) => runCli(args, env);

  it('lists a failed delivery with its attempts and replays it, one and all failed since', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const state = { up: false };
    const receiver = await startReceiver(() => (state.up ? { status: 200, body: 'SUCCESS' } : { status: 503, body: 'busy' }));
    try {
      const m = await gw.newMerchant('Hooks cli');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = newOrderId('whcli');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
      await deliveryResult(gw, deliveryId);

      const listed = await cli(['webhooks', 'list', '--merchant', m.merchantIdentifier, '--state', 'failed']);
      assert.equal(listed.code, 0, listed.stderr);
      const [d] = JSON.parse(listed.stdout);
      assert.equal(d._id, deliveryId);
      assert.deepEqual(
        d.attempts.map((a: { httpStatus: number }) => a.httpStatus),
        [503, 503],
      );

      state.up = true;
      const one = await cli(['webhooks', 'replay', deliveryId]);
      assert.equal(one.code, 0, one.stderr);
      const { replayId } = JSON.parse(one.stdout);
      assert.equal((await gw.rt.temporal.workflow.getHandle(`webhook:${replayId}`).result()).state, 'delivered');
      assert.equal(receiver.calls.at(-1)!.body, receiver.calls[0]!.body);

      const all = await cli(['webhooks', 'replay', '--since', since, '--merchant', m.merchantIdentifier]);
      assert.equal(all.code, 0, all.stderr);
      assert.deepEqual(
        JSON.parse(all.stdout).replayed.map((r: { deliveryId: string }) => r.deliveryId),
        [deliveryId],
      );

      for (const bad of [
        ['webhooks', 'list', '--state', 'lost'],
        ['webhooks', 'replay'],
        ['webhooks', 'replay', deliveryId, '--since', since],
        ['webhooks', 'replay', '--since', 'yesterday'],
      ]) {
        const run = await cli(bad);
        assert.equal(run.code, 2, bad.join(' '));
        assert.equal(run.stdout, '');
      }
    } finally {
      await receiver.close();
    }
  });

  it('shows a webhook endpoint disabled by a 410 and enables it again', async () => {
    const receiver = await startReceiver(() => ({ status: 410, body: 'gone' }));
    try {
      const m = await gw.newMerchant('Hooks cli gone');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = newOrderId('whgone');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(gw, m.merchantIdentifier, orderId);

      const shown = await cli(['webhooks', 'endpoint', m.merchantIdentifier]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(JSON.parse(shown.stdout).state, 'disabled');
      const enabled = await cli(['webhooks', 'enable', m.merchantIdentifier]);
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.equal(JSON.parse(enabled.stdout).state, 'enabled');
      for (const bad of [
        ['webhooks', 'enable'],
        ['webhooks', 'endpoint', m.merchantIdentifier, '--limit', '2'],
      ]) {
        const run = await cli(bad);
        assert.equal(run.code, 2, bad.join(' '));
      }
      assert.notEqual((await cli(['webhooks', 'enable', 'nobody'])).code, 0);
    } finally {
      await receiver.close();
    }
  });
});
