/**
 * `npm run bank-simulator`: the bank simulator as its own process, on loopback. It speaks the
 * acquirer protocol v1 that the gateway's http connector speaks (BANK_CONNECTOR=http), so the
 * gateway is tested end to end against a bank across a real network boundary.
 *
 *   npm run bank-simulator [-- --port 4100 --host 127.0.0.1 --payer-delay-ms 200 --refund-delay-ms 0 --data-dir .data]
 *
 * Its secret is its own: BANK_SIMULATOR_SECRET, or DATA_DIR/bank.secret (created on first use and
 * read by `npm start -- --bank=simulator` too); it never reads the gateway's BANK_SECRET, so a
 * production secret never signs a simulated approval. /admin/* takes BANK_SIMULATOR_ADMIN_TOKEN,
 * or DATA_DIR/bank-simulator-admin.token. Never in production: it refuses GATEWAY_ENV=production,
 * and a production gateway refuses it (its answers carry X-Bank-Simulator).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBankSimulator } from '../bank/simulator/server';
import { weakSecret } from '../config';
import { bankSimulatorSettings } from '../config-tools';
import { localBankSecret, localSimulatorAdminToken } from '../devstack/local-secrets';
import { onShutdown } from './shutdown';

async function main(): Promise<void> {
  const settings = bankSimulatorSettings(process.env);
  if (settings.inProduction) {
    console.error('[bank-simulator] refused: the bank simulator never runs in production (GATEWAY_ENV=production)');
    process.exit(1);
  }
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: settings.port },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
      'payer-delay-ms': { type: 'string', default: '200' },
      'refund-delay-ms': { type: 'string', default: '0' },
      'data-dir': { type: 'string', default: settings.dataDir },
      quiet: { type: 'boolean', default: false },
    },
  });
  const dataDir = path.resolve(values['data-dir']);
  const secret = settings.secret ?? localBankSecret(dataDir);
  const adminToken = settings.adminToken ?? localSimulatorAdminToken(dataDir);
  for (const [name, value, minLength] of [
    ['BANK_SIMULATOR_SECRET', secret, 32],
    ['BANK_SIMULATOR_ADMIN_TOKEN', adminToken, 24],
  ] as const) {
    const weak = weakSecret(value, minLength);
    if (weak) {
      console.error(`[bank-simulator] ${name} too weak: ${weak}`);
      process.exit(1);
    }
  }
  const simulator = await startBankSimulator(
    {
      secret,
      adminToken,
      ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
      payerDelayMs: Number(values['payer-delay-ms']),
      refundDelayMs: Number(values['refund-delay-ms']),
      log: values.quiet ? () => undefined : (line) => console.log(`[bank-simulator] ${line}`),
    },
    { host: values.host, port: Number(values.port) },
  );
  console.log(
    `[bank-simulator] listening on ${simulator.url} (protocol: ${simulator.url}/openapi.json, books: ${simulator.url}/admin/books with the admin token)`,
  );
  onShutdown(() => simulator.close());
}

main().catch((e: Error) => {
  console.error(`[bank-simulator] ${e.message}`);
  process.exit(1);
});
