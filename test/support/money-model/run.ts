import fc from 'fast-check';
import { paymentWorkflowId } from '../../../src/temporal/workflow-ids';
import { allCommands, debitOpening, type Model } from './commands';
import {
  approvedEndSuccess,
  debitsLawful,
  refundsBounded,
  storedDeliveries,
  storedTransactions,
  webhooksFaithful,
  workflowsHealthy,
} from './invariants';
import { feePlanArb } from './settlement-commands';
import { liveness, listedAmong, needsAttention } from './liveness';
import { catchUpSchedule, dailyRunEnded } from './schedule';
import { endSettlements, finishSettlements, forgetEngine, settle } from './settle';
import { holdOrRelease } from './settlement-actions';
import { settlementInvariants } from './settlement-invariants';
import { newWorld, restartMoneyStack, skip, uploadBankFile, type MoneyStack, type World } from './world';
import type { FeePlan } from '../../../src/domain/settlement-fees';

/**
 * The money model: fast-check draws sequences of commands (commands.ts), runs each against the
 * real stack with a merchant of its own, lets time and the bank finish what they started, and
 * checks the invariants (invariants.ts). A failing sequence is shrunk to its shortest reproduction
 * (unless `shrink` is false) and reported with the seed and path that replay it.
 */
export interface MoneyRunOptions {
  runs: number;
  seed: number;
  /** Most commands in one sequence. */
  maxCommands: number;
  shrink: boolean;
  /**
   * Seconds of shrinking after the first failure: the sequences drawn after that pass without
   * running, so the report gives the shortest failing sequence found by then (unbounded without it).
   */
  shrinkSeconds?: number;
  /** Payer VPAs left out of the sequences (exploring past a known defect). */
  without?: string[];
  log?: (line: string) => void;
  /** fast-check's replay path of one sequence (printed with a failure): runs that sequence alone. */
  path?: string;
  /** Logs each sequence as it ran, passing or not (what a seed exercises). */
  stories?: boolean;
  /** fast-check's size of the sequences (its default draws most under ten commands whatever `maxCommands`). */
  size?: fc.SizeForArbitrary;
}

/** What a run did: sequences run to their checks, and debits (attempts) the bank booked in them. */
export interface MoneyRunResult {
  restarts: number;
  sequences: number;
  debitsAtBank: number;
  sequencesWithDebits: number;
}

/** The command line that replays a run (or, with `path`, one sequence of it). */
export const replayCommand = (o: Pick<MoneyRunOptions, 'seed' | 'runs' | 'maxCommands' | 'without' | 'path'>) =>
  `npm run test:money -- --seed ${o.seed} --runs ${o.runs} --commands ${o.maxCommands}${o.without?.length ? ` --without ${o.without.join(',')}` : ''}${o.path !== undefined ? ` --path ${o.path}` : ''}`;

type Cmd = fc.AsyncCommand<Model, World>;

