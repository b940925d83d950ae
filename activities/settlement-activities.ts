import { activityInfo } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { settlementId, settlementOutcome, type SettlementState } from '../src/domain/settlement';
import { istDate } from '../src/domain/ist-time';
import { captureWindow, istMidnight, isWorkingDay, type SettlementCalendar } from '../src/domain/settlement-calendar';
import type { FeePlan } from '../src/domain/settlement-fees';
import type { MerchantRepository } from '../src/store/merchant-repository';
import type { SettlementClaimRepository, ClaimCursor, ClaimScope } from '../src/store/settlement-claim-repository';
import { ClaimsClosedError } from '../src/store/settlement-claim-fence';
import { heartbeatIfActivity } from './activity-retry';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import type { SettlementAttentionRepository } from '../src/store/settlement-attention-repository';
import {
  SETTLEMENT_PAGE_SIZE,
  SETTLEMENT_START_ATTEMPTS,
  type SettlementWorkflowInput,
} from '../src/temporal/settlement-contract';
import type { BankPayouts } from '../src/bank/connector';
import { createPayoutActivities, type PayoutActivityDeps } from './settlement-payouts';
import { startSettlement } from '../src/temporal/settlement-client';

export type { SettlementAccountReader } from './settlement-payouts';

export interface SettlementActivityDeps extends PayoutActivityDeps {
  settlementStore: SettlementRepository;
  /** The reads of unfinished settlements (the daily run re-starts a merchant's). */
  settlementAttention: SettlementAttentionRepository;
  settlementClaims: SettlementClaimRepository;
  settlementSettings: SettlementSettingsRepository;
  payouts: BankPayouts;
  /** Whether a merchant opted in to the `settlement.processed` webhook (through the merchant cache). */
  merchants: Pick<MerchantRepository, 'settlementWebhookOptedIn'>;
  settlementCalendar: SettlementCalendar;
  defaultFeePlan: FeePlan;
  now: () => Date;
  temporal: Client;
  taskQueue: string;
}

/**
 * How far before its capture window a settlement still claims what was missed (a sale that became
 * a delayed success late, a day whose settlement never ran): bounded, so a settlement's reads grow
 * with the merchant's recent volume, never with the store.
 */
export const SETTLEMENT_LOOKBACK_DAYS = 10;

/** Unfinished settlements of one merchant the daily run starts again at most (the oldest dates first). */
export const RESTARTS_PER_RUN = 31;

export type ClaimPhase = 'sales' | 'adjustments';

export interface ClaimPageInput extends SettlementWorkflowInput {
  phase: ClaimPhase;
  cursor: ClaimCursor | null;
}

/** What the workflow carries between steps: small, whatever the day's volume. */
export interface SettlementStep {
  state: SettlementState;
  netPaise: number;
  utr: string | null;
  /** Paid, and the merchant opted in to the `settlement.processed` webhook: the workflow hands it over. */
  processedWebhook?: true;
}

/** What the daily run did for one merchant. */
export type MerchantStart = 'started' | 'already_started' | 'nothing_due';

export type { PayoutStep } from './settlement-payouts';

export function createSettlementActivities(deps: SettlementActivityDeps) {
  return {
    ...settlementStepActivities(deps),
    ...createPayoutActivities(deps, {
      applyHold: (id, merchantIdentifier) => applyHold(deps, id, merchantIdentifier),
      stepOf: (id) => stepOf(deps, id),
    }),
    ...dailyRunActivities(deps),
  };
}

