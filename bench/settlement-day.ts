import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { MongoClient } from 'mongodb';
import { startFerretdb } from '../src/devstack/ferretdb';
import { freePort } from '../src/devstack/process';
import { PayerDataCipher } from '../src/domain/payer-data';
import { saleFee, DEFAULT_FEE_PLAN } from '../src/domain/settlement-fees';
import { settlementWorkflowId } from '../src/temporal/settlement-contract';
import { timeSkippingEnvironment, workflowBundle } from '../test/support/servers';
import { ratioRow, report, type BenchRow } from './support/report';
import {
  benchSettlementActivities,
  MASTER_KEY,
  REFUNDED_EVERY,
  say,
  seededStore,
  SETTLEMENT_DATE,
} from './support/settlement-store';

type History = Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>;

/** The day's orders of the one merchant (default: the million). */
const DAY_ORDERS = Number(process.env.SETTLEMENT_BENCH_DAY ?? 1_000_000);
/** Orders per reported slice of the claim (default 100,000). */
const SLICE = Number(process.env.SETTLEMENT_BENCH_SLICE ?? 100_000);
/** No run of the settlement workflow (each run of a continue-as-new chain) may record more history events. */
const MAX_EVENTS_PER_RUN = 10_000;

/**
 * The default `npm run bench:settlement`: one merchant's day of DAY_ORDERS paid orders (one in
 * REFUNDED_EVERY refunded in part), seeded straight into the store, settled by the real settlement
 * workflow on the time-skipping test server with the real activities. Reported: the time of each
 * SLICE of sales claimed (flat: the last slice against the first, <= 1.5), the history events of
 * every run of the workflow (following continue-as-new; the largest <= 10,000), and the payout
 * against the net the seeded orders must pay. Each activity after the sales claim prints its time,
 * outcome and store commands to stderr: the phase that does not scale shows there.
 */
