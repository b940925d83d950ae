import type { Paise } from './money';
import type { RefundEntry, Transaction } from './transaction';
import type { TxnStatusName } from './txn-status';

/**
 * Zaakpay's Update/Refund API codes. Every one is answered with HTTP 200, a missing or wrong
 * checksum too, as Zaakpay answers them.
 */
export const RefundResponse = {
  fullRefundInitiated: { code: '230', description: 'Transaction Refund Initiated' },
  partialRefundInitiated: { code: '245', description: 'Transaction Partial Refund Initiated' },
  updateDesiredBlank: { code: '184', description: 'Update Desired blank' },
  updateDesiredInvalid: { code: '185', description: 'Update Desired not valid' },
  updateReasonBlank: { code: '186', description: 'Update Reason blank' },
  updateReasonInvalid: { code: '187', description: 'Update Reason not valid' },
  checksumBlank: { code: '189', description: 'Checksum was blank' },
  checksumMismatch: { code: '180', description: 'Checksum does not match' },
  notProcessed: { code: '190', description: 'orderId either not processed or rejected' },
  cannotRefund: { code: '201', description: 'Transaction cannot be refunded' },
  refIdReused: { code: '21', description: 'Some refunds already scheduled with bank' },
} as const;
export type RefundResponseKey = keyof typeof RefundResponse;

export type UpdateDesired = '14' | '22';
export const UPDATE_REASON = /^[A-Za-z0-9 ]{5,30}$/;

/** The sandbox bank fails refunds given this reason, so every refund status can be produced. */
export const SANDBOX_FAIL_REASON = 'sandbox fail';

/** Checks on updateDesired and updateReason, in Zaakpay's order; null when both are fine. */
export function refundRequestProblem(updateDesired: unknown, updateReason: unknown): RefundResponseKey | null {
  if (updateDesired === undefined || updateDesired === null || updateDesired === '') return 'updateDesiredBlank';
  if (updateDesired !== '14' && updateDesired !== '22') return 'updateDesiredInvalid';
  if (updateReason === undefined || updateReason === null || updateReason === '') return 'updateReasonBlank';
  if (typeof updateReason !== 'string' || !UPDATE_REASON.test(updateReason)) return 'updateReasonInvalid';
  return null;
}

export const refundablePaise = (t: Transaction): Paise => t.amountPaise - (t.refundReservedPaise ?? 0);

const REFUNDABLE_STATES: readonly TxnStatusName[] = ['Success', 'PartialRefund', 'Refund'];

export type RefundDecision =
  { ok: true; amountPaise: Paise; statusAfter: TxnStatusName } | { ok: false; response: RefundResponseKey };

/** What a new refund of `t` may be: the whole remainder (14) or `amountPaise` of it (22). */
export function decideRefund(t: Transaction, updateDesired: UpdateDesired, amountPaise: Paise | undefined): RefundDecision {
  if (!REFUNDABLE_STATES.includes(t.status)) return { ok: false, response: 'notProcessed' };
  const remaining = refundablePaise(t);
  const amount = updateDesired === '14' ? remaining : amountPaise!;
  if (remaining <= 0 || amount <= 0 || amount > remaining) return { ok: false, response: 'cannotRefund' };
  return { ok: true, amountPaise: amount, statusAfter: statusForReserved(t.amountPaise, (t.refundReservedPaise ?? 0) + amount) };
}

/**
 * txnStatus after refunds: 3 when nothing remains, 4 while something does, Success when none stands.
 * A refund the bank fails undoes its own step back (4 -> 0, 3 -> 4 or 0): that is the refund not
 * having happened, not a transition of its own, so txn-status.ts keeps the table of design.md, Transactions and states, as it is.
 */
export function statusForReserved(amountPaise: Paise, reservedPaise: Paise): TxnStatusName {
  if (reservedPaise <= 0) return 'Success';
  return reservedPaise >= amountPaise ? 'Refund' : 'PartialRefund';
}

/** Whether a repeat with the same merchantRefId is the same request (else code 21). */
export function sameRefundRequest(existing: RefundEntry, updateDesired: UpdateDesired, amountPaise: Paise | undefined): boolean {
  if (existing.updateDesired !== updateDesired) return false;
  return updateDesired === '14'
    ? amountPaise === undefined || amountPaise === existing.amountPaise
    : amountPaise === existing.amountPaise;
}

export const refundInitiated = (updateDesired: UpdateDesired): RefundResponseKey =>
  updateDesired === '14' ? 'fullRefundInitiated' : 'partialRefundInitiated';

/**
 * How long a refund request sent without a merchantRefId answers as the first one: the same signed
 * request again within it is the merchant's retry (or a replay of a captured request), not a refund.
 */
export const REFUND_REPLAY_WINDOW_MS = 24 * 3_600_000;

/** Where a refund request without a merchantRefId came in, and the text its checksum covers. */
export interface SignedRefundRequest {
  entry: 'updateTxn' | 'updatetransaction';
  signedText: string;
}

/** A refund as the merchant APIs (and an auto-refund) ask for it. */
export type RefundRequest = {
  merchantIdentifier: string;
  orderId: string;
  updateDesired: UpdateDesired;
  /** Required for a partial refund (22); a full refund (14) refunds what remains. */
  amountPaise?: Paise;
  updateReason: string;
  /** An auto-refund of a delayed success (reported to the non-real-time webhook when it succeeds). */
  auto?: boolean;
} & (
  | { /** The merchant's id of this refund: its idempotency key. */ merchantRefId: string }
  | {
      merchantRefId?: undefined;
      /** Without a merchantRefId, the signed request is the key for REFUND_REPLAY_WINDOW_MS (refundIdOf). */
      signedRequest: SignedRefundRequest;
    }
);

/** What a refund request answers: its code, and the merchantRefId it goes by. */
export interface RefundResult {
  response: RefundResponseKey;
  merchantRefId: string;
}
