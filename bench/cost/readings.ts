import type { StackState } from '../../src/devstack/production/stack';
import { DATABASE_GROUPS, groupDelta, readPg, type DbActivity, type PgAccess, type PgReading } from './pg-activity';
import { treeCpuSeconds } from './proc-cpu';
import { readStackState } from './stack-payments';

/**
 * A reading of everything the bench counts (PostgreSQL's statistics, CPU per process group, the
 * clock), and the difference of two: what a window of time cost.
 */

/** The stack's processes by the role their CPU is reported under (names of stack.json's processes). */
const CPU_GROUPS: Record<string, (name: string) => boolean> = {
  postgresql: (n) => n === 'postgresql',
  temporal: (n) => /^temporal/i.test(n),
  ferretdb: (n) => n === 'ferretdb',
  api: (n) => n.startsWith('api-'),
  worker: (n) => n.startsWith('worker-'),
  caddy: (n) => n === 'caddy',
  'outside (acquirer TLS, merchant site)': (n) => n === 'outside caddy',
  'bank simulator': (n) => n === 'bank simulator',
};
export const BENCH_CLIENT = 'bench client (payer, receiver)';

export interface Reading {
  at: number;
  pg: PgReading;
  cpu: Record<string, number>;
}

export interface Window {
  seconds: number;
  temporal: DbActivity;
  ferretdb: DbActivity;
  walBytes: number;
  walFullPageImages: number;
  /** CPU seconds per group. */
  cpu: Record<string, number>;
}

/** Reads stack.json again each time: a supervised process that restarted has a new pid. */
export function takeReading(stateFile: string, pg: PgAccess): Reading {
  const state: StackState = readStackState(stateFile);
  const processes = Object.entries(state.processes);
  const groups = Object.fromEntries(
    Object.entries(CPU_GROUPS).map(([group, has]) => [
      group,
      processes.flatMap(([name, p]) => (has(name) && p.pid ? [p.pid] : [])),
    ]),
  );
  // A cluster's Temporal processes, each also on its own (the service's share of the server's CPU).
  for (const [name, p] of processes) if (name.startsWith('temporal-') && p.pid) groups[name] = [p.pid];
  return { at: performance.now(), pg: readPg(pg), cpu: treeCpuSeconds({ ...groups, [BENCH_CLIENT]: [process.pid] }) };
}

export function windowOf(before: Reading, after: Reading): Window {
  return {
    seconds: (after.at - before.at) / 1000,
    temporal: groupDelta(before.pg, after.pg, DATABASE_GROUPS.temporal),
    ferretdb: groupDelta(before.pg, after.pg, DATABASE_GROUPS.ferretdb),
    walBytes: after.pg.walBytes - before.pg.walBytes,
    walFullPageImages: after.pg.walFullPageImages - before.pg.walFullPageImages,
    cpu: Object.fromEntries(Object.keys(after.cpu).map((g) => [g, after.cpu[g]! - (before.cpu[g] ?? 0)])),
  };
}

/** `w` less what the stack does idle in as long (the idle window's rate times w's seconds). */
export function lessBackground(w: Window, idle: Window): Window {
  const k = w.seconds / idle.seconds;
  const less = (a: DbActivity, b: DbActivity): DbActivity => ({
    commits: a.commits - k * b.commits,
    inserted: a.inserted - k * b.inserted,
    updated: a.updated - k * b.updated,
    deleted: a.deleted - k * b.deleted,
  });
  return {
    seconds: w.seconds,
    temporal: less(w.temporal, idle.temporal),
    ferretdb: less(w.ferretdb, idle.ferretdb),
    walBytes: w.walBytes - k * idle.walBytes,
    walFullPageImages: w.walFullPageImages - k * idle.walFullPageImages,
    cpu: Object.fromEntries(Object.entries(w.cpu).map(([g, s]) => [g, s - k * (idle.cpu[g] ?? 0)])),
  };
}
