import { stopGateways } from './gateway';
import { assertNoReportedProblems } from './problems';
import { bankSimulatorIfStarted, stopTestServers, testTemporalStarted } from './servers';

/**
 * Root hooks: after the whole run (the API suites included), no workflow the run started on the
 * dev server may be left failing its tasks; then stop every gateway and server the tests started.
 */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    try {
      // Against the simulator (GATEWAY_TEST_BANK=simulator): show that the money really crossed the network.
      const bank = await bankSimulatorIfStarted();
      if (bank) console.log(`  bank simulator's books: ${JSON.stringify(bank.books.snapshot().totals)}`);
      if (testTemporalStarted) await assertNoReportedProblems(testTemporalStarted.address, testTemporalStarted.since);
    } finally {
      await stopGateways();
      await stopTestServers();
    }
  },
};
