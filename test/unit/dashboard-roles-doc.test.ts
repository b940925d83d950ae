import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { DASHBOARD_DOC, withRoleTable } from '../../src/api/dashboard/roles-reference';
import { DASHBOARD_PERMISSIONS, DASHBOARD_ROLES, mayDo, type DashboardPermission } from '../../src/domain/dashboard-roles';

describe("The dashboard's role table (docs/merchants/dashboard.md)", () => {
  const doc = readFileSync(DASHBOARD_DOC, 'utf8');

  it('is the one rendered from the permission table in the code (npm run -s docs:dashboard rewrites it)', () => {
    assert.equal(doc, withRoleTable(doc), 'docs/merchants/dashboard.md differs: run npm run -s docs:dashboard');
  });

  it('says, for every permission, exactly which roles hold it', () => {
    for (const p of Object.keys(DASHBOARD_PERMISSIONS) as DashboardPermission[]) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${p}\` |`));
      assert.ok(row, `a row for ${p}`);
      const cells = row
        .split('|')
        .slice(3, -1)
        .map((c) => c.trim());
      assert.deepEqual(
        cells,
        DASHBOARD_ROLES.map((r) => (mayDo(r, p) ? 'yes' : '—')),
        p,
      );
    }
  });

  it('keeps the secrets to the roles that need them: the secret key to owners, the signing secret to owners and developers', () => {
    assert.deepEqual(
      DASHBOARD_ROLES.filter((r) => mayDo(r, 'credentials')),
      ['owner'],
    );
    assert.deepEqual(
      DASHBOARD_ROLES.filter((r) => mayDo(r, 'signingSecret')),
      ['owner', 'developer'],
    );
    assert.deepEqual(
      DASHBOARD_ROLES.filter((r) => mayDo(r, 'audit')),
      ['owner'],
    );
    assert.ok(
      !(Object.keys(DASHBOARD_PERMISSIONS) as DashboardPermission[]).some((p) => mayDo('viewer', p)),
      'a viewer changes nothing',
    );
  });
});
