import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { parse } from 'yaml';
import { temporalCliPath, temporalConfigDir, temporalTestServerPath } from './paths';
import { assertPortFree, startProcess, waitForPort, type ManagedProcess } from './process';

/** `Name=Type` pairs from temporal-config/search-attributes.yaml (shared with docker-compose). */
export function configuredSearchAttributes(): { name: string; type: string }[] {
  const doc = parse(readFileSync(path.join(temporalConfigDir, 'search-attributes.yaml'), 'utf8')) as {
    searchAttributes: Record<string, string>;
  };
  return Object.entries(doc.searchAttributes).map(([name, type]) => ({ name, type }));
}

/** The namespace's retention of closed workflows, from temporal-config/namespace.yaml (shared with docker-compose), e.g. `168h`. */
export function configuredNamespaceRetention(): string {
  const doc = parse(readFileSync(path.join(temporalConfigDir, 'namespace.yaml'), 'utf8')) as { retention: string };
  return doc.retention;
}

/** Dynamic config for the dev server, from the same YAML file docker-compose mounts. */
export function devDynamicConfigArgs(): string[] {
  const doc = parse(readFileSync(path.join(temporalConfigDir, 'dynamicconfig', 'development.yaml'), 'utf8')) as Record<
    string,
    { value: unknown; constraints?: object }[]
  >;
  return Object.entries(doc).flatMap(([key, entries]) =>
    entries
      .filter((e) => !e.constraints || Object.keys(e.constraints).length === 0)
      .flatMap((e) => ['--dynamic-config-value', `${key}=${JSON.stringify(e.value)}`]),
  );
}

/**
 * Starts `temporal server start-dev` with Temporal UI and the custom search attributes registered.
 * `dbFile` persists workflows across restarts; without it the server keeps them in memory.
 */
export async function startTemporalDevServer(o: {
  port: number;
  uiPort: number;
  /** Where Temporal UI's browser decodes payloads (--ui-codec-endpoint). */
  uiCodecEndpoint?: string;
  dbFile?: string;
  logDir: string;
}): Promise<{ address: string; uiUrl: string; process: ManagedProcess }> {
  const hint = 'set DEV_TEMPORAL_PORT and DEV_TEMPORAL_UI_PORT to free ports, or TEMPORAL_ADDRESS to use that server';
  await assertPortFree('127.0.0.1', o.port, hint);
  await assertPortFree('127.0.0.1', o.uiPort, hint);
  const logFile = path.join(o.logDir, 'temporal.log');
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(o.port),
    '--ui-port',
    String(o.uiPort),
    '--namespace',
    'default',
    '--log-level',
    'warn',
    ...(o.dbFile ? ['--db-filename', o.dbFile] : []),
    ...(o.uiCodecEndpoint ? ['--ui-codec-endpoint', o.uiCodecEndpoint] : []),
    ...configuredSearchAttributes().flatMap((a) => ['--search-attribute', `${a.name}=${a.type}`]),
    ...devDynamicConfigArgs(),
  ];
  const p = startProcess('Temporal dev server', temporalCliPath, args, logFile);
  await waitForPort(p, '127.0.0.1', o.port, 60_000, logFile);
  await waitForPort(p, '127.0.0.1', o.uiPort, 60_000, logFile);
  const address = `127.0.0.1:${o.port}`;
  // start-dev creates the namespace with Temporal's 1-day retention and has no flag to change it.
  await setNamespaceRetention(address, 'default', configuredNamespaceRetention()).catch(async (e) => {
    await p.stop();
    throw e;
  });
  return { address, uiUrl: `http://localhost:${o.uiPort}`, process: p };
}

/** Sets a namespace's retention with the temporal CLI (idempotent: the same value changes nothing). */
async function setNamespaceRetention(address: string, namespace: string, retention: string): Promise<void> {
  const args = ['operator', 'namespace', 'update', '--address', address, '--namespace', namespace, '--retention', retention];
  await promisify(execFile)(temporalCliPath, args, { timeout: 30_000 });
}

/**
 * Starts Temporal's time-skipping test server (in memory, no UI). It starts with time skipping
 * locked: its clock runs at wall-clock pace until a skip (TimeTravel) moves it on. The caller
 * registers the search attributes once connected (registerSearchAttributes).
 */
export async function startTemporalTestServer(o: {
  port: number;
  logDir: string;
}): Promise<{ address: string; process: ManagedProcess }> {
  await assertPortFree(
    '127.0.0.1',
    o.port,
    'set DEV_TEMPORAL_PORT to a free port, or TEMPORAL_ADDRESS to use a running test server',
  );
  const logFile = path.join(o.logDir, 'temporal-test-server.log');
  const p = startProcess('Temporal test server', temporalTestServerPath, [String(o.port)], logFile);
  await waitForPort(p, '127.0.0.1', o.port, 60_000, logFile);
  return { address: `127.0.0.1:${o.port}`, process: p };
}
