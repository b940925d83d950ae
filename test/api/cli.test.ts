import { strict as assert } from 'node:assert';
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { runCli, SPAWN_TIMEOUT_MS, type CliRun } from '../support/cli';
import { sharedGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { testStore, testTemporal } from '../support/servers';

const MASTER_KEY = '5f1c2e9a7b3d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a';
const OPS_TOKEN = 'cli-test-operator-token-0123456789';
const HEX32 = /^[0-9a-f]{32}$/;

describe('Operator CLI: merchant create (child process)', function () {
  this.timeout(4 * SPAWN_TIMEOUT_MS);
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let merchants: MerchantRepository;

  before(async () => {
    const { uri, dbName } = await testStore();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-'));
    env = { ...process.env, MONGODB_URI: uri, MONGODB_DB: dbName, MASTER_KEY, OPS_TOKEN, GATEWAY_ENV: 'test', DATA_DIR: dataDir };
    store = await connectStore(uri, dbName);
    merchants = new MerchantRepository(store.db, MASTER_KEY);
  });

  after(async () => {
    await store?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runCli(args, { ...env, ...extraEnv });

  const countMerchants = () => store.db.collection('merchants').countDocuments({});

  it('prints the credentials as one JSON line and stores the merchant, secrets decryptable with MASTER_KEY', async () => {
    const before = await countMerchants();
    const run = await cli(['merchant', 'create', '--name', 'Acme', '--webhook-url', 'https://acme.example/hook']);
    assert.equal(run.code, 0, `exit code\nstderr: ${run.stderr}`);

    assert.ok(run.stdout.endsWith('\n'), 'the line is terminated');
    const lines = run.stdout.split('\n');
    assert.equal(lines.length, 2, `exactly one line on stdout, got: ${JSON.stringify(run.stdout)}`);
    assert.equal(lines[1], '');
    const printed = JSON.parse(lines[0]!);
    assert.equal(typeof printed, 'object');
    assert.ok(printed !== null && !Array.isArray(printed));
    assert.deepEqual(Object.keys(printed).sort(), [
      'apiKey',
      'encryptionKeyId',
      'merchantIdentifier',
      'publicKeyPem',
      'secretKey',
    ]);
    for (const value of Object.values(printed)) assert.equal(typeof value, 'string');
    assert.match(printed.merchantIdentifier, HEX32);
    assert.match(printed.secretKey, HEX32);
    assert.equal(createPublicKey(printed.publicKeyPem).asymmetricKeyDetails?.modulusLength, 2048);

    assert.equal(await countMerchants(), before + 1);
    const stored = await merchants.findById(printed.merchantIdentifier);
    assert.ok(stored, 'the printed merchant exists in the store');
    assert.equal(stored.name, 'Acme');
    assert.equal(stored.webhookUrl, 'https://acme.example/hook');
    // Decrypts with the MASTER_KEY from the environment (not a key generated into DATA_DIR).
    assert.equal(stored.secretKey, printed.secretKey);
    assert.deepEqual(stored.encryptionKeys, [{ keyId: printed.encryptionKeyId, publicKeyPem: printed.publicKeyPem }]);
    assert.ok(await merchants.privateKeyPem(printed.merchantIdentifier, printed.encryptionKeyId));
    const apiKeyHash = createHash('sha256').update(printed.apiKey).digest('hex');
    assert.equal((await merchants.findByApiKeyHash(apiKeyHash))?.merchantIdentifier, printed.merchantIdentifier);

    const raw = JSON.stringify(await store.db.collection('merchants').findOne({ _id: printed.merchantIdentifier as never }));
    assert.equal(raw.includes(printed.secretKey), false, 'secret key not stored in plaintext');
    assert.equal(raw.includes(printed.apiKey), false, 'API key not stored in plaintext');
  });

  it('merchant update changes settings and prints them; usage errors change nothing', async () => {
    const created = JSON.parse((await cli(['merchant', 'create', '--name', 'Upd'])).stdout);
    const run = await cli([
      'merchant',
      'update',
      created.merchantIdentifier,
      '--auto-refund',
      'true',
      '--webhook-format',
      'json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      merchantIdentifier: created.merchantIdentifier,
      name: 'Upd',
      webhookUrl: null,
      webhookFormat: 'json',
      autoRefund: true,
      defaultReturnUrl: null,
    });
    assert.equal((await merchants.findById(created.merchantIdentifier))?.autoRefund, true);
    const withReturn = await cli([
      'merchant',
      'update',
      created.merchantIdentifier,
      '--default-return-url',
      'https://upd.example/r',
    ]);
    assert.equal(JSON.parse(withReturn.stdout).defaultReturnUrl, 'https://upd.example/r', withReturn.stderr);
    const cleared = await cli(['merchant', 'update', created.merchantIdentifier, '--default-return-url', '']);
    assert.equal(JSON.parse(cleared.stdout).defaultReturnUrl, null, cleared.stderr);
    for (const args of [['--auto-refund', 'maybe'], ['--webhook-format', 'xml'], ['--default-return-url', 'ftp://x'], []]) {
      const bad = await cli(['merchant', 'update', created.merchantIdentifier, ...args]);
      assert.equal(bad.code, 2, bad.stderr);
      assert.equal(bad.stdout, '');
    }
    assert.equal((await merchants.findById(created.merchantIdentifier))?.webhookFormat, 'json');
  });

  it('merchant create imports a merchant with its own identifier and secret key; a taken identifier fails, storing nothing', async () => {
    const merchantIdentifier = `imported${Date.now()}`;
    const run = await cli([
      'merchant',
      'create',
      '--name',
      'Moved',
      '--merchant-identifier',
      merchantIdentifier,
      '--secret-key',
      'my-old-secret-key-0123',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout);
    assert.deepEqual([printed.merchantIdentifier, printed.secretKey], [merchantIdentifier, 'my-old-secret-key-0123']);
    assert.equal((await merchants.findById(merchantIdentifier))?.secretKey, 'my-old-secret-key-0123');
    const before = await countMerchants();
    const taken = await cli(['merchant', 'create', '--name', 'Again', '--merchant-identifier', merchantIdentifier]);
    assert.equal(taken.code, 1);
    assert.equal(taken.stdout, '');
    assert.match(taken.stderr, /taken/);
    assert.equal(await countMerchants(), before);
    assert.equal((await merchants.findById(merchantIdentifier))?.name, 'Moved');
    const bad = await cli(['merchant', 'create', '--name', 'Short', '--merchant-identifier', 'ab-1', '--secret-key', 'short']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--merchant-identifier: .*6 to 64[\s\S]*--secret-key: .*16 to 128/);
  });

  it('reconcile applies a file through the running gateway and prints the report', async () => {
    const gw = await sharedGateway();
    const m = await gw.newMerchant();
    const orderId = newOrderId('cli');
    const paid = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
    await paymentFinished(gw, m.merchantIdentifier, orderId);
    const file = path.join(dataDir, 'bank.csv');
    writeFileSync(file, `txnId,bankRefNum,status,amount\n${paid.json.data.txnId},CLI0001,SUCCESS,10000\nNOPE1,X,SUCCESS,1\n`);
    // The gateway's own key: the CLI's Temporal client reads and writes payloads through its codec.
    const run = await cli(['reconcile', file], {
      MASTER_KEY: gw.rt.config.MASTER_KEY,
      MONGODB_DB: gw.rt.config.MONGODB_DB,
      TEMPORAL_ADDRESS: (await testTemporal()).address,
      TEMPORAL_TASK_QUEUE: gw.rt.config.TEMPORAL_TASK_QUEUE,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      [report.state, report.rows, report.applied, report.unchanged, report.rejected],
      ['done', 2, 1, 0, [{ line: 3, reason: 'unknown txnId' }]],
    );
    assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.status, 'Success');
    const bad = await cli(['reconcile', path.join(dataDir, 'missing.csv')]);
    assert.equal(bad.code, 2);
  });

  describe('usage errors: exit code 2, nothing on stdout, a message on stderr, no merchant', () => {
    let countBefore: number;
    beforeEach(async () => {
      countBefore = await countMerchants();
    });
    afterEach(async () => {
      assert.equal(await countMerchants(), countBefore, 'no merchant may be created');
    });

    const expectUsageError = (run: CliRun, stderrPattern: RegExp) => {
      assert.equal(run.code, 2, `exit code\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
      assert.equal(run.stdout, '', 'nothing on stdout');
      assert.match(run.stderr, stderrPattern);
    };

    it('no arguments', async () => {
      expectUsageError(await cli([]), /usage: cli merchant create --name <name>/);
    });

    it('unknown command', async () => {
      expectUsageError(await cli(['merchant', 'delete', '--name', 'Acme']), /usage:/);
      expectUsageError(await cli(['shop', 'create', '--name', 'Acme']), /usage:/);
    });

    it('unknown option', async () => {
      expectUsageError(await cli(['merchant', 'create', '--name', 'Acme', '--nmae', 'Acme']), /nmae[\s\S]*usage:/);
    });

    it('missing --name', async () => {
      expectUsageError(await cli(['merchant', 'create', '--webhook-url', 'https://acme.example/hook']), /--name:/);
      expectUsageError(await cli(['merchant', 'create', '--name', '   ']), /--name:/);
    });

    it('bad --webhook-url', async () => {
      expectUsageError(await cli(['merchant', 'create', '--name', 'Acme', '--webhook-url', 'ftp://x']), /--webhook-url: .*http/);
      expectUsageError(await cli(['merchant', 'create', '--name', 'Acme', '--webhook-url', 'not a url']), /--webhook-url:/);
    });
  });
});
