import { strict as assert } from 'node:assert';
import { loadConfig } from '../../src/config';
import {
  CONCURRENT_DERIVATIONS,
  PASSWORD_COST_GUIDANCE,
  PasswordWorkBusy,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../src/domain/password';

describe('dashboard passwords: scrypt at the guidance cost, bounded work', function () {
  this.timeout(60_000);

  it('hashes at N = 2^17, r 8, p 1 by default (OWASP), and staging and production accept no less', async () => {
    assert.equal(PASSWORD_COST_GUIDANCE, 17);
    assert.equal(
      loadConfig({ GATEWAY_ENV: 'development', MASTER_KEY: 'a'.repeat(64), OPS_TOKEN: 'b'.repeat(24) }).dashboard.passwordCost,
      17,
    );
    const hash = await hashPassword('correct horse battery staple', 17);
    assert.match(hash, /^scrypt\$131072\$8\$1\$/);
    assert.equal(await verifyPassword('correct horse battery staple', hash), true);
    assert.equal(await verifyPassword('correct horse battery stapl', hash), false);
    assert.throws(
      () => loadConfig({ GATEWAY_ENV: 'production', DASHBOARD_PASSWORD_COST: '16' }),
      /DASHBOARD_PASSWORD_COST: at least 17 in production/,
    );
  });

  it('an older hash needs rehashing; one at the cost does not', async () => {
    assert.equal(needsRehash(await hashPassword('p'.repeat(12), 10), 14), true);
    assert.equal(needsRehash(await hashPassword('p'.repeat(12), 14), 14), false);
    assert.equal(needsRehash('scrypt$16384$8$1$c2FsdA$aGFzaA', 14), true, 'a short key');
  });

  it('at most CONCURRENT_DERIVATIONS run at once and 32 wait; more is refused at once', async () => {
    const attempts = Array.from({ length: CONCURRENT_DERIVATIONS + 32 + 5 }, () =>
      hashPassword('p'.repeat(12), 10).then(
        () => 'done',
        (e: unknown) => (e instanceof PasswordWorkBusy ? 'busy' : 'error'),
      ),
    );
    const outcomes = await Promise.all(attempts);
    assert.equal(outcomes.filter((o) => o === 'busy').length, 5);
    assert.equal(outcomes.filter((o) => o === 'done').length, CONCURRENT_DERIVATIONS + 32);
    assert.equal(await verifyPassword('x', await hashPassword('x', 10)), true, 'the slots are free again');
  });
});
