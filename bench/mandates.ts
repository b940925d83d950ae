/**
 * `npm run bench:mandates`: MANDATE_BENCH_COUNT (default 10,000) ACTIVE Adhoc mandates, each
 * notified for one debit 1 to 7 days ahead at a random time outside the peak windows, run on the
 * time-skipping server: the real mandate and mandate-debit workflows, with the activities kept in
 * memory (the point is the timers, not the store) and the real sandbox bank behind a counter.
 * Checks that every debit reached the bank exactly once, at its executionDate, never inside a peak
 * window, and prints executions per second of simulated time and of wall time.
 */
import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { BankPaymentRequest } from '../src/bank/connector';
import type { MandateActivities, MandateDebitResult } from '../activities/mandate-activities';
import { SandboxBankConnector } from '../src/bank/sandbox-connector';
import { formatIstDateTime } from '../src/domain/ist-time';
import { debitTxnIdsOf, type MandateState } from '../src/domain/mandate';
import { firstOffPeakInstant, isInPeakWindow } from '../src/domain/peak-windows';
import { notifyDebitUpdate } from '../src/temporal/mandate-messages';
import { mandateDebitWorkflowId, mandateWorkflowId } from '../src/temporal/workflow-ids';
import { timeSkippingEnvironment, workflowBundle, stopTestServers } from '../test/support/servers';
import type { mandateWorkflow } from '../workflows/mandate';
import { round, runConcurrently } from './support/load';
import { ratioRow, report, runBench, type BenchRow } from './support/report';

const COUNT = Number(process.env.MANDATE_BENCH_COUNT ?? 10_000);
const CONCURRENCY = 32;
/** Wall time the debits may take to record their outcomes once the week starts being skipped. */
const OUTCOMES_PATIENCE_MS = Number(process.env.MANDATE_BENCH_PATIENCE_MS ?? 3_600_000);
const DAY = 86_400_000;
const MERCHANT = 'b'.repeat(32);

