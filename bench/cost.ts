/**
 * `npm run bench:cost`: what one payment costs the engines of the production topology, measured on
 * `npm run stack:production` (started here, on ports of its own, in .data/cost-bench, fresh each
 * run): merchant-signed checkouts paid through Caddy until their webhooks are acknowledged, and per
 * payment the PostgreSQL commits and rows written by Temporal's databases and by FerretDB's, the WAL,
 * the Temporal history of the payment workflow, and the CPU of each process; then pgbench on the same
 * PostgreSQL, and the payments per second its commits would allow beside those measured.
 * docs/operators/capacity.md reads the figures.
 *
 *   npm run bench:cost [-- --payments 300 --concurrency 16 --pgbench-seconds 20 --pgbench-clients 1,4,16]
 *   npm run bench:cost -- --cluster    (npm run stack:cluster's topology: each Temporal service's CPU apart)
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { MeasureOptions } from './cost/measure';
import { startStackProcess } from './cost/stack-process';
import { report, runBench, type BenchRow } from './support/report';

const root = path.resolve(__dirname, '..');
const say = (line: string) => console.error(`[bench:cost] ${line}`);

function options(): Omit<MeasureOptions, 'stateFile' | 'out'> {
  const { values } = parseArgs({
    options: {
      payments: { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '16' },
      'warm-up': { type: 'string', default: '20' },
      'idle-seconds': { type: 'string', default: '20' },
      'settle-seconds': { type: 'string', default: '12' },
      'pgbench-seconds': { type: 'string', default: '20' },
      'pgbench-clients': { type: 'string', default: '1,4,16' },
      'pgbench-scale': { type: 'string', default: '10' },
      sample: { type: 'string', default: '20' },
      cluster: { type: 'boolean', default: false },
    },
  });
  return {
    payments: Number(values.payments),
    concurrency: Number(values.concurrency),
    warmUp: Number(values['warm-up']),
    idleSeconds: Number(values['idle-seconds']),
    settleSeconds: Number(values['settle-seconds']),
    pgbenchSeconds: Number(values['pgbench-seconds']),
    pgbenchClients: values['pgbench-clients'].split(',').map(Number),
    pgbenchScale: Number(values['pgbench-scale']),
    sample: Number(values.sample),
    cluster: values.cluster,
  };
}

/** Runs bench/cost/measure.ts against the ready stack, trusting its Caddy's CA; returns its rows. */
async function measureAgainst(o: MeasureOptions, caddyRoot: string): Promise<BenchRow[]> {
  const child = execFile(process.execPath, ['--import', 'tsx', path.join(__dirname, 'cost', 'measure.ts'), JSON.stringify(o)], {
    cwd: root,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caddyRoot },
    maxBuffer: 1 << 24,
  });
  child.stderr?.pipe(process.stderr);
  child.stdout?.pipe(process.stderr);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`measuring exited with ${code}`);
  const { figures, rows } = JSON.parse(readFileSync(o.out, 'utf8')) as { figures: unknown; rows: BenchRow[] };
  console.log(JSON.stringify(figures, null, 2));
  return rows;
}

async function main(): Promise<boolean> {
  const o = options();
  const dataDir = path.join(root, '.data', o.cluster ? 'cost-bench-cluster' : 'cost-bench');
  rmSync(dataDir, { recursive: true, force: true });
  const stack = startStackProcess(dataDir, o.cluster, say);
  try {
    await stack.ready;
    const stateFile = path.join(dataDir, 'stack.json');
    const { caddyRootCertificate } = JSON.parse(readFileSync(stateFile, 'utf8')) as { caddyRootCertificate: string };
    const rows = await measureAgainst({ ...o, stateFile, out: path.join(dataDir, 'cost-figures.json') }, caddyRootCertificate);
    report(rows);
    return true;
  } finally {
    const code = await stack.stop();
    say(`the stack stopped (${code})`);
  }
}

runBench(main);