export async function runMoneyModel(stack: MoneyStack, o: MoneyRunOptions): Promise<MoneyRunResult> {
  const result: MoneyRunResult = { restarts: 0, sequences: 0, debitsAtBank: 0, sequencesWithDebits: 0 };
  const runSequence = async (autoRefund: boolean, bankSeed: number, plan: FeePlan, opening: Cmd[], cmds: Iterable<Cmd>) => {
    const w = await newWorld(stack, { autoRefund, seed: bankSeed, plan });
    const started = Date.now();
    try {
      await fc.asyncModelRun(
        () => ({ model: { orders: 0, qrs: 0, mandates: 0 } satisfies Model, real: w }),
        [...opening, ...cmds],
      );
      const problems = await settleAndCheck(w);
      const debits = books(w).debits.length;
      result.sequences++;
      result.debitsAtBank += debits;
      if (debits > 0) result.sequencesWithDebits++;
      if (stack.workerCrash.hits.length) w.story.push(`worker crashes: ${stack.workerCrash.hits.join('; ')}`);
      const paid = w.orders.reduce((n, x) => n + x.amountPaise, 0);
      o.log?.(
        `sequence ${result.sequences}: ${w.story.length - 1} commands, ${w.orders.length} orders (Rs ${(paid / 100).toFixed(0)} asked), ${w.mandates.length} mandates, ${w.debits.length} debits (${books(w).debits.length} at the bank), ${w.settlements.length} settlements (${payoutsAtBank(w)} payouts at the bank), ${((Date.now() - started) / 1000).toFixed(1)} s${problems.length ? `, ${problems.length} violation(s)` : ''}`,
      );
      if (o.stories) o.log?.(`  ${w.story.join('\n  ')}`);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    } catch (e) {
      const err = e as Error;
      err.message = `${err.message}\n  the sequence as it ran:\n    ${w.story.join('\n    ')}`;
      throw err;
    } finally {
      stack.receiverDown.delete(w.merchant.merchantIdentifier);
      await endSettlements(w);
    }
  };
  const runOrRestart = async (...args: Parameters<typeof runSequence>) => {
    try {
      await runSequence(...args);
    } catch (e) {
      if (!timeStoodStill(e) || (await failsItsTasks(stack, e))) throw e;
      // Temporal's time-skipping test server sometimes rejects a workflow task that accepts an
      // update and then refuses every retry of it ("Already accepted update"), holding its time
      // still for good. The sequence runs again, once, on fresh servers: a gateway workflow that
      // truly stops its time would stop it again there and fail the run.
      result.restarts++;
      o.log?.(`time stood still on the test server (${firstLine(e)}); the servers restart and the sequence runs again`);
      await restartMoneyStack(stack);
      forgetEngine(stack);
      await runSequence(...args);
    }
  };
  let failedAt: number | undefined;
  let shrinkCut = false;
  const property = fc.asyncProperty(
    fc.boolean(),
    fc.nat(),
    feePlanArb,
    debitOpening,
    fc.commands(allCommands(o.without), { maxCommands: o.maxCommands, ...(o.size ? { size: o.size } : {}) }),
    async (autoRefund, bankSeed, plan, opening, cmds) => {
      if (failedAt !== undefined && o.shrinkSeconds !== undefined && Date.now() - failedAt > o.shrinkSeconds * 1000) {
        shrinkCut = true;
        return;
      }
      try {
        await runOrRestart(autoRefund, bankSeed, plan, opening, cmds);
      } catch (e) {
        failedAt ??= Date.now();
        throw e;
      }
    },
  );
  const details = await fc.check(property, {
    seed: o.seed,
    // A path starts at its sequence, and fast-check would go on with `numRuns` sequences from
    // there: the replay runs that one sequence (and its shrinks). A shrunk path (with colons) runs
    // the rest of its shrink level too, as fast-check does, until one fails.
    numRuns: o.path !== undefined ? 1 : o.runs,
    endOnFailure: !o.shrink,
    ...(o.path !== undefined ? { path: o.path } : {}),
  });
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const cut = shrinkCut
      ? `\nShrinking stopped after ${o.shrinkSeconds} s: the sequence below is the shortest failing one found by then.`
      : '';
    const replay = replayCommand({ ...o, ...(details.counterexamplePath !== null ? { path: details.counterexamplePath } : {}) });
    throw new Error(
      `money model failed with seed ${o.seed}; replay: ${replay}${cut}\n${fc.defaultReportMessage(details)}\nWhat the checker found:\n${cause}`,
    );
  }
  return result;
}

/** A time skip the gateway answered 503 (2051): some workflow held the test server's time still. */
const timeStoodStill = (e: unknown) => e instanceof Error && /"code":"2051"/.test(e.message);
/**
 * Whether a workflow the 2051 names failed a task of its own (a gateway defect, such as a
 * nondeterminism): the test server's defect rejects the task's completion instead, and records no
 * failed task. Such a stop is never run again.
 */
async function failsItsTasks(stack: MoneyStack, e: unknown): Promise<boolean> {
  const named = /after \d+ s \(([^)]*)\)/.exec((e as Error).message)?.[1] ?? '';
  for (const id of named.split(/,\s*/).filter(Boolean)) {
    const history = await stack.gw.rt.temporal.workflow
      .getHandle(id)
      .fetchHistory()
      .catch(() => undefined);
    if (history?.events?.some((ev) => ev.workflowTaskFailedEventAttributes)) return true;
  }
  return false;
}

