// Mocha's spec reporter plus one plain closing line, "mocha: N passed, N failed[, N skipped]",
// which CI reads to know how many tests ran (mocha's own "N passing" is not a line it knows).
'use strict';
const { Spec } = require('mocha').reporters;

class SpecWithTotals extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = this.stats;
      const skipped = pending ? `, ${pending} skipped` : '';
      process.stdout.write(`mocha: ${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}

module.exports = SpecWithTotals;
