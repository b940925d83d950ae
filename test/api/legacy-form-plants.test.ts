import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The attacker property (legacy-form-property.test.ts) would find the ways a signed legacy form
 * was turned into money: each old bug is put back in a child mocha
 * (test/support/legacy-form-plants.cjs, LEGACY_FORM_PLANT) and the property, at a random seed, must
 * fail naming what the payer got. The unplanted run is the property's own file in the suite.
 *
 * A planted child runs up to PLANTED_RUNS, as `npm run fuzz` does, not the suite's 300: it stops at
 * its first finding, so the bound costs nothing when the plant is found, and at 300 a random seed
 * missed the `names` refund now and then (docs/contributors/tests.md has the measured rates).
 */
const PLANTED_RUNS = '1000';
const ROOT = path.join(__dirname, '..', '..');

interface Run {
  code: number | null;
  output: string;
}

function plantedProperty(plant: string, grep: string): Promise<Run> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('MOCHA_') && k !== 'FC_SEED' && k !== 'FC_RUNS'),
  );
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
      '--require',
      'test/support/legacy-form-plants.cjs',
      '--grep',
      grep,
      'test/api/legacy-form-property.test.ts',
    ],
    // Ended before this test's own timeout, so a hung child never outlives the suite.
    {
      cwd: ROOT,
      env: { ...env, LEGACY_FORM_PLANT: plant, FC_RUNS: PLANTED_RUNS },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 280_000,
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/**
 * The property's findings at /transact: a page for something the merchant did not sign, named (the
 * amount may be any value a re-split puts there, not only the typed 900), or a page from a kit's
 * signed status or update form (never a checkout form). A page at an address that opens none, or a
 * mandate, is left out: the plants touch only the forms' reading and checksums, so neither could be
 * the plant's finding.
 */
const PAGE_NOT_SIGNED =
  /^a page (for (Rs [\d.]+ where the merchant signed Rs [\d.]+|another order|another returnUrl|(currency|mode|txnType) "[^"]*" where the merchant signed "[^"]*")|from a signed [\w.-]+ (status|update) form)/;

/** The property's finding: fast-check's failure and the assertion it ended on. */
const failures = (output: string) =>
  [...output.matchAll(/Caused by: AssertionError \[ERR_ASSERTION\]: ([^\n]*)/g)].map((m) => m[1]!);

describe('Legacy forms: the attacker property finds the old bugs put back', function () {
  this.timeout(300_000);

  it('names read freely at /updatetransaction and /checktransaction: the property finds a refund and a status read', async () => {
    const run = await plantedProperty('names', 'no refund|a status read only');
    assert.match(run.output, /legacy-form-plants: planted names/, 'the plant was loaded');
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /Property failed after \d+ tests/, run.output);
    const found = failures(run.output);
    assert.equal(found.length, 2, run.output);
    assert.match(found[0]!, /^a refund/, run.output);
    assert.match(found[1]!, /^a status read of /, run.output);
  });

  it('raw checksums counted with a single quote in a value: the property finds a page for Rs 9 of a form signed for Rs 5,00,000', async () => {
    const run = await plantedProperty('quotes', 'a page only for what the merchant signed');
    assert.match(run.output, /legacy-form-plants: planted quotes/, 'the plant was loaded');
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /Property failed after \d+ tests/, run.output);
    const found = failures(run.output);
    assert.equal(found.length, 1, run.output);
    // Its shift reaches the amount (typed 900, or another value a re-split puts there), the order on
    // the kits posting orderId after the payer's fields, WordPress's late returnUrl, or the mode or
    // txnType after the buyer's fields.
    assert.match(found[0]!, PAGE_NOT_SIGNED, run.output);
  });

  it('any names read at /transact: the property finds a page for what the merchant did not sign', async () => {
    const run = await plantedProperty('transact-names', 'a page only for what the merchant signed');
    assert.match(run.output, /legacy-form-plants: planted transact-names/, 'the plant was loaded');
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /Property failed after \d+ tests/, run.output);
    const found = failures(run.output);
    assert.equal(found.length, 1, run.output);
    // A typed 900 renamed amount, another order's id renamed orderId, a typed returnUrl, mode or
    // txnType, or a status or update form's values read as an order.
    assert.match(found[0]!, PAGE_NOT_SIGNED, run.output);
  });
});
