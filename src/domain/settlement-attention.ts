import type {
  Settlement,
  SettlementDifference,
  SettlementFileCheck,
  SettlementStartFailure,
  SettlementState,
} from './settlement';
import { addDays } from './settlement-calendar';

/** Differences found in the bank's files of this many last days are listed (and looked at again). */
export const DIFFERENCE_DAYS = 7;

/** The dates whose differences are listed: `date` and the DIFFERENCE_DAYS - 1 before it. */
export const differenceDates = (date: string): string[] => Array.from({ length: DIFFERENCE_DAYS }, (_, i) => addDays(date, -i));

/**
 * Why a settlement needs an operator. A settlement that is not final is listed once it has been
 * in its state longer than that state allows, or at once when its workflow stopped (failed,
 * terminated, timed out) without finishing it; one with no workflow at all once past its time.
 */
export const ATTENTION_REASONS = [
  'workflow_failed',
  'workflow_terminated',
  'workflow_timed_out',
  'workflow_not_running',
  'open_too_long',
  'held_too_long',
  'payout_pending_too_long',
  'payout_refused',
  'not_started',
  'bank_file_failed',
  'bank_difference',
] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

/** States a settlement's workflow still has to move on from: the ones that can be stuck. */
export const UNFINISHED_SETTLEMENT_STATES = ['open', 'held', 'payout_requested'] as const satisfies readonly SettlementState[];
export type UnfinishedState = (typeof UNFINISHED_SETTLEMENT_STATES)[number];

/** How long each unfinished state may last before it is listed (SETTLEMENT_ATTENTION_*_MINUTES), in ms. */
export interface AttentionThresholds {
  openMs: number;
  heldMs: number;
  payoutMs: number;
}

export const thresholdOf = (t: AttentionThresholds, state: UnfinishedState) =>
  state === 'open' ? t.openMs : state === 'held' ? t.heldMs : t.payoutMs;

/** Temporal's status of a settlement's workflow, as far as the reason goes (null: no such workflow). */
export type WorkflowRunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'TERMINATED' | 'TIMED_OUT' | 'OTHER' | null;

/** Since when the settlement has been in its state, as far as its fields tell. */
export const stateSince = (s: Pick<Settlement, 'state' | 'createdAt'> & { payoutRequestedAt?: Date }): Date =>
  s.state === 'payout_requested' && s.payoutRequestedAt ? s.payoutRequestedAt : s.createdAt;

/**
 * The reason an unfinished settlement is listed, or null while it is within its time and its
 * workflow runs. A workflow that ended without a final state is the reason first (a re-run is the
 * cure); otherwise the state that lasted too long.
 */
export function unfinishedReason(
  s: Pick<Settlement, 'state' | 'createdAt'> & { payoutRequestedAt?: Date },
  workflow: WorkflowRunStatus,
  now: Date,
  t: AttentionThresholds,
): AttentionReason | null {
  if (workflow === 'FAILED') return 'workflow_failed';
  if (workflow === 'TERMINATED') return 'workflow_terminated';
  if (workflow === 'TIMED_OUT') return 'workflow_timed_out';
  if (workflow !== 'RUNNING') return 'workflow_not_running';
  const state = s.state as UnfinishedState;
  if (now.getTime() - stateSince(s).getTime() < thresholdOf(t, state)) return null;
  return state === 'open' ? 'open_too_long' : state === 'held' ? 'held_too_long' : 'payout_pending_too_long';
}

/** A settlement not final in time (or whose workflow stopped), with why, and its workflow's status. */
export type UnfinishedSettlement = Pick<
  Settlement,
  '_id' | 'merchantIdentifier' | 'settlementDate' | 'state' | 'netPaise' | 'createdAt' | 'payoutRequestedAt'
> & { reason: AttentionReason; workflow: string };

/** Everything about settlements an operator must look at, each list bounded. */
export interface SettlementsNeedingAttention {
  unfinished: UnfinishedSettlement[];
  refused: Settlement[];
  held: Settlement[];
  notStarted: SettlementStartFailure[];
  bankFileFailures: SettlementFileCheck[];
  differences: SettlementDifference[];
}
