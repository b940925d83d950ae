import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configSchema } from '../../src/config-schema';

const root = path.resolve(__dirname, '../..');
const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

/** A variable that holds a credential, by its name: a secret, a token, a key (or its file), a password. */
const CREDENTIAL = /(?:SECRET|TOKEN|_KEY|_KEYS|PASSWORD|_KEY_FILE)$/;

/** The rows of docs/operators/production.md's "Every credential" table. */
function credentialTable(): string {
  const doc = read('docs/operators/production.md');
  const start = doc.indexOf('### Every credential');
  assert.ok(start >= 0, 'production.md has an "Every credential" section');
  const rest = doc.slice(start);
  const end = rest.search(/\n#{2,3} /);
  return rest
    .slice(0, end)
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .join('\n');
}

/** Whether the table names `name`: in backticks as it is, or under a `PREFIX_*` it shows. */
function named(table: string, name: string): boolean {
  const codes = [...table.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return codes.some((c) => c === name || (c.endsWith('*') && name.startsWith(c.slice(0, -1))));
}

describe("docs/operators/production.md's credential table", () => {
  const table = credentialTable();

  it("names every credential of the gateway's configuration", () => {
    const names = Object.keys(configSchema.shape).filter((k) => CREDENTIAL.test(k));
    assert.ok(names.includes('OPS_TOKEN') && names.includes('MASTER_KEY'), names.join(', '));
    assert.deepEqual(
      names.filter((n) => !named(table, n)),
      [],
    );
  });

  it('names every credential the compose files take from the environment', () => {
    const names = new Set<string>();
    for (const f of ['docker-compose.yml', 'docker-compose.sandbox.yml'])
      for (const [, n] of read(f).matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) if (CREDENTIAL.test(n!)) names.add(n!);
    assert.ok(names.has('CODEC_TOKEN') && names.has('POSTGRES_PASSWORD'), [...names].join(', '));
    assert.deepEqual(
      [...names].filter((n) => !named(table, n)),
      [],
    );
  });

  it('says for each credential what it can do and where it lives', () => {
    const rows = table.split('\n').slice(2);
    assert.ok(rows.length >= 10);
    for (const row of rows) {
      const cells = row.split('|').slice(1, -1);
      assert.equal(cells.length, 3, row);
      for (const c of cells) assert.ok(c.trim().length > 0, row);
    }
  });
});
