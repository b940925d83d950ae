import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { cliEnvFor, GATEWAY_MODES, runCli, SPAWN_TIMEOUT_MS, type GatewayMode } from '../support/cli';
import type { TestGateway } from '../support/gateway';

for (const mode of GATEWAY_MODES) describeKeyCommandsAgainst(mode);

/** The CLI's key and invitation commands, calling the ops API of a gateway in each mode. */
function describeKeyCommandsAgainst(mode: GatewayMode) {
  describe(`Operator CLI: keys and dashboard invitations against a gateway in ${mode.name} mode`, function () {
    this.timeout(8 * SPAWN_TIMEOUT_MS);
    let gw: TestGateway;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      gw = await mode.start({ PUBLIC_BASE_URL: 'https://pay.example.in' });
      env = cliEnvFor(gw);
    });
    after(async () => {
      await gw?.stop();
      if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
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
      const stored = (await gw.rt.merchants.findById(mid))!;
      assert.equal(stored.secretKey, rotated.secretKey);
      assert.deepEqual(
        stored.previousSecretKeys.map((p) => p.secretKey),
        [m.secretKey],
      );

      const revokedPrevious = await json(
        'keys',
        'revoke-previous-secret',
        mid,
        '--accepted-until',
        rotated.previousKeyAcceptedUntil,
      );
      assert.ok(revokedPrevious.previousKeyRevokedAt);
      assert.deepEqual((await gw.rt.merchants.findById(mid))!.previousSecretKeys, []);
      const stale = await cli('keys', 'revoke-previous-secret', mid, '--accepted-until', rotated.previousKeyAcceptedUntil);
      assert.equal(stale.code, 1);
      assert.match(stale.stderr, /^error 2048: /);
      assert.equal((await cli('keys', 'revoke-previous-secret', mid)).code, 2, '--accepted-until is required');

      const rsa = await json('keys', 'rotate-rsa', mid);
      assert.equal(rsa.encryptionKeys.length, 2);
      assert.deepEqual(await json('keys', 'list-rsa', mid), rsa);
      const retired = await json('keys', 'retire-rsa', mid, m.encryptionKeyId);
      assert.equal(retired.encryptionKeys.length, 1);
      const newest = await cli('keys', 'retire-rsa', mid, retired.encryptionKeys[0].encryptionKeyId);
      assert.equal(newest.code, 1);
      assert.match(newest.stderr, /^error 2002: .*rotate first/);

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
}
