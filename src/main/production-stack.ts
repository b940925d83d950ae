/**
 * `npm run stack:production`: the production topology of docker-compose.yml on this machine,
 * without Docker (src/devstack/production/stack.ts): Caddy terminating TLS on the one public port,
 * two API replicas and two workers with GATEWAY_ENV=production (deploy/production.env), the
 * Temporal server built from go.temporal.io/server on PostgreSQL with mTLS, the store with
 * authentication, and as the bank an acquirer double: the bank simulator (loopback only, its own
 * secret and admin token) behind a second, loopback-only Caddy that serves it over TLS without its
 * X-Bank-Simulator marker (docs/operators/production.md says why). Prints where everything is;
 * Ctrl-C stops it all.
 *
 *   npm run stack:production [-- --data-dir .data/production-stack]
 *
 * `npm run stack:cluster` (`--cluster`) runs the same with the Temporal server as a cluster:
 * frontend, matching, Temporal's worker and two history hosts as separate processes, 16 history
 * shards, in its own data directory (.data/cluster-stack: the shard count is fixed at creation).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SetupError } from '../devstack/install';
import { startProductionStack } from '../devstack/production/stack';
import { onShutdown } from './shutdown';

const say = (line: string) => console.log(`[stack] ${line}`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      cluster: { type: 'boolean', default: false },
      // For npm run test:production-stack: its webhook receiver listens on loopback.
      'allow-loopback-webhooks': { type: 'boolean', default: false },
      // For npm run test:production-stack: its mandate probe moves the API replicas' clock.
      'movable-clock': { type: 'boolean', default: false },
      // For npm run test:production-stack: its final check sees an abandoned checkout expire within the run.
      'checkout-expiry-seconds': { type: 'string' },
    },
  });
  const stack = await startProductionStack({
    dataDir: values['data-dir'] ?? path.join('.data', values.cluster ? 'cluster-stack' : 'production-stack'),
    cluster: values.cluster,
    log: say,
    allowLoopbackWebhooks: values['allow-loopback-webhooks'],
    movableClock: values['movable-clock'],
    checkoutExpirySeconds: values['checkout-expiry-seconds'],
  });
  onShutdown(async () => {
    await stack.stop();
    say('stopped');
  });
  const s = stack.state();
  const p = s.ports;
  say('');
  say(`public:   ${s.publicUrl}  (Caddy, TLS; http://localhost:${p.http} redirects there)`);
  say(
    `          trust ${path.relative(process.cwd(), s.caddyRootCertificate)} (curl --cacert), e.g. curl --cacert ${path.relative(process.cwd(), s.caddyRootCertificate)} ${s.publicUrl}/health`,
  );
  say('profile:  production (GATEWAY_ENV=production): the bank is the acquirer double (the simulator behind TLS, unmarked)');
  say('loopback only:');
  say(`  API replicas       ${p.api.map((x) => `127.0.0.1:${x}`).join(', ')}`);
  say(
    `  operator API       ${p.ops.map((x) => `http://127.0.0.1:${x}`).join(', ')} (/ops/v1 and /metrics; GATEWAY_URL for the CLI, OPS_TOKEN or the CODEC_TOKEN/METRICS_TOKEN of secrets.json)`,
  );
  say(`  workers            2 (task queue payments)`);
  say(
    `  Temporal frontend  127.0.0.1:${p.temporal.frontend} (mTLS: certificates in ${path.relative(process.cwd(), path.join(s.dataDir, 'temporal-tls'))})`,
  );
  say(`  PostgreSQL         127.0.0.1:${p.postgresql}`);
  say(`  store (FerretDB)   127.0.0.1:${p.store} (user gateway)`);
  say(`  acquirer double    https://127.0.0.1:${p.acquirer} (BANK_BASE_URL: the simulator's /v1 and /pages only)`);
  say(
    `  bank simulator     http://127.0.0.1:${p.bankSimulator} (marked X-Bank-Simulator; /admin/* takes BANK_SIMULATOR_ADMIN_TOKEN)`,
  );
  say(`  merchant's site    https://127.0.0.1:${p.merchantSite} (webhooks, to a receiver on 127.0.0.1:${p.merchantReceiver})`);
  say(`  codec site         http://127.0.0.1:${p.codec}/ops/v1/codec`);
  say(
    `secrets:  ${path.relative(process.cwd(), path.join(s.dataDir, 'secrets.json'))}; logs: ${path.relative(process.cwd(), path.join(s.dataDir, 'logs'))}`,
  );
  say('ready. Ctrl-C stops everything.');
}

main().catch((e: Error) => {
  console.error(e instanceof SetupError ? `[stack] ${e.message}` : e);
  process.exit(1);
});
