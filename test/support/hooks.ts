import { loadedSupport } from './loaded-support';

/**
 * Root hooks: after the whole run (the API suites included), no workflow the run started on the
 * dev server may be left failing its tasks; then stop every gateway and server the tests started.
 * The server support is required here only if a test loaded it first (loaded-support.ts), so a unit
 * run starts and loads no server. (require, not import(): mocha loads this file as CommonJS through
 * tsx/cjs, and a dynamic import() would bypass it.)
 */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    // gateway.ts imports servers.ts, so no server was started without it.
    if (!loadedSupport.servers) return;
    this.timeout(60_000);
    const servers: typeof import('./servers') = require('./servers');
    try {
      // Against the simulator (GATEWAY_TEST_BANK=simulator): show that the money really crossed the network.
      const bank = await servers.bankSimulatorIfStarted();
      if (bank) console.error(`  bank simulator's books: ${JSON.stringify(bank.books.snapshot().totals)}`);
      const temporal = servers.testTemporalStarted;
      if (temporal) {
        const problems: typeof import('./problems') = require('./problems');
        await problems.assertNoReportedProblems(temporal.address, temporal.since);
      }
    } finally {
      if (loadedSupport.gateway) {
        const gateway: typeof import('./gateway') = require('./gateway');
        await gateway.stopGateways();
      }
      await servers.stopTestServers();
    }
  },
};
