// Mocha's spec reporter plus one plain closing line, "mocha: N passed, N failed[, N skipped]",
// which CI reads to know how many tests ran (mocha's own "N passing" is not a line it knows).
// `npm test` runs mocha twice (the whole suite, then the money suites against the bank simulator):
// with MOCHA_TOTALS_FILE set, each run adds its counts to that file and prints the running total,
// so the last line of `npm test` counts every test of both runs. The first run (MOCHA_TOTALS_MORE_TO_COME
// set) prints its line only when something failed: a passing `npm test` prints exactly one such
// line, its last, and CI never reads an intermediate total as the closing one. CI (.ci/run) runs
// `npm test` with MOCHA_TOTALS_MORE_TO_COME=1 (the variable reaches both runs), then the money
// model's exploration and the production stack's probes (`npm run test:production-stack`, also with MOCHA_TOTALS_MORE_TO_COME) and the
// cluster's (`npm run test:cluster`) with the same MOCHA_TOTALS_FILE: the cluster's line, the last
// of CI, totals all five runs.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Base, Spec } = require('mocha').reporters;

function addToTotals(file, counts) {
  let before = { passes: 0, failures: 0, pending: 0 };
  try {
    before = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // first run of this `npm test`: nothing counted yet
  }
  const total = {
    passes: before.passes + counts.passes,
    failures: before.failures + counts.failures,
    pending: before.pending + counts.pending,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(total));
  return total;
}

// CI prints the tests' standard error when a run fails, which buries mocha's list of failures; it
// prints this file after it, so the last thing a failed CI shows is which tests failed and why.
function recordFailures(failures) {
  const file = process.env.MOCHA_FAILURES_FILE;
  if (!file) return;
  const lines = failures.map((test, i) => {
    const err = test.err || {};
    const stack = String(err.stack || err.message || err)
      .split('\n')
      .slice(0, 12)
      .join('\n    ');
    return `${i + 1}) ${test.fullTitle()}\n    ${stack}`;
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${lines.join('\n\n')}\n`);
}

// `npm test` runs mocha in parallel workers, each writing one line per file it ran to
// MOCHA_FILE_TIMES_FILE (hooks.ts); its last run (MOCHA_PRINT_SLOWEST set) prints the ten slowest
// files of both runs, before the closing line.
function printSlowestFiles(file) {
  let lines = [];
  try {
    lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return;
  }
  const slowest = lines.sort((a, b) => b.ms - a.ms).slice(0, 10);
  if (slowest.length === 0) return;
  process.stdout.write(`the ${slowest.length} slowest test files (wall time, hooks included):\n`);
  for (const { file: f, ms } of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${f}\n`);
}

class SpecWithTotals extends Spec {
  // Mocha's own summary ("N passing (20m)", "N pending", "N failing") is left out: the closing line
  // says it for both runs, and it is the one line of its kind. Failures are still listed in full.
  epilogue() {
    if (this.stats.failures) {
      Base.consoleLog();
      Base.list(this.failures);
      recordFailures(this.failures);
    }
    Base.consoleLog();
  }

  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const own = { passes: this.stats.passes, failures: this.stats.failures, pending: this.stats.pending };
      const file = process.env.MOCHA_TOTALS_FILE;
      const { passes, failures, pending } = file ? addToTotals(file, own) : own;
      if (process.env.MOCHA_PRINT_SLOWEST && process.env.MOCHA_FILE_TIMES_FILE)
        printSlowestFiles(process.env.MOCHA_FILE_TIMES_FILE);
      if (process.env.MOCHA_TOTALS_MORE_TO_COME && !failures) return;
      const skipped = pending ? `, ${pending} skipped` : '';
      process.stdout.write(`mocha: ${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}

module.exports = SpecWithTotals;
