import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configKeys } from '../../src/config';

const doc = readFileSync(path.join(__dirname, '../../docs/operators/configuration.md'), 'utf8');

/** The variables a row of the configuration table names in its first column (`A`, `B` | ...). */
function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstColumn = line.split('|')[1] ?? '';
    for (const m of firstColumn.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

describe("docs/operators/configuration.md's table", () => {
  it('names every variable of the configuration schema', () => {
    const documented = documentedVariables(doc);
    assert.ok(documented.size > 50, `the table was read (${documented.size} variables)`);
    const missing = configKeys.filter((k) => !documented.has(k));
    assert.deepEqual(missing, [], `add a row to docs/operators/configuration.md for ${missing.join(', ')}`);
  });

  it('names no variable the schema does not read', () => {
    const unknown = [...documentedVariables(doc)].filter((k) => !(configKeys as string[]).includes(k));
    assert.deepEqual(unknown, []);
  });

  it('reads a variable out of a row that names several', () => {
    const names = documentedVariables('| `A_B`, `C` | 1 | x |\n| not a row `D` |\n');
    assert.deepEqual([...names], ['A_B', 'C']);
  });
});