export async function settleDay(): Promise<boolean> {
  const kept = process.env.SETTLEMENT_BENCH_DIR;
  const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'bench-settlement-day-'));
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const store = await startFerretdb({ port: await freePort(), dataDir: path.join(dir, 'data'), logDir: dir });
  const client = new MongoClient(store.uri, { monitorCommands: true });
  // Store commands by name since the last timed activity began (an attempt still running alongside adds its own).
  const commands = new Map<string, number>();
  client.on('commandStarted', (e) => commands.set(e.commandName, (commands.get(e.commandName) ?? 0) + 1));
  const env = await timeSkippingEnvironment();
  try {
    await client.connect();
    const merchant = 'benchmerchantday';
    const db = client.db('bench_settlement_day');
    const seedStarted = performance.now();
    await seededStore(db, new PayerDataCipher(MASTER_KEY), DAY_ORDERS, [[merchant, DAY_ORDERS]]);
    say(`store of ${DAY_ORDERS} orders ready in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

    // The real activities, the claim page timed: each SLICE of sales lines closes a slice.
    const act = benchSettlementActivities(db);
    const slices: number[] = [];
    let claimed = 0;
    let sliceStart = performance.now();
    const started = performance.now();
    const activities = {
      ...timedActivities(act, commands),
      claimSettlementPage: async (input: Parameters<typeof act.claimSettlementPage>[0]) => {
        if (input.phase !== 'sales')
          return timed(`claimSettlementPage ${input.phase}`, commands, () => act.claimSettlementPage(input));
        const page = await act.claimSettlementPage(input);
        claimed += page.lines;
        while (claimed >= (slices.length + 1) * SLICE) {
          const now = performance.now();
          slices.push(now - sliceStart);
          say(`sales ${slices.length * SLICE}: ${((now - sliceStart) / 1000).toFixed(1)} s for the last ${SLICE}`);
          sliceStart = now;
        }
        return page;
      },
    };
    const taskQueue = 'bench-settlement-day';
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const workflowId = settlementWorkflowId(merchant, SETTLEMENT_DATE);
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start('settlementWorkflow', {
        workflowId,
        taskQueue,
        args: [{ merchantIdentifier: merchant, settlementDate: SETTLEMENT_DATE }],
      });
      const r = (await handle.result()) as { state: string; netPaise: number };
      return { ...r, firstRunId: handle.firstExecutionRunId };
    });
    const totalMs = performance.now() - started;

    // Every run of the chain: its events, and the next run when it continued as new.
    const runs: number[] = [];
    for (let runId: string | undefined = result.firstRunId; runId;) {
      const history: History = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      const events: NonNullable<History['events']> = history.events ?? [];
      runs.push(events.length);
      runId = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    const expected = expectedNet(DAY_ORDERS);
    say(
      `settled ${DAY_ORDERS} orders in ${(totalMs / 1000).toFixed(0)} s: ${result.state}, payout ${result.netPaise} paise (expected ${expected}); ` +
        `events per run ${runs.join(', ')}; slices (s) ${slices.map((ms) => (ms / 1000).toFixed(1)).join(', ')}`,
    );
    const rows: BenchRow[] = [
      ratioRow(
        `events of the largest settlement workflow run, a ${DAY_ORDERS}-order day, against ${MAX_EVENTS_PER_RUN}`,
        {
          label: `${Math.max(...runs)} events (the largest of ${runs.length} runs)`,
          value: Math.max(...runs),
          work: `the settlement workflow's history, every run of its continue-as-new chain, settling ${DAY_ORDERS} orders on the time-skipping test server with the real activities`,
        },
        {
          label: `${MAX_EVENTS_PER_RUN}`,
          value: MAX_EVENTS_PER_RUN,
          work: 'a fixed bound of history events per run: nothing is run',
        },
        { atMost: 1 },
      ),
      ratioRow(
        `payout of the ${DAY_ORDERS}-order day against its orders' net`,
        {
          label: `${result.netPaise} paise (${result.state})`,
          value: result.state === 'paid' ? result.netPaise : 0,
          work: `the payout the settlement workflow made for the ${DAY_ORDERS}-order day (one in ${REFUNDED_EVERY} refunded in part)`,
        },
        {
          label: `${expected} paise`,
          value: expected,
          work: 'the net computed in the bench from the seeded orders: nothing is run',
        },
        { atLeast: 1, atMost: 1 },
      ),
    ];
    // Against the second slice: the first carries the worker's start and a cold store, so a
    // per-page cost that grew would still look flat against it.
    if (slices.length >= 3)
      rows.push(
        ratioRow(
          `claiming the last ${SLICE} sales against the second ${SLICE} (the first includes start-up)`,
          {
            label: `${(slices[slices.length - 1]! / 1000).toFixed(1)} s`,
            value: slices[slices.length - 1]!,
            work: `the settlement workflow claiming the day's last ${SLICE} sales (claim pages through its real activities), ${DAY_ORDERS} orders stored`,
          },
          {
            label: `${(slices[1]! / 1000).toFixed(1)} s`,
            value: slices[1]!,
            work: `the same workflow claiming the second ${SLICE} of the same day`,
          },
          { atMost: 1.5 },
        ),
      );
    return report(rows);
  } finally {
    await env.teardown();
    await client.close();
    await store.process.stop();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

/** Each activity but the sales claim pages, its time and store commands printed to stderr when it ends. */
function timedActivities<A extends Record<string, (...args: never[]) => Promise<unknown>>>(
  act: A,
  commands: Map<string, number>,
): A {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(act)) out[name] = (...args: never[]) => timed(name, commands, () => fn(...args));
  return out as A;
}

async function timed<T>(name: string, commands: Map<string, number>, run: () => Promise<T>): Promise<T> {
  commands.clear();
  const started = performance.now();
  let outcome = 'done';
  try {
    return await run();
  } catch (e) {
    // An attempt Temporal gave up on (a heartbeat timeout) is retried while this one may still run.
    outcome = `failed (${e instanceof Error ? e.message : String(e)})`;
    throw e;
  } finally {
    const sent = [...commands].map(([c, n]) => `${c} ${n}`).join(', ');
    console.error(
      `[bench:settlement] ${name}: ${outcome} in ${((performance.now() - started) / 1000).toFixed(2)} s, store commands: ${sent}`,
    );
  }
}

/** What the seeded day must pay: every amount (UPI: no fee on the default plan) less the refunds. */
function expectedNet(count: number): number {
  let net = 0;
  for (let i = 0; i < count; i++) {
    const amount = 900 + ((i * 7919) % 100_000);
    const { feePaise, taxPaise } = saleFee(DEFAULT_FEE_PLAN, { kind: 'UPI', vpa: 'a@b', bankName: 'X' }, amount);
    net += amount - feePaise - taxPaise - (i % REFUNDED_EVERY === REFUNDED_EVERY - 1 ? 500 : 0);
  }
  return net;
}
