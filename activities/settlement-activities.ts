import { activityInfo } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { settlementId, settlementOutcome, type SettlementState } from '../src/domain/settlement';
import {
  addDays,
  captureWindow,
  istDate,
  istMidnight,
  isWorkingDay,
  type SettlementCalendar,
} from '../src/domain/settlement-calendar';
import type { FeePlan } from '../src/domain/settlement-fees';
import type { MerchantRepository } from '../src/store/merchant-repository';
import type { SettlementClaimRepository, ClaimCursor, ClaimScope } from '../src/store/settlement-claim-repository';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import {
  SETTLEMENT_PAGE_SIZE,
  SETTLEMENT_START_ATTEMPTS,
  SETTLEMENT_WORKFLOW_TYPE,
  type SettlementWorkflow,
  type SettlementWorkflowInput,
} from '../src/temporal/settlement-contract';
import type { BankPayouts } from '../src/bank/connector';
import { createPayoutActivities, type PayoutActivityDeps } from './settlement-payouts';

export type { SettlementAccountReader } from './settlement-payouts';

export interface SettlementActivityDeps extends PayoutActivityDeps {
  settlementStore: SettlementRepository;
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
  const { settlementStore: store, settlementClaims: claims, settlementSettings: settings, now } = deps;

  /** The capture window of the date (empty on a day that is not a working day), with the lookback. */
  const scopeOf = async (input: SettlementWorkflowInput): Promise<ClaimScope> => {
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
  };

  const stepOf = async (id: string): Promise<SettlementStep> => {
    const s = await store.find(id);
    const step: SettlementStep = { state: s?.state ?? 'open', netPaise: s?.netPaise ?? 0, utr: s?.utr ?? null };
    if (s?.state === 'paid' && (await deps.merchants.settlementWebhookOptedIn(s.merchantIdentifier)))
      step.processedWebhook = true;
    return step;
  };

  /**
   * Applies the merchant's hold to an open or held settlement (nothing changes one further on) and
   * says whether it is held. The flag is read again after moving to held: a release clears the
   * flag before it looks for held settlements to signal, so one of the two sees the other.
   */
  const applyHold = async (id: string, merchantIdentifier: string): Promise<boolean> => {
    const { held } = await settings.get(merchantIdentifier);
    await store.setHeld(id, held);
    if (!held) return false;
    if ((await settings.get(merchantIdentifier)).held) return true;
    await store.setHeld(id, false);
    return false;
  };

  const dueDate = (input: { settlementDate?: string }) => {
    const settlementDate = input.settlementDate ?? istDate(now());
    return { settlementDate, workingDay: isWorkingDay(deps.settlementCalendar, settlementDate) };
  };

  /** Starts the merchant's settlement of the date when anything is due (each id once). */
  const startIfDue = async (input: SettlementWorkflowInput): Promise<MerchantStart> => {
    const scope = await scopeOf(input);
    if (!(await claims.hasDue(scope)) && !(await store.hasParkedOrRefused(input.merchantIdentifier))) return 'nothing_due';
    return (await startSettlement(deps, input)) ? 'started' : 'already_started';
  };

  return {
    /** Creates the settlement (or finds it, on a retry or a repeated run): `held` when the merchant is. */
    async openSettlement(input: SettlementWorkflowInput): Promise<SettlementStep> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const { held } = await settings.get(input.merchantIdentifier);
      const s = await store.open(id, input.merchantIdentifier, input.settlementDate, held, now());
      if (s.state === 'open' || s.state === 'held') await applyHold(id, input.merchantIdentifier);
      return stepOf(id);
    },

    /** One page of claims and lines (SETTLEMENT_PAGE_SIZE transactions); `next` null when the phase is done. */
    async claimSettlementPage(input: ClaimPageInput): Promise<{ lines: number; next: ClaimCursor | null }> {
      const scope = await scopeOf(input);
      if (input.phase === 'sales') return claims.claimSales(scope, input.cursor, SETTLEMENT_PAGE_SIZE);
      return claims.claimAdjustments(scope, input.cursor, SETTLEMENT_PAGE_SIZE);
    },