const firstLine = (e: unknown) =>
  String((e as Error).message)
    .split('\n')[0]!
    .slice(0, 300);

/** Lets the bank and time finish everything the sequence started, then reads the three books. */
async function settleAndCheck(w: World): Promise<string[]> {
  w.stack.receiverDown.delete(w.merchant.merchantIdentifier);
  await quiesce(w);
  // Bank timeouts, QR expiries and webhook retries (the longest schedule is under 28 hours) fall due;
  // the bank's answers to the deadline inquiries come in real time, hence the second round.
  await skip(w, 2 * 86_400);
  await waitForCallbacks(w);
  await skip(w, 2 * 86_400);
  await Promise.all(
    w.orders.map((o) =>
      w.stack.gw.rt.temporal.workflow.getHandle(paymentWorkflowId(w.merchant.merchantIdentifier, o.orderId)).result(),
    ),
  );
  const problems: string[] = [];
  const before = await storedTransactions(w);
  problems.push(...approvedEndSuccess(w, books(w), before, false));
  // The bank's settlement file repairs what the bank hid; after it every approval must be Success.
  await uploadBankFile(w);
  await skip(w, 2 * 86_400);
  await waitForCallbacks(w);
  const after = await storedTransactions(w);
  problems.push(
    ...approvedEndSuccess(w, books(w), after, true),
    ...refundsBounded(books(w), after),
    ...debitsLawful(w, books(w), after),
    ...webhooksFaithful(w, after),
    ...(await workflowsHealthy(w, after)),
  );
  // The settlements still running end (or wait where they must), the schedule starts every working
  // day's settlements it would have started by now, and every sale due is settled or listed.
  await finishSettlements(w);
  w.story.push(`schedule: ${await catchUpSchedule(w)}`);
  problems.push(...(await liveness(w)), ...dailyRunEnded(w));
  // Then the merchant is released and the cycle of the latest captures settles; the settlement
  // invariants hold in full (the settle commands checked them along the way), a settlement still
  // waiting excused only when needs-attention lists it.
  if (w.held) await holdOrRelease(w, false);
  await finishSettlements(w);
  await settle(w, { advance: true, fault: 'none', inFlight: false, twice: false });
  w.story.push(`finally: ${(await finishSettlements(w)).join('; ')}`);
  const listed = listedAmong(await needsAttention(w), w.settlements);
  problems.push(...(await settlementInvariants(w, true, listed)));
  if (problems.some((p) => p.startsWith('(4)'))) {
    problems.push(`deliveries stored: ${(await storedDeliveries(w)).join('; ')}`);
    for (const c of w.stack.receiver.calls.filter((c) => c.url.includes(w.merchant.merchantIdentifier)))
      problems.push(`received ${c.url.split('?')[1] ?? ''} ${c.headers['x-webhook-id']}: ${c.body.slice(0, 400)}`);
  }
  return [...new Set(problems)];
}

const books = (w: World) => w.stack.bank.books.snapshot(w.merchant.merchantIdentifier);
const payoutsAtBank = (w: World) =>
  [...w.stack.bank.payouts.values()].filter((p) => p.request.merchantIdentifier === w.merchant.merchantIdentifier).length;

/**
 * A quiet point before time jumps: every payment the payers made has reached the bank (or is final),
 * and the bank has given every answer it was going to give in real time. Without it a skip of days
 * would overtake a bank that answers a second late, which the sequences' own skips do on purpose.
 */
async function quiesce(w: World): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const stored = await storedTransactions(w);
    const atBank = w.stack.bank.books.payments;
    const waiting = w.orders.filter((o) => {
      const t = [...stored.values()].find((x) => x.orderId === o.orderId);
      const sentToBank = o.kind !== 'qr' || o.payer !== undefined;
      return sentToBank && t?.status === 'Pending' && !atBank.has(t.txnId);
    });
    if (waiting.length === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await waitForCallbacks(w);
}

/** Callbacks under way, and a moment for the gateway to act on the last ones (a signal, a reconciliation). */
async function waitForCallbacks(w: World): Promise<void> {
  await w.stack.bank.settled();
  await new Promise((r) => setTimeout(r, 300));
  await w.stack.bank.settled();
}
