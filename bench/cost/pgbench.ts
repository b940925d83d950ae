import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { postgresqlBinDir, psql } from '../../src/devstack/production/postgresql';
import type { PgAccess } from './pg-activity';

/**
 * The ceiling of the PostgreSQL instance the stack runs on: pgbench's default TPC-B-like script
 * (one commit per transaction: three updates, a select and an insert), in a database of its own.
 */

const run = promisify(execFile);
const DATABASE = 'pgbench';

export interface PgbenchResult {
  clients: number;
  seconds: number;
  commitsPerSecond: number;
}

const connection = (pg: PgAccess) => ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres'];

async function pgbench(pg: PgAccess, args: string[]): Promise<string> {
  const { stdout } = await run(path.join(postgresqlBinDir(), 'pgbench'), [...connection(pg), ...args, DATABASE], {
    env: { ...process.env, PGPASSWORD: pg.superuserPassword },
    maxBuffer: 1 << 22,
  });
  return stdout;
}

/** Creates and fills pgbench's tables at `scale` (100,000 accounts per unit). */
export async function initPgbench(pg: PgAccess, scale: number): Promise<void> {
  if (psql(pg.port, pg.superuserPassword, `SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`) !== '1')
    psql(pg.port, pg.superuserPassword, `CREATE DATABASE ${DATABASE}`);
  await pgbench(pg, ['-i', '-q', '-s', String(scale)]);
}

/** One timed run at `clients` connections: commits per second (pgbench's tps, each transaction one commit). */
export async function runPgbench(pg: PgAccess, clients: number, seconds: number): Promise<PgbenchResult> {
  const out = await pgbench(pg, ['-n', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(seconds)]);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
  return { clients, seconds, commitsPerSecond: Number(tps[1]) };
}
