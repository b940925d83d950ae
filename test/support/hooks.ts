import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadedSupport } from './loaded-support';

/**
 * Root hooks. Mocha runs them around the whole run in serial mode (`npx mocha <file>`) and around
 * each file in a parallel worker (`npm test`: `mocha --parallel`, MOCHA_WORKER_ID set).
 *
 * After the run (serial) or each file (parallel): no workflow started on this process's test dev
 * server may be left failing its tasks; the gateways the tests left running stop. Serial: then the
 * servers stop. Parallel: a worker keeps its servers for its next file (started once per worker,
 * on free ports in temporary folders) and they die with it (servers.ts), and each file's wall time
 * goes to MOCHA_FILE_TIMES_FILE, which the reporter reads to print the slowest files.
 *
 * The server support is required only if a test loaded it first (loaded-support.ts), so a unit run
 * starts and loads no server. (require, not import(): mocha loads this file as CommonJS through
 * tsx/cjs, and a dynamic import() would bypass it.)
 */
const inParallelWorker = process.env.MOCHA_WORKER_ID !== undefined;
let fileStarted = 0;

export const mochaHooks = {
  beforeAll() {
    fileStarted = performance.now();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    try {
      if (loadedSupport.servers) await afterServerTests();
    } finally {
      if (inParallelWorker) recordFileTime(this);
    }
  },
};

async function afterServerTests(): Promise<void> {
  // gateway.ts imports servers.ts, so no server was started without it.
  const servers: typeof import('./servers') = require('./servers');
  try {
    // Against the simulator (GATEWAY_TEST_BANK=simulator): show that the money really crossed the network.
    const bank = await servers.bankSimulatorIfStarted();
    if (bank) console.error(`  bank simulator's books: ${JSON.stringify(bank.books.snapshot().totals)}`);
    const temporal = servers.testTemporalStarted;
    if (temporal) {
      const problems: typeof import('./problems') = require('./problems');
      await problems.assertNoNewReportedProblems(temporal.address, temporal.since);
    }
  } finally {
    if (loadedSupport.gateway) {
      const gateway: typeof import('./gateway') = require('./gateway');
      await gateway.stopGateways({ keepShared: inParallelWorker });
    }
    if (!inParallelWorker) await servers.stopTestServers();
  }
}

/** One line per file: `{ file, ms }` (the file relative to the project). */
function recordFileTime(ctx: Mocha.Context): void {
  const out = process.env.MOCHA_FILE_TIMES_FILE;
  const file = ctx.test?.parent?.suites.find((s) => s.file)?.file;
  if (!out || !file) return;
  mkdirSync(path.dirname(out), { recursive: true });
  const line = { file: path.relative(process.cwd(), file), ms: Math.round(performance.now() - fileStarted) };
  appendFileSync(out, `${JSON.stringify(line)}\n`);
}
