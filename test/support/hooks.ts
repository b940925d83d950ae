import { stopGateways } from './gateway';
import { stopTestServers } from './servers';

/** Root hooks: after the whole run, stop every gateway and server the tests started. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopGateways();
    await stopTestServers();
  },
};