async function main(): Promise<boolean> {
  const env = await timeSkippingEnvironment();
  const states = new Map<string, MandateState>();
  const bankCalls = new Map<string, number[]>();
  const outcomes = new Map<string, MandateDebitResult>();
  const executeAt = new Map<string, number>();
  const bank = new SandboxBankConnector();

  const activities: MandateActivities & {
    requestBankPayment(r: BankPaymentRequest): ReturnType<SandboxBankConnector['requestPayment']>;
  } = {
    requestMandateApproval: (r) => bank.requestMandateApproval(r),
    notifyMandateDebit: (r) => bank.notifyMandateDebit(r),
    async recordMandateState(r) {
      states.set(r.orderId, r.state);
    },
    async createMandateDebit() {
      return { ours: true };
    },
    async recordMandateDebitOutcome(r) {
      const first = !outcomes.has(r.orderId);
      if (first) outcomes.set(r.orderId, r.result);
      return { status: r.result === 'executed' ? 'Success' : 'Failure', applied: first };
    },
    async requestBankPayment(r) {
      // The server's time of this attempt (the debit's moment in simulated time).
      const at = Context.current().info.currentAttemptScheduledTimestampMs;
      bankCalls.set(r.txnId, [...(bankCalls.get(r.txnId) ?? []), at]);
      return bank.requestPayment(r);
    },
    // Every mandate stays ACTIVE here, and the debits start as workflows of their own.
    async requestMandateDebit({ request }) {
      return { kind: 'sent', reply: await activities.requestBankPayment(request) };
    },
    async awaitNoDebitAtBank() {},
    async startMandateDebit(input) {
      await env.client.workflow.start('mandateDebitWorkflow', {
        workflowId: mandateDebitWorkflowId(input.merchantIdentifier, input.orderId),
        taskQueue: 'mandate-bench',
        args: [input],
      });
    },
    async pendingMandateDebits({ orderIds }) {
      return orderIds.filter((id) => !outcomes.has(id));
    },
    async cancelMandateDebits() {},
  };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: 'mandate-bench',
    workflowBundle: await workflowBundle(),
    activities,
    maxConcurrentWorkflowTaskExecutions: 64,
    maxConcurrentActivityTaskExecutions: 200,
  });

  try {
    return await worker.runUntil(async () => {
      const wallStart = performance.now();
      const t0 = await env.currentTimeMs();
      await runConcurrently(COUNT, CONCURRENCY, (i) =>
        env.client.workflow.start<typeof mandateWorkflow>('mandateWorkflow', {
          workflowId: mandateWorkflowId(MERCHANT, `m${i}`),
          taskQueue: 'mandate-bench',
          args: [
            {
              merchantIdentifier: MERCHANT,
              orderId: `m${i}`,
              txnId: `M${i}`,
              payerVpa: 'success@sandbox',
              frequency: 'Adhoc',
              validUntilMs: t0 + 30 * DAY,
              productDescription: 'bench',
              firstDebit: null,
              payerAnswerDelayMs: 1_000,
              debitRetryIntervalMs: 3_600_000,
              realtimeWebhook: false,
            },
          ],
        }),
      );
      await env.sleep(2_000); // the payers answer after a second
      while ([...states.values()].filter((s) => s === 'ACTIVE').length < COUNT) await new Promise((r) => setTimeout(r, 200));
      const setUpSeconds = (performance.now() - wallStart) / 1000;
      console.log(`${COUNT} mandates ACTIVE after ${round(setUpSeconds)} s of wall time`);

      const now = await env.currentTimeMs();
      const notifyStart = performance.now();
      await runConcurrently(COUNT, CONCURRENCY, async (i) => {
        // 1 to 7 days ahead at a random second, moved out of a peak window, on a whole second.
        const wanted = now + DAY + Math.floor(Math.random() * 6 * DAY);
        const at = Math.ceil(firstOffPeakInstant(new Date(wanted)).getTime() / 1000) * 1000;
        executeAt.set(`D${i}`, at);
        const result = await env.client.workflow
          .getHandle(mandateWorkflowId(MERCHANT, `m${i}`))
          .executeUpdate(notifyDebitUpdate, {
            args: [
              {
                orderId: `d${i}`,
                txnId: `D${i}`,
                amountPaise: 10_000,
                productDescription: 'bench',
                executeAtMs: at,
                autoExecute: true,
              },
            ],
          });
        if (result.kind !== 'notified') throw new Error(`notify ${i} refused: ${JSON.stringify(result)}`);
      });
      const notifySeconds = (performance.now() - notifyStart) / 1000;
      console.log(`${COUNT} debits notified in ${round(notifySeconds)} s (${round(COUNT / notifySeconds)}/s)`);

      const runStart = performance.now();
      // A debit that never records an outcome ends the wait here: the run is then recorded as missed.
      const deadline = runStart + OUTCOMES_PATIENCE_MS;
      const outcomesReach = async (n: number, until: number) => {
        while (outcomes.size < n && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
        return outcomes.size >= n;
      };
      const simulatedStart = await env.currentTimeMs();
      const last = Math.max(...executeAt.values());
      // An hour of simulated time at a time, letting the worker finish what fell due before the next
      // hour: one jump over the whole week fires thousands of timers at once, and the test server,
      // whose workflow task timeouts run in simulated time too, expires the tasks the worker has not
      // reached yet (and at 10,000 debits failed with an internal error).
      for (let at = simulatedStart; at < last + 60_000; at += 3_600_000) {
        await env.sleep(Math.min(3_600_000, last + 60_000 - at));
        const due = [...executeAt.values()].filter((t) => t <= at + 3_600_000).length;
        if (!(await outcomesReach(due, deadline))) break;
      }
      await outcomesReach(COUNT, deadline);
      const wallSeconds = (performance.now() - runStart) / 1000;
      const simulatedSeconds = (last - simulatedStart) / 1000;

      const calls = [...executeAt.keys()].map((txnId) => bankCalls.get(txnId) ?? []);
      const exactlyOnce = calls.filter((c) => c.length === 1).length;
      const inPeak = [...bankCalls.values()].flat().filter((at) => isInPeakWindow(new Date(at))).length;
      // Early is a defect; late by seconds happens when the test server moves its clock on while the
      // worker is still busy with what fell due (simulated time, not a real delay).
      const lateness = [...executeAt.entries()].map(([txnId, at]) => (bankCalls.get(txnId)?.[0] ?? Infinity) - at);
      const early = lateness.filter((ms) => ms < 0).length;
      const late = lateness.filter((ms) => ms >= 60_000).length;
      const maxLateSeconds = round(Math.max(...lateness) / 1000, 1);
      const executed = [...outcomes.values()].filter((r) => r === 'executed').length;
      const figures: [string, string | number][] = [
        ['debits notified', COUNT],
        ['executed (1111)', executed],
        ['reached the bank exactly once', exactlyOnce],
        ['bank calls inside a peak window', inPeak],
        ['debits before their executionDate', early],
        ['debits a minute or more after it', late],
        ['latest, seconds after executionDate (simulated)', maxLateSeconds],
        [
          'simulated span',
          `${round(simulatedSeconds / 86_400)} days, ${formatIstDateTime(new Date(simulatedStart))} to ${formatIstDateTime(new Date(last))} IST`,
        ],
        ['wall time of the run', `${round(wallSeconds)} s`],
        ['executions per second of simulated time', round(COUNT / simulatedSeconds, 4)],
        ['executions per second of wall time', round(COUNT / wallSeconds)],
      ];
      console.table(figures.map(([figure, value]) => ({ figure, value })));
      // A debit is right when it executed (order d<i>, txnId D<i>) after exactly one bank request
      // (a retry is D<i>R<n>: the sandbox approves every one, so any retry counts against it), sent
      // not before its executionDate nor a simulated minute after, outside the peak windows.
      const callsOfDebit = new Map<string, number[]>();
      for (const [txnId, ats] of bankCalls) {
        const debit = debitTxnIdsOf(txnId).find((id) => executeAt.has(id)) ?? txnId;
        callsOfDebit.set(debit, [...(callsOfDebit.get(debit) ?? []), ...ats]);
      }
      const right = [...executeAt.entries()].filter(([txnId, at]) => {
        const c = callsOfDebit.get(txnId) ?? [];
        const [first] = c;
        return (
          outcomes.get(`d${txnId.slice(1)}`) === 'executed' &&
          c.length === 1 &&
          first !== undefined &&
          first >= at &&
          first - at < 60_000 &&
          !isInPeakWindow(new Date(first))
        );
      }).length;
      return report(mandateRows({ right, executed, wallSeconds, simulatedSeconds }));
    });
  } finally {
    await env.teardown();
    await stopTestServers();
  }
}

