import type { DeliveryOrderEvent } from '../src/domain/webhook-delivery';
import type { TransactionRepository } from '../src/store/transaction-repository';

/**
 * The rule that keeps a merchant's last word of an order current: a call reporting an order's change
 * is not sent once the order has a later change of the same kind, so a retry of a stale one never
 * arrives after the newer one. A real-time call built from outcome n is superseded by outcome n+1
 * (a Failure turned into a delayed success, which its non-real-time call reports); a chargeback
 * raise's retries by its revert. A chargeback change is always attempted once, though: a change not
 * yet told when the next was recorded (a crash between its write and its delivery's start) still
 * reaches the merchant, so a newer change never hides an untold one; a replay (sent by staff or an
 * operator) of a stale change is superseded from its first attempt, its change having been told. Ordering is by the numbers written in the store write that records
 * each change and kept with the delivery, read before every attempt: a worker that crashed between
 * any two steps decides on what the store holds, never on timing.
 */
export async function supersedingChange(
  transactions: Pick<TransactionRepository, 'outcomeSeqs'>,
  merchantIdentifier: string,
  event: DeliveryOrderEvent | undefined,
  /** No attempt of this delivery is logged yet (a first attempt repeated after a crash has one). */
  untold: boolean,
): Promise<string | null> {
  // Calls of no such change (late updates, refund outcomes, settlements) and calls stored before
  // changes were numbered are never superseded.
  if (event === undefined || ('chargebackVersion' in event && untold && !event.replay)) return null;
  const latest = await transactions.outcomeSeqs.of({ merchantIdentifier, orderId: event.orderId });
  if (latest === null) return null;
  if ('outcomeSeq' in event) return latest.outcomeSeq > event.outcomeSeq ? `outcome ${latest.outcomeSeq} of the order` : null;
  return latest.chargebackVersion > event.chargebackVersion ? `chargeback change ${latest.chargebackVersion} of the order` : null;
}
