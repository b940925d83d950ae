import { terminateWhenIdle } from './terminate-idle';
import {
  createSettlementActivities,
  startSettlement,
  type SettlementActivities,
} from '../../../activities/settlement-activities';
import { istDate } from '../../../src/domain/ist-time';
import { addDays, istMidnight, isWorkingDay, settlementDateOfCapture } from '../../../src/domain/settlement-calendar';
import { bankConnector } from '../../../src/main/runtime';
import { settlementCalendar } from '../../../src/config-settlements';
import { settlementActivityDeps } from '../../../src/main/settlement-runtime';
import { settlementStateQuery, settlementWorkflowId } from '../../../src/temporal/settlement-contract';
import { excusedSettlements } from './excused';
import { settlementInvariants } from './settlement-invariants';
import { skip, type MoneyStack, type World } from './world';

/**
 * The model's settlements: what the `settlement:daily` schedule does for one merchant (the
 * time-skipping server has no schedules), started through the engine's own `startSettlement` so
 * the gateway's worker runs the real workflow against the bank simulator.
 */

/**
 * A payout fault the bank simulator offers (faults.ts), met by the settlement's first payout request:
 * refused at once or after a PENDING answer, PENDING then paid, paid with the answer lost (5xx or a
 * dropped connection after the bank paid), or PENDING for ever (`silence`).
 */
export const PAYOUT_FAULTS = ['none', 'refuse', 'refuseLate', 'late', 'errorAfterCommit', 'dropAfterCommit', 'silence'] as const;
export type PayoutFault = (typeof PAYOUT_FAULTS)[number];

export interface SettleOptions {
  /** Move the clock to the run of the date today's captures settle on (something is due); else settle the latest date already due. */
  advance: boolean;
  fault: PayoutFault;
  /** Start the workflow and return: the commands that follow run while it settles. */
  inFlight: boolean;
  /** Start it again and replay every activity once more (a retry whose completion was lost): nothing may change. */
  twice: boolean;
  /** What lands while the settlement claims (a refund, a chargeback, a split): run once its claim began. */
  during?: { name: string; act: (w: World) => Promise<string> };
}

/** The instant the daily run settles `date` (SETTLEMENT_HOUR_IST on that IST date). */
const runInstant = (date: string, hourIst: number) => new Date(istMidnight(date).getTime() + hourIst * 3_600_000);

/** The latest working date whose daily run is past at `now`: its cycle is due. */
export function latestDueDate(w: World): string {
  const rt = w.stack.gw.rt;
  const cal = settlementCalendar(rt.config.settlements);
  let d = istDate(rt.now());
  while (!isWorkingDay(cal, d) || runInstant(d, rt.config.settlements.hourIst) > rt.now()) d = addDays(d, -1);
  return d;
}

/** Skips to the run of the date today's captures settle on (T+N working days) and returns that date. */
async function advanceToNextCycle(w: World): Promise<string> {
  const rt = w.stack.gw.rt;
  const date = settlementDateOfCapture(settlementCalendar(rt.config.settlements), rt.now());
  const at = runInstant(date, rt.config.settlements.hourIst);
  await w.stack.bank.idle();
  const seconds = Math.ceil((at.getTime() - rt.now().getTime()) / 1000) + 1;
  if (seconds > 0) await skip(w, seconds);
  return date;
}

/** The simulator's fault rules armed for a settlement's payout, removed once it ended (a net of 0 asks no payout). */
const armed = new Map<string, string>();

