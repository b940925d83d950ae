import path from 'node:path';
import { localSimulatorAdminToken } from './local-secrets';
import { assertPortFree, startProcess, waitForPort, type ManagedProcess } from './process';

/**
 * `npm start -- --bank=simulator`: the bank simulator as its own child process on loopback (the
 * same program as `npm run bank-simulator`), sharing DATA_DIR/bank.secret with the gateway.
 * Development only: load-config refuses the flag in production and the simulator refuses to start there.
 */
export async function startBankSimulatorProcess(o: {
  port: number;
  dataDir: string;
  logDir: string;
}): Promise<{ process: ManagedProcess; url: string; adminToken: string }> {
  const host = '127.0.0.1';
  await assertPortFree(host, o.port, 'set DEV_BANK_SIMULATOR_PORT to a free port');
  const logFile = path.join(o.logDir, 'bank-simulator.log');
  const entry = path.join(__dirname, '..', 'main', 'bank-simulator.ts');
  const child = startProcess(
    'bank simulator',
    process.execPath,
    ['--import', 'tsx', entry, '--host', host, '--port', String(o.port), '--data-dir', o.dataDir],
    logFile,
  );
  // As long as the Temporal server gets: a node process compiling TypeScript on a busy machine is slow to listen.
  await waitForPort(child, host, o.port, 60_000, logFile);
  return { process: child, url: `http://${host}:${o.port}`, adminToken: localSimulatorAdminToken(o.dataDir) };
}
