import path from 'node:path';
import { ferretdbPath } from './paths';
import { assertPortFree, startProcess, waitForPort, type ManagedProcess } from './process';

/**
 * The local FerretDB store's URI. FerretDB is a standalone server without retryable writes (the
 * driver sends none to a standalone server anyway): its URI says so explicitly. A MongoDB's URI
 * (MONGODB_URI) keeps the driver's default, writes retried once after a failover.
 */
export const ferretdbUri = (port: number) => `mongodb://127.0.0.1:${port}/?retryWrites=false`;

/**
 * Starts the FerretDB store (SQLite files in `dataDir`) and waits until it accepts connections.
 * `binary` defaults to our patched build (the differential test also starts an unpatched one).
 * With `postgresqlUrl` (a database, no user) it stores in PostgreSQL instead, and clients must
 * authenticate: FerretDB opens PostgreSQL with their credentials (the production stack).
 */
export async function startFerretdb(o: {
  port: number;
  dataDir: string;
  logDir: string;
  binary?: string;
  postgresqlUrl?: string;
}): Promise<{ uri: string; process: ManagedProcess }> {
  await assertPortFree('127.0.0.1', o.port, 'set DEV_MONGODB_PORT to a free port, or MONGODB_URI to use that MongoDB');
  const logFile = path.join(o.logDir, 'ferretdb.log');
  const p = startProcess(
    'FerretDB',
    o.binary ?? ferretdbPath,
    [
      '-listen',
      `127.0.0.1:${o.port}`,
      ...(o.postgresqlUrl ? ['-postgresql-url', o.postgresqlUrl] : ['-data', o.dataDir]),
      '-log-level',
      'error',
    ],
    logFile,
  );
  await waitForPort(p, '127.0.0.1', o.port, 30_000, logFile);
  return { uri: ferretdbUri(o.port), process: p };
}