/** Arms the simulator so that the settlement's first payout request meets the fault. */
function armPayoutFault(w: World, payoutId: string, fault: PayoutFault): void {
  if (fault === 'none') return;
  const match = { operation: 'payout' as const, id: payoutId };
  const rule = w.stack.bank.faults.add({
    match,
    times: 1,
    fault:
      fault === 'refuse'
        ? { kind: 'refusePayout', code: '91' }
        : fault === 'refuseLate'
          ? { kind: 'refusePayout', code: '91', afterMs: 400 }
          : fault === 'silence'
            ? { kind: 'silence' }
            : fault === 'late'
              ? { kind: 'late', ms: 400 }
              : fault === 'errorAfterCommit'
                ? { kind: 'error', status: 503, afterCommit: true }
                : { kind: 'drop', afterCommit: true },
  });
  armed.set(payoutId, rule.id);
}

/**
 * Runs the merchant's settlement of a due date (see SettleOptions). Returns what it did, for the
 * story; the settlement joins `w.settlements` and is finished by `finishSettlements`.
 */
export async function settle(w: World, o: SettleOptions): Promise<string> {
  const rt = w.stack.gw.rt;
  const settlementDate = o.advance ? await advanceToNextCycle(w) : latestDueDate(w);
  const input = { merchantIdentifier: w.merchant.merchantIdentifier, settlementDate };
  const id = settlementWorkflowId(input.merchantIdentifier, settlementDate);
  const known = w.settlements.includes(id);
  if (!known) armPayoutFault(w, id, o.fault);
  const before = known ? (await rt.temporal.workflow.getHandle(id).describe()).status.name : undefined;
  const started = await startSettlement({ temporal: rt.temporal, taskQueue: rt.config.temporal.taskQueue }, input);
  if (!known) w.settlements.push(id);
  // The same id again: a settlement that ended (completed) or still runs is never run twice; one
  // that failed or was terminated may be run again (every step is idempotent).
  if (known && started && (before === 'COMPLETED' || before === 'RUNNING'))
    throw new Error(`(7) settlement ${id} (${before}) was started a second time`);
  let said = `${id} ${started ? 'started' : 'exists'}${known ? '' : `, payout fault ${o.fault}`}`;
  if (o.during) said += `, ${o.during.name} during its claim: ${await duringClaim(w, id, o.during.act)}`;
  if (o.inFlight && !o.twice) return `${said}, in flight`;
  const result = await finishSettlement(w, id);
  if (o.twice && result.startsWith('COMPLETED')) {
    if (await startSettlement({ temporal: rt.temporal, taskQueue: rt.config.temporal.taskQueue }, input))
      throw new Error(`(7) settlement ${id} was started again after it ended`);
    await replayActivities(w, input);
  }
  return `${said} → ${result}${o.twice ? ', replayed' : ''}`;
}

/** Lets every settlement of the sequence finish, or wait where it must (the liveness invariant judges those). */
export async function finishSettlements(w: World): Promise<string[]> {
  const said: string[] = [];
  for (const id of w.settlements) said.push(`${id}: ${await finishSettlement(w, id)}`);
  return said;
}

/**
 * Waits for one settlement workflow to end: a PENDING payout waits for the bank's late answer and
 * then for the next inquiry (PAYOUT_INQUIRY_INTERVAL, hence the skips); an activity retried after
 * an error waits for its backoff. One held (the merchant is), or asking the bank about a payout for
 * two hours, or retrying a step for ever is left as it is: the liveness invariant then requires the
 * operator's needs-attention to list it. Says how it ended (COMPLETED with its result, FAILED, ...)
 * or why it still runs.
 */
async function finishSettlement(w: World, id: string): Promise<string> {
  const handle = w.stack.gw.rt.temporal.workflow.getHandle(id);
  let inquiries = 0;
  for (let i = 0; i < 40; i++) {
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING') {
      const rule = armed.get(id);
      if (rule !== undefined) w.stack.bank.faults.remove(rule);
      armed.delete(id);
      if (d.status.name !== 'COMPLETED') return d.status.name;
      const r = await handle.result();
      return `COMPLETED ${r.state} ${r.netPaise}${r.utr ? ` ${r.utr}` : ''}`;
    }
    const state = await handle.query(settlementStateQuery).catch(() => 'unknown');
    if (state === 'held' && w.held) return 'RUNNING held';
    if (state === 'payout_requested' && ++inquiries > 12) return 'RUNNING payout_requested (PENDING at the bank)';
    await w.stack.bank.settled();
    if (state === 'payout_requested' || i >= 10) await skip(w, 601);
    else await new Promise((r) => setTimeout(r, 100));
  }
  const pending = (await handle.describe()).raw.pendingActivities?.[0];
  return `RUNNING, retrying ${pending?.activityType?.name ?? 'no activity'}: ${pending?.lastFailure?.message ?? ''}`;
}

