import { strict as assert } from 'node:assert';
import { hashPassword } from '../../src/domain/password';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { DASHBOARD_PASSWORD, FormClient, dashboardUser, newEmail } from '../support/dashboard';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * Dashboard sign-in against guessing: every attempt is counted in the store before its scrypt
 * runs, so concurrent guesses never pass the per-account limit; and a hash made at an older cost
 * is rehashed at today's on the next sign-in.
 */
describe('Dashboard sign-in: the throttle counts before scrypt, old hashes rehashed', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => {
    gw = await startTestGateway({ DASHBOARD_SIGN_IN_FAILURES_PER_ACCOUNT: '5' });
    merchant = await gw.newMerchant('Sign-in Merchant');
  });

  it('twenty concurrent wrong guesses and then the right password: five are checked (401), the rest and the right one are 429', async () => {
    const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
    const clients = await Promise.all(
      Array.from({ length: 21 }, async () => {
        const c = new FormClient(gw.baseUrl);
        return { c, csrf: await c.csrfOf('/dashboard/sign-in') };
      }),
    );
    // Sent together: the right password last, while the guesses' scrypt still runs. Counted only
    // after scrypt, every one of them would pass the check and the right one would sign in.
    const answers = await Promise.all(
      clients.map(({ c, csrf }, i) =>
        c.send('/dashboard/sign-in', {
          form: { csrf, email, password: i === 20 ? DASHBOARD_PASSWORD : `wrong guess ${i}`, next: '/dashboard' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 16, statuses.join(','));
    assert.equal(statuses[20], 429, 'the right password waits like any other attempt');
    assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 429);
  });

  it('a right password is not counted: six good sign-ins in a row all pass', async () => {
    const { email } = await dashboardUser(gw, merchant.merchantIdentifier);
    for (let i = 0; i < 6; i++) assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 303, `sign-in ${i + 2}`);
  });

  it('a hash of an older, lower cost is rehashed at the configured cost when its user signs in', async () => {
    const email = newEmail('old-hash');
    const old = await hashPassword(DASHBOARD_PASSWORD, 10);
    assert.match(old, /^scrypt\$1024\$8\$1\$/);
    await gw.rt.store.db.collection('dashboard_users').insertOne({
      _id: email as never,
      merchantIdentifier: merchant.merchantIdentifier,
      role: 'owner',
      passwordHash: old,
      createdAt: gw.rt.now(),
    });
    const users = gw.rt.store.db.collection<{ _id: string; passwordHash: string }>('dashboard_users');
    assert.equal((await new FormClient(gw.baseUrl).signIn(email, 'not the password at all')).status, 401);
    assert.equal((await users.findOne({ _id: email }))!.passwordHash, old, 'a wrong password rehashes nothing');
    assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 303);
    const rehashed = (await users.findOne({ _id: email }))!.passwordHash;
    assert.match(rehashed, new RegExp(`^scrypt\\$${2 ** gw.rt.config.dashboard.passwordCost}\\$8\\$1\\$`));
    assert.equal((await new FormClient(gw.baseUrl).signIn(email)).status, 303, 'the new hash verifies');
  });
});
