/**
 * The measuring side of `npm run bench:cost`, run by bench/cost.ts once the stack is ready, with
 * Caddy's local CA trusted (NODE_EXTRA_CA_CERTS, read by Node at start only): pays, reads what the
 * payments cost, runs pgbench, and writes the rows to the file its options name.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { sampledPaymentWork } from './histories';
import type { PgAccess } from './pg-activity';
import { initPgbench, runPgbench } from './pgbench';
import { lessBackground, takeReading, windowOf, type Window } from './readings';
import { costRows, type CostFigures } from './rows';
import { payMany, readStackSecrets, readStackState, stackPayer, type StackPayer } from './stack-payments';

export interface MeasureOptions {
  stateFile: string;
  out: string;
  payments: number;
  concurrency: number;
  warmUp: number;
  /** How long the stack idles for its background rate, and settles after the payments (stats flushed, workflows done). */
  idleSeconds: number;
  settleSeconds: number;
  pgbenchSeconds: number;
  pgbenchClients: number[];
  pgbenchScale: number;
  /** Payment workflows whose histories are read. */
  sample: number;
  /** The stack runs `npm run stack:cluster`'s topology. */
  cluster: boolean;
}

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
const loadAverage = () => Number(os.loadavg()[0]!.toFixed(2));

/** What the stack does while `during` runs and for `settle` seconds after. */
async function windowAround(o: MeasureOptions, pg: PgAccess, during: () => Promise<unknown>, settle: number): Promise<Window> {
  const before = takeReading(o.stateFile, pg);
  await during();
  await sleep(settle);
  return windowOf(before, takeReading(o.stateFile, pg));
}

async function payments(o: MeasureOptions, pg: PgAccess, payer: StackPayer) {
  const run = randomBytes(3).toString('hex');
  const ids = (label: string, n: number) => Array.from({ length: n }, (_, i) => `cost-${run}-${label}-${i}`);
  // Warm-up, not counted: the workers' bundles, the connections, Caddy's TLS sessions.
  await payMany(payer, ids('warm', o.warmUp), o.concurrency);
  await sleep(o.settleSeconds);
  const idle = await windowAround(o, pg, () => Promise.resolve(), o.idleSeconds);
  const loadBefore = loadAverage();
  const orderIds = ids('pay', o.payments);
  let paid = { seconds: 0, failed: [] as string[] };
  const gross = await windowAround(o, pg, async () => (paid = await payMany(payer, orderIds, o.concurrency)), o.settleSeconds);
  const sampled = orderIds.filter((id) => !paid.failed.includes(id)).slice(0, o.sample);
  return { idle, gross, paid, sampled, loadAverage: { before: loadBefore, after: loadAverage() } };
}

async function measure(o: MeasureOptions): Promise<CostFigures> {
  const state = readStackState(o.stateFile);
  const secrets = readStackSecrets(state);
  const pg = { port: state.ports.postgresql, superuserPassword: secrets.POSTGRES_SUPERUSER_PASSWORD };
  const payer = await stackPayer(state, secrets);
  try {
    const p = await payments(o, pg, payer);
    const temporal = await sampledPaymentWork(state, payer.merchant.merchantIdentifier, p.sampled);
    await initPgbench(pg, o.pgbenchScale);
    const pgbench = [];
    for (const clients of o.pgbenchClients) pgbench.push(await runPgbench(pg, clients, o.pgbenchSeconds));
    return {
      payments: o.payments,
      failed: p.paid.failed.length,
      concurrency: o.concurrency,
      cluster: o.cluster,
      gross: p.gross,
      net: lessBackground(p.gross, p.idle),
      idle: p.idle,
      paymentSeconds: p.paid.seconds,
      temporal,
      pgbench,
      loadAverage: p.loadAverage,
    };
  } finally {
    await payer.receiver.close();
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as MeasureOptions;
measure(options).then(
  (figures) => {
    writeFileSync(options.out, JSON.stringify({ figures, rows: costRows(figures) }));
    process.exit(0);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