    /**
     * Sums the lines (after adopting split shares parked for this merchant), takes in what earlier
     * settlements carried out, and decides: a positive net is paid, anything else carried forward.
     */
    async totalSettlement(input: SettlementWorkflowInput): Promise<SettlementStep & { pay: boolean }> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const before = await store.find(id);
      if (before && before.state !== 'open') return { ...(await stepOf(id)), pay: before.state === 'payout_requested' };
      await store.adoptParkedLines(input.merchantIdentifier, id, input.settlementDate);
      const totals = await store.totals(id);
      const carriedIn = await store.takeCarried(input.merchantIdentifier, id, input.settlementDate);
      await store.setTotals(id, totals, carriedIn);
      const outcome = settlementOutcome(totals.linesNetPaise, carriedIn);
      if (!outcome.pay) await store.carryForward(id);
      return { ...(await stepOf(id)), pay: outcome.pay };
    },

    ...createPayoutActivities(deps, { applyHold, stepOf }),

    /**
     * The daily starter of runs begun before each merchant had its own start (patch
     * settlement-day-per-merchant): every merchant in one activity.
     */
    async startDueSettlements(input: { settlementDate?: string }): Promise<{ settlementDate: string; started: number }> {
      const { settlementDate, workingDay } = dueDate(input);
      if (!workingDay) return { settlementDate, started: 0 };
      let started = 0;
      for (const merchantIdentifier of await store.merchantIdentifiers())
        if ((await startIfDue({ merchantIdentifier, settlementDate })) === 'started') started++;
      return { settlementDate, started };
    },

    /** The date the daily run settles (today in IST when not given) and whether it is a working day (none start otherwise). */
    async settlementRunDate(input: { settlementDate?: string }): Promise<{ settlementDate: string; workingDay: boolean }> {
      return dueDate(input);
    },

    /** A page of merchants for the daily run, in identifier order; `next` (the last one) null at the end. */
    async settlementMerchantsPage(input: {
      after: string | null;
      limit: number;
    }): Promise<{ merchants: string[]; next: string | null }> {
      const merchants = await store.merchantIdentifiersAfter(input.after, input.limit);
      return { merchants, next: merchants.length < input.limit ? null : merchants[merchants.length - 1]! };
    },

    /**
     * One merchant's part of the daily run, an activity of its own so a merchant whose data cannot
     * be read (or whose start fails) is retried and reported alone while the others start.
     */
    async startMerchantSettlement(input: SettlementWorkflowInput): Promise<MerchantStart> {
      try {
        const outcome = await startIfDue(input);
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

    /**
     * Compares the bank's settlement file of a date with the settlements paid that date: each
     * difference is recorded once (settlement_differences), never written over the settlement.
     */
    async reconcileSettlementFile(input: { date: string }): Promise<{ payouts: number; differences: number }> {
      const file = await deps.payouts.settlementFile(input.date);
      const ours = await store.paidOn(input.date);
      const atBank = new Map(file.map((p) => [p.payoutId, p]));
      const known = new Map((await store.findByPayoutIds(file.map((p) => p.payoutId))).map((s) => [s._id, s]));
      for (const s of ours) known.set(s._id, s);
      let differences = 0;
      const record = async (
        payoutId: string,
        kind: 'missing_at_bank' | 'unknown_to_gateway' | 'amount_differs' | 'utr_differs',
      ) => {
        const s = known.get(payoutId);
        const b = atBank.get(payoutId);
        const recorded = await store.recordDifference({
          _id: `${input.date}:${payoutId}:${kind}`,
          date: input.date,
          payoutId,
          merchantIdentifier: s?.merchantIdentifier ?? b?.merchantIdentifier ?? null,
          kind,
          gateway: s ? { amountPaise: s.netPaise, utr: s.utr ?? null, state: s.state } : null,
          bank: b ? { amountPaise: b.amountPaise, utr: b.utr } : null,
          foundAt: now(),
        });
        if (recorded) differences++;
      };
      for (const s of ours) if (!atBank.has(s._id)) await record(s._id, 'missing_at_bank');
      for (const b of file) {
        const s = known.get(b.payoutId);
        if (!s || (s.state !== 'paid' && s.state !== 'payout_requested')) await record(b.payoutId, 'unknown_to_gateway');
        else {
          if (s.netPaise !== b.amountPaise) await record(b.payoutId, 'amount_differs');
          if (s.utr && s.utr !== b.utr) await record(b.payoutId, 'utr_differs');
        }
      }
      return { payouts: file.length, differences };
    },

    /** The previous working day (the date whose bank file the starter reconciles). */
    async previousWorkingDay(input: { settlementDate: string }): Promise<string> {
      let d = addDays(input.settlementDate, -1);
      while (!isWorkingDay(deps.settlementCalendar, d)) d = addDays(d, -1);
      return d;
    },
  };
}

/** Starts `settlement:<merchant>:<date>` unless it exists, running or closed; true when this call started it. */
export async function startSettlement(
  deps: { temporal: Client; taskQueue: string },
  input: SettlementWorkflowInput,
): Promise<boolean> {
  try {
    await deps.temporal.workflow.start<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
      workflowId: settlementId(input.merchantIdentifier, input.settlementDate),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    return true;
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw e;
  }
}

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;