/** Terminates what still runs of the sequence's settlements (PENDING for ever, held), so no later sequence carries them. */
export async function endSettlements(w: World): Promise<void> {
  for (const id of w.settlements) {
    await terminateWhenIdle(w.stack.gw.rt.temporal.workflow.getHandle(id), 'the money model ends its sequence');
    const rule = armed.get(id);
    if (rule !== undefined) w.stack.bank.faults.remove(rule);
    armed.delete(id);
  }
}

/** Waits (a few seconds at most) for the settlement to begin its claim, then runs `act`. */
async function duringClaim(w: World, id: string, act: (w: World) => Promise<string>): Promise<string> {
  const handle = w.stack.gw.rt.temporal.workflow.getHandle(id);
  const deadline = Date.now() + 3000;
  let state = 'unknown';
  while (Date.now() < deadline) {
    state = await handle.query(settlementStateQuery).catch(() => 'unknown');
    if (state !== 'unknown' && state !== 'opening') break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return `(${state}) ${await act(w)}`;
}

const activitiesOf = new WeakMap<MoneyStack, SettlementActivities>();

/** The stack was restarted in place: its engine is built again from the new runtime. */
export function forgetEngine(stack: MoneyStack): void {
  activitiesOf.delete(stack);
  armed.clear();
}

/** The engine's settlement activities as the gateway's worker builds them (its store, clock, bank and accounts). */
export function engine(stack: MoneyStack): SettlementActivities {
  let act = activitiesOf.get(stack);
  if (!act) {
    const rt = stack.gw.rt;
    act = createSettlementActivities(settlementActivityDeps(rt, bankConnector(rt.config)));
    activitiesOf.set(stack, act);
  }
  return act;
}

/**
 * Every step of an ended settlement once more, in order: what Temporal does when an attempt's
 * completion is lost (or a zombie attempt that outlived its timeout lands late). Activities are
 * at-least-once, so each must leave an ended settlement as it was and pay nothing again.
 */
async function replayActivities(w: World, input: { merchantIdentifier: string; settlementDate: string }): Promise<void> {
  const act = engine(w.stack);
  await act.openSettlement(input);
  for (const phase of ['sales', 'adjustments'] as const) {
    let cursor = null;
    do cursor = (await act.claimSettlementPage({ ...input, phase, cursor })).next;
    while (cursor);
  }
  const totals = await act.totalSettlement(input);
  // The payout steps ran only for a settlement that went to the bank (paid, or refused by it).
  if (totals.state !== 'paid' && totals.state !== 'payout_refused') return;
  const payout = await act.requestSettlementPayoutUnlessHeld(input);
  if (!payout.held && payout.answer.status !== 'PENDING') await act.recordSettlementPayout({ ...input, answer: payout.answer });
}

/**
 * Invariants 6 to 8 now (settlement-invariants.ts); throws the violations, which the model's run
 * prints with the sequence. `quiet` once every settlement of the sequence has ended or waits where
 * it must; one that waits (a payout PENDING at the bank, a hold) is excused while needs-attention
 * lists it or its state's time has not run out (excused.ts).
 */
export async function assertSettlements(w: World, quiet: boolean): Promise<void> {
  const excused = quiet ? await excusedSettlements(w) : new Set<string>();
  const problems = await settlementInvariants(w, quiet, excused);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
