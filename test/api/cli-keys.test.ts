import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { runCli, SPAWN_TIMEOUT_MS } from '../support/cli';
import { testStore } from '../support/servers';

const MASTER_KEY = '7a1c2e9a7b3d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a';

/** The CLI's key and invitation commands (child processes against the test store), the ops API's use cases. */
describe('Operator CLI: keys and dashboard invitations (child process)', function () {
  this.timeout(8 * SPAWN_TIMEOUT_MS);
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  before(async () => {
    const { uri, dbName } = await testStore();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-keys-'));
    env = {
      ...process.env,
      MONGODB_URI: uri,
      MONGODB_DB: dbName,
      MASTER_KEY,
      OPS_TOKEN: 'cli-keys-test-operator-token-0123',
      GATEWAY_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: 'https://pay.example.in',
    };
    store = await connectStore(uri, dbName);
  });
  after(async () => {
    await store?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(args, env);
  const json = async (...args: string[]) => {
    const run = await cli(...args);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };

  it('creates, lists and revokes API keys, rotates the secret and RSA keys, and invites an owner', async () => {
    const m = await json('merchant', 'create', '--name', 'Keys by CLI');
    const mid = m.merchantIdentifier as string;
    const created = await json('keys', 'create', mid, '--label', 'reports');
    assert.match(created.apiKey, /^mgw_/);
    const listed = await json('keys', 'list', mid);
    assert.deepEqual(
      listed.apiKeys.map((k: { label: string }) => k.label),
      ['Initial key', 'reports'],
    );
    const revoked = await json('keys', 'revoke', mid, created.keyId);
    assert.ok(revoked.revokedAt);

    const rotated = await json('keys', 'rotate-secret', mid, '--overlap', '1h');
    const merchants = new MerchantRepository(store.db, MASTER_KEY);
    const stored = (await merchants.findById(mid))!;
    assert.equal(stored.secretKey, rotated.secretKey);
    assert.deepEqual(
      stored.previousSecretKeys.map((p) => p.secretKey),
      [m.secretKey],
    );

    const rsa = await json('keys', 'rotate-rsa', mid);
    assert.equal(rsa.encryptionKeys.length, 2);
    const retired = await json('keys', 'retire-rsa', mid, m.encryptionKeyId);
    assert.equal(retired.encryptionKeys.length, 1);

    const invitation = await json('merchant', 'invite', mid, '--email', 'Owner@Keys.Example');
    assert.match(invitation.invitationUrl, /^https:\/\/pay\.example\.in\/dashboard\/invitations\/[A-Za-z0-9_-]{43}$/);
    assert.equal(invitation.email, 'owner@keys.example');
    assert.equal(invitation.role, 'owner');
  });

  it('usage errors exit 2 and change nothing; unknown merchants and keys exit 1', async () => {
    const m = await json('merchant', 'create', '--name', 'Keys usage');
    for (const args of [
      ['keys', 'create', m.merchantIdentifier],
      ['keys', 'revoke', m.merchantIdentifier],
      ['keys', 'rotate-secret', m.merchantIdentifier, '--overlap', 'soon'],
      ['merchant', 'invite', m.merchantIdentifier, '--email', 'not-an-email'],
      ['merchant', 'invite', m.merchantIdentifier, '--email', 'a@b.example', '--role', 'admin'],
    ]) {
      const run = await cli(...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    }
    assert.equal((await cli('keys', 'revoke', m.merchantIdentifier, 'ak_0000000000000000')).code, 1);
    assert.equal((await cli('keys', 'list', 'ffffffffffffffffffffffffffffffff')).code, 1);
    assert.equal((await json('keys', 'list', m.merchantIdentifier)).apiKeys.length, 1);
  });
});
