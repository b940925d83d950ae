import { strict as assert } from 'node:assert';
import { DASHBOARD_PASSWORD, dashboardUser } from '../support/dashboard';
import { sharedGateway, type TestGateway } from '../support/gateway';

/** A stolen owner session alone cannot add an owner, change a role nor remove an owner: each asks the password again. */
describe("Dashboard users: inviting an owner and changing a role need the owner's password", function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await sharedGateway();
  });
  const users = () => gw.rt.store.db.collection<{ _id: string; role: string }>('dashboard_users');
  const invitations = () => gw.rt.store.db.collection('dashboard_invitations');
  const roleOf = async (email: string) => (await users().findOne({ _id: email }))?.role;

  it('without the password or with a wrong one nothing changes; with it the change is made', async () => {
    const m = await gw.newMerchant('Guarded Users');
    const owner = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const other = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const rolePath = `/dashboard/users/${encodeURIComponent(other.email)}/role`;

    const noPassword = await owner.client.post(rolePath, { role: 'viewer' });
    assert.equal(noPassword.status, 400, noPassword.text);
    assert.match(noPassword.text, /Enter your password to change a role/);
    const wrong = await owner.client.post(rolePath, { role: 'viewer', password: 'not the password' });
    assert.equal(wrong.status, 403);
    assert.match(wrong.text, /Wrong password: nothing was changed/);
    assert.equal(await roleOf(other.email), 'owner', 'the other owner is not demoted');

    const before = await invitations().countDocuments({ merchantIdentifier: m.merchantIdentifier });
    const email = `new-owner-${Date.now()}@example.com`;
    const inviting = await owner.client.post('/dashboard/users/invitations', { email, role: 'owner' });
    assert.equal(inviting.status, 400, inviting.text);
    const wrongInvite = await owner.client.post('/dashboard/users/invitations', { email, role: 'owner', password: 'nope' });
    assert.equal(wrongInvite.status, 403);
    assert.equal(await invitations().countDocuments({ merchantIdentifier: m.merchantIdentifier }), before, 'no invitation');

    // A viewer or developer invitation needs no password; an owner's does, and passes with it.
    const viewer = await owner.client.post('/dashboard/users/invitations', { email: `v-${email}`, role: 'viewer' });
    assert.equal(viewer.status, 201, viewer.text);
    const invited = await owner.client.post('/dashboard/users/invitations', {
      email,
      role: 'owner',
      password: DASHBOARD_PASSWORD,
    });
    assert.equal(invited.status, 201, invited.text);
    const changed = await owner.client.post(rolePath, { role: 'viewer', password: DASHBOARD_PASSWORD });
    assert.equal(changed.status, 303, changed.text);
    assert.equal(await roleOf(other.email), 'viewer');
  });

  it('removing an owner asks the password (a stolen session cannot lock the other owners out); removing a developer does not', async () => {
    const m = await gw.newMerchant('Guarded Owners');
    const owner = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const other = await dashboardUser(gw, m.merchantIdentifier, 'owner');
    const dev = await dashboardUser(gw, m.merchantIdentifier, 'developer');
    const removePath = (email: string) => `/dashboard/users/${encodeURIComponent(email)}/remove`;

    const page = await owner.client.send('/dashboard/users');
    assert.match(page.text, new RegExp(`action="${removePath(other.email).replace(/[.%]/g, '\\$&')}">[^]*?name="password"`));
    const noPassword = await owner.client.post(removePath(other.email), {});
    assert.equal(noPassword.status, 400, noPassword.text);
    assert.match(noPassword.text, /Enter your password to remove an owner/);
    const wrong = await owner.client.post(removePath(other.email), { password: 'not the password' });
    assert.equal(wrong.status, 403);
    assert.equal(await roleOf(other.email), 'owner', 'the other owner stays');
    assert.equal((await other.client.send('/dashboard')).status, 200, 'and stays signed in');

    assert.equal((await owner.client.post(removePath(dev.email), {})).status, 303, 'a developer: no password');
    assert.equal(await roleOf(dev.email), undefined);
    const removed = await owner.client.post(removePath(other.email), { password: DASHBOARD_PASSWORD });
    assert.equal(removed.status, 303, removed.text);
    assert.equal(await roleOf(other.email), undefined);
  });
});
