import { strict as assert } from 'node:assert';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeRunningGateway } from '../../src/devstack/gateway-file';
import { freePort } from '../../src/devstack/process';
import { cliEnvFor, GATEWAY_MODES, runCli, spawnCli, SPAWN_TIMEOUT_MS, type CliRun, type GatewayMode } from '../support/cli';
import type { TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';

const HEX32 = /^[0-9a-f]{32}$/;

/** The one JSON line a successful command prints. */
function printed(run: CliRun): any {
  assert.equal(run.code, 0, `exit status\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  const lines = run.stdout.split('\n');
  assert.deepEqual([lines.length, lines[1]], [2, ''], `exactly one line on stdout, got: ${JSON.stringify(run.stdout)}`);
  return JSON.parse(lines[0]!);
}

/** A refusal: exit status 1, nothing on stdout, the message on stderr. */
function refused(run: CliRun, stderr: RegExp): void {
  assert.equal(run.code, 1, `exit status\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout, '', 'nothing on stdout');
  assert.match(run.stderr, stderr);
}

/** A usage error: exit status 2, nothing on stdout, the message on stderr. */
function usageError(run: CliRun, stderr: RegExp): void {
  assert.equal(run.code, 2, `exit status\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout, '', 'nothing on stdout');
  assert.match(run.stderr, stderr);
}

for (const mode of GATEWAY_MODES) describeCliAgainst(mode);

function describeCliAgainst(mode: GatewayMode) {
  describe(`Operator CLI against a gateway in ${mode.name} mode (ops API over HTTP)`, function () {
    this.timeout(6 * SPAWN_TIMEOUT_MS);
    let gw: TestGateway;
    let env: NodeJS.ProcessEnv;
    let dir: string;

    before(async () => {
      gw = await mode.start();
      env = cliEnvFor(gw);
      dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-files-'));
    });
    after(async () => {
      await gw?.stop();
      for (const d of [dir, env?.DATA_DIR]) if (d) rmSync(d, { recursive: true, force: true });
    });

    const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(args, { ...env, ...extra });
    const countMerchants = () => gw.rt.store.db.collection('merchants').countDocuments({});
    /** An order paid by a sandbox payer, its workflow finished (in time-skipping mode after the bank's wait is skipped). */
    const paidOrder = async (merchantIdentifier: string, payerVpa: string) => {
      const orderId = newOrderId('cli');
      const paid = await sandboxPay(gw, { merchantIdentifier, orderId, payerVpa });
      assert.equal(paid.status, 202, paid.text);
      if (mode.name === 'time-skipping') await mode.pass(gw, 15 * 60);
      await paymentFinished(gw, merchantIdentifier, orderId);
      return { orderId, txnId: paid.json.data.txnId as string };
    };

    it('merchant create provisions through the API: credentials on one line, the merchant in the store this gateway reads', async () => {
      const run = await cli(['merchant', 'create', '--name', 'Acme', '--webhook-url', 'https://acme.example/hook']);
      const credentials = printed(run);
      assert.deepEqual(Object.keys(credentials).sort(), [
        'apiKey',
        'encryptionKeyId',
        'merchantIdentifier',
        'publicKeyPem',
        'secretKey',
      ]);
      assert.match(credentials.merchantIdentifier, HEX32);
      assert.match(credentials.secretKey, HEX32);
      assert.equal(createPublicKey(credentials.publicKeyPem).asymmetricKeyDetails?.modulusLength, 2048);
      const stored = await gw.rt.merchants.findById(credentials.merchantIdentifier);
      assert.equal(stored?.name, 'Acme');
      assert.equal(stored?.webhookUrl, 'https://acme.example/hook');
      assert.equal(stored?.secretKey, credentials.secretKey, 'decrypts with the gateway’s MASTER_KEY');
    });

    it('merchant create imports a merchant with its own credentials; a taken identifier is the API’s 2047, nothing stored', async () => {
      const merchantIdentifier = `imported${Date.now()}`;
      const imported = printed(
        await cli([
          'merchant',
          'create',
          '--name',
          'Moved',
          '--merchant-identifier',
          merchantIdentifier,
          '--secret-key',
          'my-old-secret-key-0123',
        ]),
      );
      assert.deepEqual([imported.merchantIdentifier, imported.secretKey], [merchantIdentifier, 'my-old-secret-key-0123']);
      const before = await countMerchants();
      refused(
        await cli(['merchant', 'create', '--name', 'Again', '--merchant-identifier', merchantIdentifier]),
        /^error 2047: A merchant with this merchantIdentifier exists already/,
      );
      assert.equal(await countMerchants(), before);
      assert.equal((await gw.rt.merchants.findById(merchantIdentifier))?.name, 'Moved');
      usageError(
        await cli(['merchant', 'create', '--name', 'Short', '--merchant-identifier', 'ab-1', '--secret-key', 'short']),
        /--merchant-identifier: .*6 to 64[\s\S]*--secret-key: .*16 to 128/,
      );
      assert.equal(await countMerchants(), before);
    });

    it('merchant update changes settings and prints them; bad values are usage errors, an unknown merchant the API’s 2042', async () => {
      const m = await gw.newMerchant('Upd');
      const run = await cli([
        'merchant',
        'update',
        m.merchantIdentifier,
        '--auto-refund',
        'true',
        '--webhook-format',
        'json',
        '--settlement-webhook',
        'true',
      ]);
      assert.deepEqual(printed(run), {
        merchantIdentifier: m.merchantIdentifier,
        name: 'Upd',
        webhookUrl: null,
        webhookFormat: 'json',
        autoRefund: true,
        settlementWebhook: true,
        defaultReturnUrl: null,
      });
      assert.equal((await gw.rt.merchants.findById(m.merchantIdentifier))?.autoRefund, true);
      assert.equal((await gw.rt.merchants.findById(m.merchantIdentifier))?.settlementWebhook, true);
      const withReturn = printed(
        await cli(['merchant', 'update', m.merchantIdentifier, '--default-return-url', 'https://upd.example/r']),
      );
      assert.equal(withReturn.defaultReturnUrl, 'https://upd.example/r');
      assert.equal(
        printed(await cli(['merchant', 'update', m.merchantIdentifier, '--default-return-url', ''])).defaultReturnUrl,
        null,
      );
      for (const args of [
        ['--auto-refund', 'maybe'],
        ['--settlement-webhook', 'yes'],
        ['--webhook-format', 'xml'],
        ['--default-return-url', 'ftp://x'],
        [],
      ])
        usageError(await cli(['merchant', 'update', m.merchantIdentifier, ...args]), /error: /);
      assert.equal(
        (await gw.rt.merchants.findById(m.merchantIdentifier))?.webhookFormat,
        'json',
        'no usage error changed anything',
      );
      refused(await cli(['merchant', 'update', 'nobody123', '--auto-refund', 'false']), /^error 2042: No such merchant/);
    });

    it('merchant invite prints a one-time dashboard link; a bad email or role is a usage error, an unknown merchant the API’s 2042', async () => {
      const m = await gw.newMerchant('Invites');
      const invited = printed(await cli(['merchant', 'invite', m.merchantIdentifier, '--email', 'Owner@Invites.example']));
      assert.deepEqual([invited.email, invited.role], ['owner@invites.example', 'owner']);
      assert.ok(invited.invitationUrl.startsWith(`${gw.rt.config.http.publicBaseUrl}/`), invited.invitationUrl);
      assert.ok(new Date(invited.expiresAt).getTime() > (await mode.now(gw)).getTime());
      const viewer = printed(
        await cli(['merchant', 'invite', m.merchantIdentifier, '--email', 'viewer@invites.example', '--role', 'viewer']),
      );
      assert.equal(viewer.role, 'viewer');
      usageError(
        await cli(['merchant', 'invite', m.merchantIdentifier, '--email', 'not-an-email']),
        /--email: must be an email address/,
      );
      usageError(
        await cli(['merchant', 'invite', m.merchantIdentifier, '--email', 'x@invites.example', '--role', 'god']),
        /--role: /,
      );
      usageError(await cli(['merchant', 'invite', m.merchantIdentifier]), /--email: required/);
      refused(await cli(['merchant', 'invite', 'nobody123', '--email', 'x@invites.example']), /^error 2042: No such merchant/);
    });

    it('reconcile uploads the file, waits for the report and prints it, stamped with the gateway’s time; reconciliation show reads it again', async () => {
      const m = await gw.newMerchant();
      const { orderId, txnId } = await paidOrder(m.merchantIdentifier, 'noanswer@sandbox');
      const file = path.join(dir, 'bank.csv');
      writeFileSync(file, `txnId,bankRefNum,status,amount\n${txnId},CLI0001,SUCCESS,10000\nNOPE1,X,SUCCESS,1\n`);
      const before = await mode.now(gw);
      const run = await cli(['reconcile', file]);
      const report = printed(run);
      assert.match(run.stderr, /reconciliation \S+ started; waiting/);
      assert.deepEqual(
        [report.state, report.rows, report.applied, report.unchanged, report.rejected],
        ['done', 2, 1, 0, [{ line: 3, reason: 'unknown txnId' }]],
      );
      assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.status, 'Success');
      const stored = await gw.rt.store.db.collection('reconciliations').findOne({ _id: report.reconciliationId });
      assert.ok(
        stored!.createdAt.getTime() >= before.getTime() - 1000,
        `${stored!.createdAt.toISOString()} before ${before.toISOString()}`,
      );

      assert.deepEqual(printed(await cli(['reconciliation', 'show', report.reconciliationId])), report);
      const again = printed(await cli(['reconcile', '--no-wait', file]));
      assert.deepEqual(Object.keys(again), ['reconciliationId']);
      assert.notEqual(again.reconciliationId, report.reconciliationId);

      usageError(await cli(['reconcile', path.join(dir, 'missing.csv')]), /cannot read .*missing\.csv/);
      writeFileSync(path.join(dir, 'bad.csv'), 'orderId,amount\nx,1\n');
      refused(await cli(['reconcile', path.join(dir, 'bad.csv')]), /^error 2002: Validation failed/);
      refused(await cli(['reconciliation', 'show', 'nope']), /^error 2043: No such reconciliation/);
    });

    it('chargeback raise and revert record the bank’s chargeback; a refusal prints the API’s code and text', async () => {
      const m = await gw.newMerchant();
      const { orderId } = await paidOrder(m.merchantIdentifier, 'success@sandbox');
      const order = ['--merchant', m.merchantIdentifier, '--order', orderId];
      assert.deepEqual(printed(await cli(['chargeback', 'raise', ...order, '--amount', '4000'])), {
        merchantIdentifier: m.merchantIdentifier,
        orderId,
        txnStatus: '8',
        chargebackAmount: '4000',
      });
      refused(await cli(['chargeback', 'revert', ...order, '--amount', '3000']), /^error 2035: A revert must carry the amount/);
      assert.equal(printed(await cli(['chargeback', 'revert', ...order, '--amount', '4000'])).txnStatus, '7');
      refused(
        await cli(['chargeback', 'raise', '--merchant', m.merchantIdentifier, '--order', 'no-such-order', '--amount', '100']),
        /^error 2020: No transaction found/,
      );
      usageError(await cli(['chargeback', 'raise', ...order, '--amount', '12.5']), /--amount: /);
      usageError(await cli(['chargeback', 'raise', '--order', orderId, '--amount', '100']), /--merchant: required/);
    });

    it('settlements list prints the merchant’s latest settlements, newest first, at most --limit; an unknown merchant is the API’s 2042', async () => {
      const m = (await gw.newMerchant()).merchantIdentifier;
      const stored = (date: string, state: string) => ({
        _id: `settlement:${m}:${date}` as never,
        merchantIdentifier: m,
        settlementDate: date,
        state,
        netPaise: 5000,
        createdAt: new Date(),
      });
      await gw.rt.store.db.collection('settlements').insertMany([stored('2026-11-23', 'paid'), stored('2026-11-24', 'held')]);
      const all = printed(await cli(['settlements', 'list', m]));
      assert.deepEqual(
        all.settlements.map((s: { _id: string; state: string }) => [s._id, s.state]),
        [
          [`settlement:${m}:2026-11-24`, 'held'],
          [`settlement:${m}:2026-11-23`, 'paid'],
        ],
      );
      const one = printed(await cli(['settlements', 'list', m, '--limit', '1']));
      assert.deepEqual(
        one.settlements.map((s: { _id: string }) => s._id),
        [`settlement:${m}:2026-11-24`],
      );
      refused(await cli(['settlements', 'list', m, '--limit', '0']), /^error 2002: /);
      refused(await cli(['settlements', 'list', 'nosuchmerchant1']), /^error 2042: No such merchant/);
    });

    it('codec encode and decode round-trip a Temporal payload, from a file or standard input', async () => {
      const payload = {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from('"chai"').toString('base64'),
      };
      const file = path.join(dir, 'payloads.json');
      writeFileSync(file, JSON.stringify({ payloads: [payload] }));
      const encoded = printed(await cli(['codec', 'encode', file]));
      assert.equal(encoded.payloads.length, 1);
      assert.notEqual(encoded.payloads[0].data, payload.data, 'encrypted');
      // Through the real entry point (a child process): what it reads from its standard input.
      const decoded = printed(await spawnCli(['codec', 'decode', '-'], env, JSON.stringify(encoded)));
      assert.deepEqual(decoded, { payloads: [payload] });
      const tampered = { ...encoded.payloads[0], data: Buffer.from('tampered').toString('base64') };
      refused(await runCli(['codec', 'decode', '-'], env, JSON.stringify({ payloads: [tampered] })), /^error 2002: /);
      usageError(await runCli(['codec', 'decode', '-'], env, 'not json'), /cannot read standard input as JSON/);
      usageError(await runCli(['codec', 'encode', '-'], env, '{"payloads":[{"data":"not base64!"}]}'), /payloads: .*base64/);
    });

    it('a wrong operator token: exit status 1 and a message that says so', async () => {
      const run = await cli(['webhooks', 'list'], { OPS_TOKEN: 'not-the-token' });
      refused(run, /refused the operator token \(2014 Operator token is missing or invalid\): set OPS_TOKEN/);
    });

    it('finds the gateway `npm start` announced in DATA_DIR/gateway.json, with its token', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-data-'));
      try {
        writeRunningGateway(dataDir, {
          baseUrl: gw.baseUrl,
          opsBaseUrl: gw.opsBaseUrl,
          opsToken: gw.rt.config.secrets.opsToken,
          timeSkipping: mode.name === 'time-skipping',
          pid: 1,
        });
        const m = await gw.newMerchant('Announced');
        const shown = await cli(['webhooks', 'endpoint', 'show', m.merchantIdentifier], {
          GATEWAY_URL: '',
          OPS_TOKEN: '',
          DATA_DIR: dataDir,
        });
        assert.equal(printed(shown).merchantIdentifier, m.merchantIdentifier);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}

describe('Operator CLI without a gateway, and its usage errors (exit status 2, nothing sent)', function () {
  this.timeout(4 * SPAWN_TIMEOUT_MS);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-none-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const { GATEWAY_URL: _u, OPS_TOKEN: _t, ...inherited } = process.env;
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(args, { ...inherited, DATA_DIR: dataDir, ...extra });

  it('an unreachable gateway: exit status 1 and a message naming the address', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    refused(
      await cli(['merchant', 'create', '--name', 'Acme'], { GATEWAY_URL: url, OPS_TOKEN: 'x' }),
      new RegExp(`cannot reach the gateway at ${url} \\(ECONNREFUSED\\); is it running\\?`),
    );
  });

  it('no gateway given and none announced: exit status 1, how to name one', async () => {
    refused(await cli(['webhooks', 'list']), /no gateway to talk to: set GATEWAY_URL and OPS_TOKEN, or start one with npm start/);
    refused(
      await cli(['webhooks', 'list'], { GATEWAY_URL: 'localhost:3000', OPS_TOKEN: 'x' }),
      /GATEWAY_URL: must be an http\(s\) address/,
    );
  });

  it('no command, an unknown command or option, a missing or bad value', async () => {
    usageError(await cli([]), /Usage: cli <command> \[options\][\s\S]*merchant/);
    usageError(await cli(['merchant', 'delete', '--name', 'Acme']), /unknown command 'delete'/);
    usageError(await cli(['shop', 'create']), /unknown command 'shop'/);
    usageError(await cli(['merchant', 'create', '--name', 'Acme', '--nmae', 'Acme']), /unknown option '--nmae'/);
    usageError(await cli(['merchant', 'create', '--webhook-url', 'https://acme.example/hook']), /--name: required/);
    usageError(await cli(['merchant', 'create', '--name', '   ']), /--name: /);
    usageError(await cli(['merchant', 'create', '--name', 'Acme', '--webhook-url', 'ftp://x']), /--webhook-url: .*http/);
    usageError(await cli(['webhooks', 'replay']), /missing required argument 'deliveryId'/);
  });

  it('the entry point `npm run cli` runs (a child process) exits 0, 1 and 2 as the runs in this process do', async () => {
    const spawned = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      spawnCli(args, { ...inherited, DATA_DIR: dataDir, ...extra });
    const [help, unreachable, usage] = await Promise.all([
      spawned(['merchant', 'create', '--help']),
      spawned(['webhooks', 'list'], { GATEWAY_URL: `http://127.0.0.1:${await freePort()}`, OPS_TOKEN: 'x' }),
      spawned(['merchant', 'create', '--name', 'Acme', '--nmae', 'Acme']),
    ]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: cli merchant create \[options\]/);
    refused(unreachable, /^cannot reach the gateway at .*ECONNREFUSED/);
    usageError(usage, /unknown option '--nmae'[\s\S]*\(add --help for usage\)/);
  });

  it('--help on a command prints its usage on stdout and exits 0', async () => {
    const run = await cli(['webhooks', 'list', '--help']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Usage: cli webhooks list \[options\][\s\S]*--table/);
  });
});