/** One settlement's steps up to its totals: opened, its lines claimed page by page, totalled. */
function settlementStepActivities(deps: SettlementActivityDeps) {
  const { settlementStore: store, settlementClaims: claims, settlementSettings: settings, now } = deps;
  return {
    /** Creates the settlement (or finds it, on a retry or a repeated run): `held` when the merchant is. */
    async openSettlement(input: SettlementWorkflowInput): Promise<SettlementStep> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const { held } = await settings.get(input.merchantIdentifier);
      const s = await store.open(id, input.merchantIdentifier, input.settlementDate, held, now());
      if (s.state === 'open' || s.state === 'held') await applyHold(deps, id, input.merchantIdentifier);
      return stepOf(deps, id);
    },

    /**
     * One page of claims and lines (SETTLEMENT_PAGE_SIZE transactions); `next` null when the phase
     * is done. It writes only under the settlement's claim lease, taken while the settlement is open
     * and its claims not closed by the totals: a late attempt (after the totals) adds nothing.
     */
    async claimSettlementPage(input: ClaimPageInput): Promise<{ lines: number; next: ClaimCursor | null }> {
      const scope = await scopeOf(deps, input);
      const page = await underClaimLease(deps, scope.settlementId, (check) =>
        input.phase === 'sales'
          ? claims.claimSales(scope, input.cursor, SETTLEMENT_PAGE_SIZE, check)
          : claims.claimAdjustments(scope, input.cursor, SETTLEMENT_PAGE_SIZE, check),
      );
      return page ?? { lines: 0, next: null };
    },

    /**
     * Sums the lines (after adopting split shares parked for this merchant), takes in what earlier
     * settlements carried out, and decides: a positive net is paid, anything else carried forward.
     */
    async totalSettlement(input: SettlementWorkflowInput): Promise<SettlementStep & { pay: boolean }> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const before = await store.find(id);
      if (before && before.state !== 'open') return { ...(await stepOf(deps, id)), pay: before.state === 'payout_requested' };
      // Split shares parked for this merchant join under the claim lease, before the claims close:
      // an attempt Temporal gave up on and that still runs adopts nothing after the totals.
      await adoptParked(deps, input, id);
      // Totals only from open, once no claim page may write any more (a live lease: retried later).
      const fence = await claims.fence.close(id, now());
      if (fence === 'busy') throw new Error(`settlement ${id}: a claim page still holds its lease; the totals wait for it`);
      if (fence === 'notOpen') {
        const s = await store.find(id);
        return { ...(await stepOf(deps, id)), pay: s?.state === 'payout_requested' };
      }
      const totals = await store.totals(id, heartbeatIfActivity);
      const carriedIn = await store.takeCarried(input.merchantIdentifier, id, input.settlementDate);
      await store.setTotals(id, totals, carriedIn);
      const outcome = settlementOutcome(totals.linesNetPaise, carriedIn);
      if (!outcome.pay) await store.carryForward(id);
      return { ...(await stepOf(deps, id)), pay: outcome.pay };
    },
  };
}

/** The daily run: its date, the merchants page by page, and each merchant's start. */
function dailyRunActivities(deps: SettlementActivityDeps) {
  const { settlementStore: store, now } = deps;
  return {
    /** The date the daily run settles (today in IST when not given) and whether it is a working day (none start otherwise). */
    async settlementRunDate(input: { settlementDate?: string }): Promise<{ settlementDate: string; workingDay: boolean }> {
      return dueDate(deps, input);
    },

    /** A page of merchants for the daily run, in identifier order; `next` (the last one) null at the end. */
    async settlementMerchantsPage(input: {
      after: string | null;
      limit: number;
    }): Promise<{ merchants: string[]; next: string | null }> {
      const merchants = await store.merchantIdentifiersAfter(input.after, input.limit);
      return { merchants, next: merchants.length < input.limit ? null : merchants[merchants.length - 1] };
    },

    /**
     * One merchant's part of the daily run, an activity of its own so a merchant whose data cannot
     * be read (or whose start fails) is retried and reported alone while the others start.
     */
    async startMerchantSettlement(input: SettlementWorkflowInput): Promise<MerchantStart> {
      try {
        const outcome = await startIfDue(deps, input);
        await store.clearStartFailure(input.merchantIdentifier, input.settlementDate);
        return outcome;
      } catch (e) {
        // The run gives up on the merchant after this attempt: the operator's "needs attention" lists it.
        if (activityInfo().attempt >= SETTLEMENT_START_ATTEMPTS)
          await store.recordStartFailure({
            merchantIdentifier: input.merchantIdentifier,
            settlementDate: input.settlementDate,
            reason: e instanceof Error ? e.message : String(e),
            failedAt: now(),
          });
        throw e;
      }
    },
  };
}

/** The settlement's start, shared with the operator's run command (src/temporal/settlement-client.ts). */
export { startSettlement };

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;

