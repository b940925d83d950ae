import { strict as assert } from 'node:assert';
import {
  DASHBOARD_ROLES,
  EMAIL_PATTERN,
  isDashboardRole,
  mayDo,
  normalEmail,
  type DashboardPermission,
} from '../../src/domain/dashboard-roles';

const PERMISSIONS: DashboardPermission[] = ['users', 'keys', 'webhooks', 'payments', 'settlementAccount'];

describe('dashboard roles (domain)', () => {
  it('owner may do everything, developer keys and webhooks only, viewer nothing', () => {
    const granted = Object.fromEntries(DASHBOARD_ROLES.map((r) => [r, PERMISSIONS.filter((p) => mayDo(r, p))]));
    assert.deepEqual(granted, {
      owner: ['users', 'keys', 'webhooks', 'payments', 'settlementAccount'],
      developer: ['keys', 'webhooks'],
      viewer: [],
    });
  });

  it('knows the three roles and nothing else', () => {
    for (const r of DASHBOARD_ROLES) assert.equal(isDashboardRole(r), true);
    for (const v of ['Owner', 'admin', '', undefined, null, 1, ['owner']]) assert.equal(isDashboardRole(v), false, String(v));
  });

  it('compares emails trimmed and lower-cased', () => {
    assert.equal(normalEmail('  Asha.Rao@Example.IN \n'), 'asha.rao@example.in');
  });

  it('takes printable ASCII addresses with one @ and a dotted domain', () => {
    for (const ok of ['a@b.co', 'asha.rao+dash@example.co.in', "o'neil@example.com"]) assert.match(ok, EMAIL_PATTERN);
    for (const bad of ['a@b', '@b.co', 'a@@b.co', 'a b@c.co', 'आशा@example.in', 'a@b.c', `${'x'.repeat(65)}@b.co`])
      assert.doesNotMatch(bad, EMAIL_PATTERN, bad);
  });
});
