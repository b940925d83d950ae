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
import { ClaimsClosedError } from '../src/store/settlement-claim-fence';
import { heartbeatIfActivity } from './activity-retry';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import {
  SETTLEMENT_PAGE_SIZE,
  SETTLEMENT_START_ATTEMPTS,
  SETTLEMENT_WORKFLOW_TYPE,
  type SettlementWorkflow,
  type SettlementWorkflowInput,
} from '../src/temporal/settlement-contract';
import type { BankPayoutAnswer, BankPayouts } from '../src/bank/connector';

/** The merchant's settlement bank account, opened (settle-merchant's reader, injected). */
export type SettlementAccountReader = (
  merchantIdentifier: string,
) => Promise<{ ifsc: string; accountNumber: string; holderName: string } | null>;

export interface SettlementActivityDeps {
  settlementStore: SettlementRepository;
  settlementClaims: SettlementClaimRepository;
  settlementSettings: SettlementSettingsRepository;
  payouts: BankPayouts;
  settlementAccount: SettlementAccountReader;
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

/** The payout step's answer: held (nothing asked of the bank), or the bank's answer. */
export type PayoutStep = { held: true } | { held: false; answer: BankPayoutAnswer };

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

  /**
   * Asks the bank to pay the net (payoutId = the settlement id, so a retry after a crash is the
   * same payout). Without a bank account the settlement is refused here, the same way a bank refuses.
   */
  const requestPayout = async (input: SettlementWorkflowInput): Promise<BankPayoutAnswer> => {
    const id = settlementId(input.merchantIdentifier, input.settlementDate);
    const s = await store.find(id);
    if (!s) throw new Error(`settlement ${id} does not exist`);
    if (s.state === 'paid') return { status: 'PAID', utr: s.utr ?? null, responseCode: '00', responseDescription: 'Paid' };
    if (s.state === 'payout_refused')
      return { status: 'REFUSED', utr: null, responseCode: 'NO_ACCOUNT', responseDescription: s.failureReason ?? 'refused' };
    const account = await deps.settlementAccount(input.merchantIdentifier);
    if (!account && s.state === 'open') {
      const reason = 'no settlement bank account: set one for the merchant, the net is carried into its next settlement';
      await store.recordRefused(id, reason);
      return { status: 'REFUSED', utr: null, responseCode: 'NO_ACCOUNT', responseDescription: reason };
    }
    if (!account) throw new Error(`settlement ${id}: the bank account disappeared after the payout was requested`);
    await store.markPayoutRequested(id, { ifsc: account.ifsc, accountLast4: account.accountNumber.slice(-4) });
    return deps.payouts.requestPayout({
      payoutId: id,
      merchantIdentifier: input.merchantIdentifier,
      amountPaise: s.netPaise,
      ifsc: account.ifsc,
      accountNumber: account.accountNumber,
    });
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

    /**
     * One page of claims and lines (SETTLEMENT_PAGE_SIZE transactions); `next` null when the phase
     * is done. It writes only under the settlement's claim lease, taken while the settlement is open
     * and its claims not closed by the totals: a late attempt (after the totals) adds nothing.
     */
    async claimSettlementPage(input: ClaimPageInput): Promise<{ lines: number; next: ClaimCursor | null }> {
      const scope = await scopeOf(input);
      const lease = await claims.fence.lease(scope.settlementId, now());
      if (!lease) return { lines: 0, next: null };
      const guard = claims.fence.guard(scope.settlementId, now, lease, heartbeatIfActivity);
      try {
        if (input.phase === 'sales') return await claims.claimSales(scope, input.cursor, SETTLEMENT_PAGE_SIZE, guard.check);
        return await claims.claimAdjustments(scope, input.cursor, SETTLEMENT_PAGE_SIZE, guard.check);
      } catch (e) {
        if (e instanceof ClaimsClosedError) return { lines: 0, next: null };
        throw e;
      } finally {
        await claims.fence.release(scope.settlementId, guard.until());
      }
    },

    /**
     * Sums the lines (after adopting split shares parked for this merchant), takes in what earlier
     * settlements carried out, and decides: a positive net is paid, anything else carried forward.
     */
    async totalSettlement(input: SettlementWorkflowInput): Promise<SettlementStep & { pay: boolean }> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const before = await store.find(id);
      if (before && before.state !== 'open') return { ...(await stepOf(id)), pay: before.state === 'payout_requested' };
      // Totals only from open, once no claim page may write any more (a live lease: retried later).
      const fence = await claims.fence.close(id, now());
      if (fence === 'busy') throw new Error(`settlement ${id}: a claim page still holds its lease; the totals wait for it`);
      if (fence === 'notOpen') {
        const s = await store.find(id);
        return { ...(await stepOf(id)), pay: s?.state === 'payout_requested' };
      }
      await store.adoptParkedLines(input.merchantIdentifier, id, input.settlementDate);
      const totals = await store.totals(id, heartbeatIfActivity);
      const carriedIn = await store.takeCarried(input.merchantIdentifier, id, input.settlementDate);
      await store.setTotals(id, totals, carriedIn);
      const outcome = settlementOutcome(totals.linesNetPaise, carriedIn);
      if (!outcome.pay) await store.carryForward(id);
      return { ...(await stepOf(id)), pay: outcome.pay };
    },

    /** The payout step of settlements started before the hold was checked there (patch settlement-hold-before-payout). */
    requestSettlementPayout: (input: SettlementWorkflowInput) => requestPayout(input),

    /**
     * The payout step: while the merchant is held, an open settlement moves to `held` and nothing is
     * asked of the bank (the workflow waits for the release, then calls again); otherwise the payout
     * is requested. A settlement whose payout was requested already is past any hold: a retry after a
     * crash asks the bank again for the same payout.
     */
    async requestSettlementPayoutUnlessHeld(input: SettlementWorkflowInput): Promise<PayoutStep> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const s = await store.find(id);
      if (s && (s.state === 'open' || s.state === 'held') && (await applyHold(id, input.merchantIdentifier)))
        return { held: true };
      return { held: false, answer: await requestPayout(input) };
    },

    /** The bank's answer now about a PENDING payout (PENDING again when it does not know it yet). */
    async inquireSettlementPayout(input: SettlementWorkflowInput): Promise<BankPayoutAnswer> {
      const answer = await deps.payouts.inquirePayout({ payoutId: settlementId(input.merchantIdentifier, input.settlementDate) });
      return answer ?? { status: 'PENDING', utr: null, responseCode: '09', responseDescription: 'not known to the bank yet' };
    },

    /** Records the bank's final answer: paid with its UTR (stamped on the lines too), or refused and carried forward. */
    async recordSettlementPayout(input: SettlementWorkflowInput & { answer: BankPayoutAnswer }): Promise<SettlementStep> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      if (input.answer.status === 'PAID') await store.recordPaid(id, input.answer.utr ?? '', now());
      else if (input.answer.status === 'REFUSED')
        await store.recordRefused(
          id,
          `the bank refused the payout: ${input.answer.responseCode} ${input.answer.responseDescription}`,
        );
      return stepOf(id);
    },

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
