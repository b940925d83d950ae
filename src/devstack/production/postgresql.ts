import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SetupError } from '../install';
import { startProcess, waitForPort, type ManagedProcess } from '../process';

/**
 * PostgreSQL from the operating system's package (Debian: apt-get install postgresql), run as its
 * own server in `dataDir` on a loopback port: Temporal's persistence and visibility, and the store's
 * backend. Password authentication (scram-sha-256) for every connection, over TCP and the socket.
 * PostgreSQL refuses to run as root: as root, it runs as the `postgres` user the package creates.
 * Started again on its data directory after a crash, it recovers from its WAL.
 */

export function postgresqlBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(path.join(base, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new SetupError(
      "PostgreSQL was not found (/usr/lib/postgresql/<version>/bin). The production stack runs the operating system's PostgreSQL: apt-get update && apt-get install -y postgresql",
    );
  }
  return path.join(base, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;

/** The command line that runs `bin` as PostgreSQL's user (postgres when we are root). */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function runSync(cmd: [string, string[]], what: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd[0], cmd[1], { encoding: 'utf8', env });
  if (r.status !== 0) throw new SetupError(`${what} failed (exit ${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Creates the cluster on first use (superuser `postgres` with `superuserPassword`), starts it, and
 * returns once it accepts connections. On an existing data directory it is a restart: after a
 * crash (SIGKILL), PostgreSQL replays its WAL before it accepts connections.
 */
export async function startPostgresql(o: {
  port: number;
  dataDir: string;
  logDir: string;
  superuserPassword: string;
}): Promise<ManagedProcess> {
  const bin = postgresqlBinDir();
  if (!existsSync(path.join(o.dataDir, 'PG_VERSION'))) initCluster(bin, o.dataDir, o.superuserPassword);
  removeStaleLockFile(o.dataDir);
  const logFile = path.join(o.logDir, 'postgresql.log');
  const args = [
    '-D',
    o.dataDir,
    '-p',
    String(o.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${o.dataDir}`,
    '-c',
    'max_connections=200',
  ];
  // Run as its user directly (not through runuser): the child's pid is the postmaster's, so a
  // signal to it reaches the server, and its exit is the server's.
  const p = startProcess(
    'PostgreSQL',
    path.join(bin, 'postgres'),
    args,
    logFile,
    process.env,
    asRoot() ? postgresUser() : undefined,
  );
  try {
    await waitForPort(p, '127.0.0.1', o.port, 60_000, logFile);
    await waitUntilReady(p, bin, o.port, o.superuserPassword, logFile);
  } catch (e) {
    // A server that never became ready is not left holding the data directory's lock.
    await p.stop();
    throw e;
  }
  return p;
}

function initCluster(bin: string, dataDir: string, superuserPassword: string): void {
  // The parents stay traversable (PostgreSQL's user reads its own directory below them).
  mkdirSync(path.dirname(dataDir), { recursive: true });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwfile = path.join(path.dirname(dataDir), 'postgresql.pwfile');
  writeFileSync(pwfile, `${superuserPassword}\n`, { mode: 0o600 });
  if (asRoot()) {
    const { uid, gid } = postgresUser();
    chownSync(dataDir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  runSync(
    asPostgres(path.join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C',
    ]),
    'initdb',
  );
  spawnSync('rm', ['-f', pwfile]);
}

/**
 * A server killed with SIGKILL leaves postmaster.pid behind. It goes only when the process it names
 * is gone: while that process lives, the lock stands and the start fails (the supervisor tries again).
 */
export function removeStaleLockFile(dataDir: string): void {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return;
  rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function postgresUser(): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0)
    throw new SetupError('the postgres user does not exist (apt-get install postgresql creates it)');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** How long a live server may take to accept its first query: a crash's WAL replay, on a slow disk. */
const READY_WITHIN_MS = 30 * 60_000;

/**
 * Waits until the server answers a query, for as long as it lives. After a crash it replays its
 * WAL before it accepts one, which takes as long as the WAL written since its last checkpoint (up
 * to max_wal_size): stopping it then would only start the replay over. It fails at once if the
 * server exits. Each try is a child process with a connect timeout, so the stack's other
 * processes are served meanwhile.
 */
async function waitUntilReady(p: ManagedProcess, bin: string, port: number, password: string, logFile: string): Promise<void> {
  const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new SetupError(`PostgreSQL exited before it accepted a query (see ${logFile})`);
    const answered = await run(path.join(bin, 'psql'), psqlArgs(port, 'postgres', 'SELECT 1'), { env }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new SetupError(`PostgreSQL did not accept a query within 30 minutes (see ${logFile})`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const run = promisify(execFile);

const psqlArgs = (port: number, db: string, sql: string) => [
  '-h',
  '127.0.0.1',
  '-p',
  String(port),
  '-U',
  'postgres',
  '-d',
  db,
  '-v',
  'ON_ERROR_STOP=1',
  '-tAc',
  sql,
];

/** Runs one SQL statement as the superuser; returns psql's unaligned output. */
export function psql(port: number, superuserPassword: string, sql: string, db = 'postgres'): string {
  return runSync(
    [path.join(postgresqlBinDir(), 'psql'), psqlArgs(port, db, sql)],
    `psql: ${sql.split(' ').slice(0, 3).join(' ')}`,
    {
      ...process.env,
      PGPASSWORD: superuserPassword,
    },
  ).trim();
}

/** A login role with `password` (created, or its password reset), and `options` such as CREATEDB. */
export function ensureRole(port: number, superuserPassword: string, role: string, password: string, options = ''): void {
  const exists = psql(port, superuserPassword, `SELECT 1 FROM pg_roles WHERE rolname = '${role}'`) === '1';
  const quoted = password.replace(/'/g, "''");
  psql(port, superuserPassword, `${exists ? 'ALTER' : 'CREATE'} ROLE "${role}" LOGIN PASSWORD '${quoted}' ${options}`);
}

/** A database owned by `owner`, created when missing. */
export function ensureDatabase(port: number, superuserPassword: string, db: string, owner: string): void {
  if (psql(port, superuserPassword, `SELECT 1 FROM pg_database WHERE datname = '${db}'`) === '1') return;
  psql(port, superuserPassword, `CREATE DATABASE "${db}" OWNER "${owner}"`);
}
