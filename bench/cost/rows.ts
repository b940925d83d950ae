import { getPriority } from 'node:os';
import { round } from '../support/load';
import { ratioRow, type BenchRow } from '../support/report';
import { CLUSTER_ROW_SUFFIX as CLUSTER } from '../support/summary-table';
import { describeWork, type TemporalWork } from '../support/work';
import type { DbActivity } from './pg-activity';
import type { PgbenchResult } from './pgbench';
import type { Window } from './readings';

/**
 * The rows of `npm run bench:cost`: each figure per payment (the measured window less the idle
 * background), and the payments per second measured beside those PostgreSQL's commit ceiling allows.
 */
export interface CostFigures {
  payments: number;
  failed: number;
  concurrency: number;
  cluster: boolean;
  /** The measured window (payments, then the settling wait) as read, and less the idle background. */
  gross: Window;
  net: Window;
  idle: Window;
  paymentSeconds: number;
  temporal: TemporalWork & { sampled: number };
  pgbench: PgbenchResult[];
  loadAverage: { before: number; after: number };
}

const DATABASES = {
  temporal: "Temporal's databases (temporal, temporal_visibility)",
  ferretdb: "FerretDB's database (ferretdb)",
};
/** Per completed payment: a failed one did part of the work, so it is counted in the work but not as a payment. */
const completed = (f: CostFigures) => Math.max(1, f.payments - f.failed);
const per = (f: CostFigures, n: number, digits = 2) => round(n / completed(f), digits);
const perPayment = (f: CostFigures) => ({ label: `${completed(f)} completed payments`, value: completed(f) });

function databaseRows(f: CostFigures, key: 'temporal' | 'ferretdb'): BenchRow[] {
  const net: DbActivity = f.net[key];
  const gross: DbActivity = f.gross[key];
  const idle = (n: number) => round(n / f.idle.seconds, 1);
  const written = net.inserted + net.updated + net.deleted;
  return [
    ratioRow(
      `PostgreSQL commits per payment, ${DATABASES[key]}`,
      {
        label: `${per(f, net.commits)} per payment (${per(f, f.gross[key].commits)} before subtracting ${idle(f.idle[key].commits)}/s idle)`,
        value: net.commits,
      },
      perPayment(f),
      {},
    ),
    ratioRow(
      `PostgreSQL rows written per payment, ${DATABASES[key]}`,
      {
        label: `inserted ${per(f, net.inserted)}, updated ${per(f, net.updated)}, deleted ${per(f, net.deleted)} per payment (${per(f, gross.inserted + gross.updated + gross.deleted)} before subtracting ${idle(f.idle[key].inserted + f.idle[key].updated + f.idle[key].deleted)} rows/s idle)`,
        value: written,
      },
      perPayment(f),
      {},
    ),
  ];
}

function temporalRows(f: CostFigures): BenchRow[] {
  const t = f.temporal;
  const sample = { label: `per payment workflow (mean of ${t.sampled} sampled)`, value: 1 };
  return [
    ratioRow(
      'Temporal history events per payment workflow',
      { label: `${t.events} history events`, value: t.events },
      sample,
      {},
    ),
    ratioRow(
      'Temporal workflow tasks per payment workflow',
      { label: `workflow tasks ${t.workflowTasks}`, value: t.workflowTasks },
      sample,
      {},
    ),
    ratioRow(
      'Temporal activity tasks per payment workflow',
      {
        label: `activity tasks ${t.activityTasks} (local activities ${t.localActivities}, timers ${t.timers})`,
        value: t.activityTasks,
      },
      sample,
      {},
    ),
  ];
}

function cpuRows(f: CostFigures): BenchRow[] {
  return Object.entries(f.net.cpu).map(([group, seconds]) =>
    ratioRow(
      `CPU ms per payment, ${group}`,
      {
        label: `${per(f, seconds * 1000)} ms per payment (${per(f, f.gross.cpu[group]! * 1000)} before subtracting idle ${round((f.idle.cpu[group]! * 1000) / f.idle.seconds, 1)} ms/s)`,
        value: seconds * 1000,
      },
      perPayment(f),
      {},
    ),
  );
}

function walRow(f: CostFigures): BenchRow {
  return ratioRow(
    'PostgreSQL WAL bytes per payment (the whole instance)',
    {
      label: `${per(f, f.net.walBytes, 0)} bytes per payment, ${per(f, f.net.walFullPageImages, 1)} of them full-page images (idle: ${round(f.idle.walBytes / f.idle.seconds, 0)} bytes/s)`,
      value: f.net.walBytes,
    },
    perPayment(f),
    {},
  );
}

function ceilingRows(f: CostFigures, work: string): BenchRow[] {
  const commitsPerPayment = (f.net.temporal.commits + f.net.ferretdb.commits) / completed(f);
  const rate = f.failed ? 0 : f.payments / f.paymentSeconds;
  return f.pgbench.map((p) =>
    ratioRow(
      `payments/s measured vs payments/s PostgreSQL's commits would allow (pgbench, ${p.clients} clients)${f.cluster ? CLUSTER : ''}`,
      { label: `${round(rate)}/s at ${f.concurrency} at a time, ${f.failed} failed`, value: rate, work },
      {
        label: `pgbench ${round(p.commitsPerSecond)} commits/s ÷ ${round(commitsPerPayment)} commits per payment = ${round(p.commitsPerSecond / commitsPerPayment)}/s`,
        value: p.commitsPerSecond / commitsPerPayment,
        work: `pgbench's default TPC-B-like script (one commit per transaction), ${p.clients} clients, ${p.seconds} s, on the stack's PostgreSQL while the stack idles`,
      },
      {},
    ),
  );
}

export function costRows(f: CostFigures): BenchRow[] {
  const work = describeWork({
    does: `merchant-signed checkout (POST /transactU?v=8) through Caddy, the hosted page, its pay form, the card on the acquirer double's page; done when the merchant's receiver (behind its https site, answering 200 at once) acknowledged the webhook; ${f.payments} payments, ${f.concurrency} at a time, on ${f.cluster ? "npm run stack:cluster's topology (2 API replicas, 2 workers, the Temporal server as five processes with 16 history shards over two history hosts" : "npm run stack:production's topology (2 API replicas, 2 workers, one Temporal server process with 4 history shards"}, FerretDB and Temporal on one PostgreSQL), every process at the bench's own niceness (nice ${getPriority()}, inherited); load average ${f.loadAverage.before} before, ${f.loadAverage.after} after`,
    temporal: f.temporal,
    logLevel: 'info',
  });
  const rows = [
    ...ceilingRows(f, work),
    ...databaseRows(f, 'temporal'),
    ...databaseRows(f, 'ferretdb'),
    walRow(f),
    ...temporalRows(f),
    ...cpuRows(f),
  ];
  // Each row names its topology: a cluster's figures are never one row with a single process's.
  return f.cluster ? rows.map((r) => (r.path.endsWith(CLUSTER) ? r : { ...r, path: `${r.path}${CLUSTER}` })) : rows;
}