/** The recorded rows: every debit right (exactly one bank call, on time, off-peak), and the wall time a simulated day took. */
function mandateRows(r: { right: number; executed: number; wallSeconds: number; simulatedSeconds: number }): BenchRow[] {
  const workflows = `${COUNT} mandate workflows and their debit workflows on the time-skipping test server, activities in memory, the sandbox bank counting calls`;
  const right = ratioRow(
    `mandate debits executed once each, at their executionDate, outside the peak windows, of ${COUNT} notified`,
    { label: `${r.right} right (${r.executed} executed)`, value: r.right, work: workflows },
    { label: `${COUNT} notified`, value: COUNT, work: 'the debits the bench notified: nothing is run' },
    { atLeast: 1, atMost: 1 },
  );
  return [
    // Every debit, not a ratio rounded to 1: one wrong debit in 2,000 is a miss.
    { ...right, met: r.right === COUNT },
    ratioRow(
      `wall seconds per simulated day, ${COUNT} debits falling due over the week (informative)`,
      {
        label: `${round(r.wallSeconds)} s of wall time`,
        value: r.wallSeconds,
        work: `skipping the week the ${COUNT} notified debits fall due in, an hour at a time, until each recorded its outcome (set-up and notifies not counted)`,
      },
      {
        label: `${round(r.simulatedSeconds / 86_400, 2)} simulated days`,
        value: r.simulatedSeconds / 86_400,
        work: 'the simulated span the debits fell due over: nothing is run',
      },
      {},
    ),
  ];
}

runBench(main);