/** The capture window of the date (empty on a day that is not a working day), with the lookback. */
async function scopeOf(deps: SettlementActivityDeps, input: SettlementWorkflowInput): Promise<ClaimScope> {
  const { settlementSettings: settings } = deps;
  const w = captureWindow(deps.settlementCalendar, input.settlementDate) ?? {
    from: istMidnight(input.settlementDate),
    to: istMidnight(input.settlementDate),
  };
  const s = await settings.get(input.merchantIdentifier);
  return {
    settlementId: settlementId(input.merchantIdentifier, input.settlementDate),
    merchantIdentifier: input.merchantIdentifier,
    settlementDate: input.settlementDate,
    from: new Date(w.from.getTime() - SETTLEMENT_LOOKBACK_DAYS * 86_400_000),
    to: w.to,
    plan: s.feePlan ?? deps.defaultFeePlan,
  };
}

/**
 * Runs a write to the settlement's lines under the claim lease (`check` before each write):
 * null when the settlement's claims are closed (the totals ran or may run), nothing written after.
 */
async function underClaimLease<T>(
  deps: SettlementActivityDeps,
  id: string,
  work: (check: () => Promise<void>) => Promise<T>,
): Promise<T | null> {
  const { settlementClaims: claims, now } = deps;
  const lease = await claims.fence.lease(id, now());
  if (!lease) return null;
  const guard = claims.fence.guard(id, now, lease, heartbeatIfActivity);
  try {
    return await work(guard.check);
  } catch (e) {
    if (e instanceof ClaimsClosedError) return null;
    throw e;
  } finally {
    await claims.fence.release(id, guard.until());
  }
}
async function adoptParked(deps: SettlementActivityDeps, input: SettlementWorkflowInput, id: string) {
  const { settlementStore: store } = deps;
  if (!(await store.hasParkedLines(input.merchantIdentifier))) return;
  await underClaimLease(deps, id, (check) => store.adoptParkedLines(input.merchantIdentifier, id, input.settlementDate, check));
}

async function stepOf(deps: SettlementActivityDeps, id: string): Promise<SettlementStep> {
  const { settlementStore: store } = deps;
  const s = await store.find(id);
  const step: SettlementStep = { state: s?.state ?? 'open', netPaise: s?.netPaise ?? 0, utr: s?.utr ?? null };
  if (s?.state === 'paid' && (await deps.merchants.settlementWebhookOptedIn(s.merchantIdentifier))) step.processedWebhook = true;
  return step;
}

/**
 * Applies the merchant's hold to an open or held settlement (nothing changes one further on) and
 * says whether it is held. The flag is read again after moving to held: a release clears the
 * flag before it looks for held settlements to signal, so one of the two sees the other.
 */
async function applyHold(deps: SettlementActivityDeps, id: string, merchantIdentifier: string): Promise<boolean> {
  const { settlementStore: store, settlementSettings: settings } = deps;
  const { held } = await settings.get(merchantIdentifier);
  await store.setHeld(id, held);
  if (!held) return false;
  if ((await settings.get(merchantIdentifier)).held) return true;
  await store.setHeld(id, false);
  return false;
}

function dueDate(deps: SettlementActivityDeps, input: { settlementDate?: string }) {
  const { now } = deps;
  const settlementDate = input.settlementDate ?? istDate(now());
  return { settlementDate, workingDay: isWorkingDay(deps.settlementCalendar, settlementDate) };
}

/**
 * Starts the merchant's settlement of the date when anything is due (each id once), and again
 * every unfinished settlement of the merchant up to that date whose workflow failed, was
 * terminated or timed out (a running or completed one is not started twice): a settlement that
 * could not finish is re-run by the next daily run. 'started' when either started.
 */
async function startIfDue(deps: SettlementActivityDeps, input: SettlementWorkflowInput): Promise<MerchantStart> {
  const { settlementStore: store, settlementClaims: claims } = deps;
  let restarted = false;
  for (const s of await deps.settlementAttention.unfinishedOf(input.merchantIdentifier, input.settlementDate, RESTARTS_PER_RUN))
    if (await startSettlement(deps, { merchantIdentifier: s.merchantIdentifier, settlementDate: s.settlementDate }))
      restarted = true;
  const scope = await scopeOf(deps, input);
  if (!(await claims.hasDue(scope)) && !(await store.hasParkedOrRefused(input.merchantIdentifier)))
    return restarted ? 'started' : 'nothing_due';
  return (await startSettlement(deps, input)) || restarted ? 'started' : 'already_started';
}
