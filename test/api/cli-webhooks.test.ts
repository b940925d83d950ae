import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { cliEnvFor, GATEWAY_MODES, runCli, SPAWN_TIMEOUT_MS, type CliRun, type GatewayMode } from '../support/cli';
import { deliveryResult } from '../support/deliveries';
import type { TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver, type ReceiverAnswer } from '../support/receiver';

const json = (run: CliRun): any => {
  assert.equal(run.code, 0, `exit status\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return JSON.parse(run.stdout);
};

for (const mode of GATEWAY_MODES) describeWebhookCommandsAgainst(mode);

function describeWebhookCommandsAgainst(mode: GatewayMode) {
  describe(`Operator CLI: webhooks commands against a gateway in ${mode.name} mode`, function () {
    this.timeout(8 * SPAWN_TIMEOUT_MS);
    let gw: TestGateway;
    let env: NodeJS.ProcessEnv;
    let answer: (n: number) => ReceiverAnswer = () => ({ status: 200, body: 'SUCCESS' });
    let receiver: Awaited<ReturnType<typeof startReceiver>>;

    before(async () => {
      // One attempt per delivery: a failure is final at once, in either mode.
      gw = await mode.start({ WEBHOOK_RETRY_SCHEDULE: '0' });
      env = cliEnvFor(gw);
      receiver = await startReceiver((n) => answer(n));
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
      if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
    });

    const cli = (args: string[]) => runCli(args, env);
    /** A merchant calling the receiver, and the real-time delivery of one paid order. */
    const paidWithWebhook = async (name: string) => {
      const m = await gw.newMerchant(name);
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const orderId = newOrderId('whcli');
      await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      const deliveryId = `rt:${m.merchantIdentifier}:${orderId}`;
      await deliveryResult(gw, deliveryId);
      return { merchantIdentifier: m.merchantIdentifier, deliveryId };
    };

    it('lists a failed delivery with its attempts (JSON, or a table), replays it, and replays all failed since a time', async () => {
      const since = (await mode.now(gw)).toISOString();
      answer = () => ({ status: 503, body: 'busy' });
      const { merchantIdentifier, deliveryId } = await paidWithWebhook('Hooks cli');

      const [d, ...more] = json(await cli(['webhooks', 'list', '--merchant', merchantIdentifier, '--state', 'failed']));
      assert.equal(more.length, 0);
      assert.equal(d.deliveryId, deliveryId);
      assert.deepEqual(
        d.attempts.map((a: { httpStatus: number }) => a.httpStatus),
        [503],
      );
      const table = await cli(['webhooks', 'list', '--merchant', merchantIdentifier, '--table']);
      assert.equal(table.code, 0, table.stderr);
      const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
      assert.match(header!, /^DELIVERY\s+STATE\s+ATTEMPTS\s+LAST\s+CREATED\s+REPLAY OF$/);
      assert.match(
        row!,
        new RegExp(`^${deliveryId.replace(/[.:]/g, '\\$&')}\\s+failed\\s+1\\s+503\\s+${d.createdAt.replace(/\./g, '\\.')}$`),
      );
      assert.equal(rest.length, 0);

      answer = () => ({ status: 200, body: 'SUCCESS' });
      const one = json(await cli(['webhooks', 'replay', deliveryId]));
      assert.equal(one.deliveryId, deliveryId);
      assert.equal((await gw.rt.temporal.workflow.getHandle(`webhook:${one.replayId}`).result()).state, 'delivered');
      assert.equal(receiver.calls.at(-1)!.body, receiver.calls.at(-2)!.body, 'the same bytes again');
      const listed = json(await cli(['webhooks', 'list', '--merchant', merchantIdentifier]));
      assert.deepEqual(
        listed.map((x: { deliveryId: string; state: string; replayOf?: string }) => [x.deliveryId, x.state, x.replayOf]),
        [
          [one.replayId, 'delivered', deliveryId],
          [deliveryId, 'failed', undefined],
        ],
      );

      // Its replay was delivered: replaying all failed since then sends nothing more.
      const all = json(await cli(['webhooks', 'replay-failed', '--since', since, '--merchant', merchantIdentifier]));
      assert.deepEqual(all.replayed, []);

      const unknown = await cli(['webhooks', 'replay', 'rt:nobody:nothing']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error 2044: No such webhook delivery/);
      for (const bad of [
        ['webhooks', 'list', '--state', 'lost'],
        ['webhooks', 'list', '--limit', '0'],
        ['webhooks', 'replay'],
        ['webhooks', 'replay', deliveryId, '--since', since],
        ['webhooks', 'replay-failed'],
        ['webhooks', 'replay-failed', '--since', 'yesterday'],
      ]) {
        const run = await cli(bad);
        assert.equal(run.code, 2, `${bad.join(' ')}: ${run.stderr}`);
        assert.equal(run.stdout, '');
      }
    });

    it('shows an endpoint disabled by a 410 and enables it again; an unknown merchant is the API’s 2042', async () => {
      answer = () => ({ status: 410, body: 'gone' });
      const { merchantIdentifier } = await paidWithWebhook('Hooks cli gone');
      const shown = json(await cli(['webhooks', 'endpoint', 'show', merchantIdentifier]));
      assert.deepEqual([shown.merchantIdentifier, shown.state], [merchantIdentifier, 'disabled']);
      const enabled = json(await cli(['webhooks', 'endpoint', 'enable', merchantIdentifier]));
      assert.equal(enabled.state, 'enabled');
      assert.equal(json(await cli(['webhooks', 'endpoint', 'show', merchantIdentifier])).state, 'enabled');
      for (const bad of [
        ['webhooks', 'endpoint', 'enable'],
        ['webhooks', 'endpoint', 'show', merchantIdentifier, '--limit', '2'],
      ])
        assert.equal((await cli(bad)).code, 2, bad.join(' '));
      const unknown = await cli(['webhooks', 'endpoint', 'enable', 'nobody123']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error 2042: No such merchant/);
    });

    it('shows and rotates the signing secret: the old one keeps signing for the overlap', async () => {
      const m = await gw.newMerchant('Signed cli');
      const before = json(await cli(['webhooks', 'secret', 'show', m.merchantIdentifier]));
      assert.equal(before.merchantIdentifier, m.merchantIdentifier);
      assert.equal(before.secrets.length, 1);
      assert.match(before.secrets[0].secret, /^whsec_/);
      const now = await mode.now(gw);
      const after = json(await cli(['webhooks', 'secret', 'rotate', m.merchantIdentifier, '--overlap', '1h'])).secrets;
      assert.equal(after.length, 2);
      assert.equal(after[1].secret, before.secrets[0].secret);
      const retires = new Date(after[1].retiresAt).getTime() - now.getTime();
      assert.ok(retires > 3500_000 && retires < 3700_000, `the old secret retires in an hour, not ${retires} ms`);
      assert.deepEqual(
        ((await gw.rt.merchants.webhookSigningSecrets(m.merchantIdentifier, await mode.now(gw))) ?? []).map((s) => s.secret),
        after.map((s: { secret: string }) => s.secret),
      );
      for (const overlap of ['soon', '31d', '999h']) {
        const run = await cli(['webhooks', 'secret', 'rotate', m.merchantIdentifier, '--overlap', overlap]);
        assert.equal(run.code, 2, `${overlap}: ${run.stderr}`);
      }
      assert.equal(
        json(await cli(['webhooks', 'secret', 'show', m.merchantIdentifier])).secrets.length,
        2,
        'no refused rotation rotated',
      );
      const unknown = await cli(['webhooks', 'secret', 'rotate', 'nobody123']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error 2042: /);
    });
  });
}
