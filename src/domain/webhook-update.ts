import type { ChargebackChange, RefundStatus } from './transaction';
import { TxnStatus, type TxnStatusName } from './txn-status';
import { contentDeliveryId } from './webhook-id';
import { lateEntry } from './webhook-late';

/**
 * A change to a transaction after its outcome, as the code that made it recorded it: a refund the
 * bank settled (SUCCESS, or FAILED, which gives its amount back and moves txnStatus back) or a
 * chargeback raised or reverted. Each is pushed to the merchant as one non-real-time call built
 * from this record alone, never from the transaction's later state.
 */
export type RecordedUpdate =
  | {
      kind: 'refund';
      orderId: string;
      merchantRefId: string;
      amountPaise: number;
      refundStatus: Exclude<RefundStatus, 'PENDING'>;
      /** The transaction's status once the refund was settled. */
      txnStatus: TxnStatusName;
      /** ISO instant of the change. */
      at: string;
    }
  | ChargebackChange;

/**
 * The non-real-time `txnData` of an update (docs/merchants/webhooks.md): the contract's short entry
 * (amount in paise, orderid, txnDate) with what changed. A refund outcome goes in `refunds` with
 * its merchantRefId, refundStatus and the txnStatus it left; a chargeback in `txns` with its
 * chargebackAmount and the txnStatus. txnStatus is the status API's code.
 */
export function updateTxnData(merchantIdentifier: string, u: RecordedUpdate) {
  const txnStatus = String(TxnStatus[u.txnStatus]);
  const entry = lateEntry({
    kind: u.kind === 'refund' ? 'refund' : 'txn',
    orderId: u.orderId,
    amountPaise: u.amountPaise,
    at: u.at,
  });
  return u.kind === 'refund'
    ? {
        merchantIdentifier,
        txns: [],
        refunds: [{ ...entry, merchantRefId: u.merchantRefId, refundStatus: u.refundStatus, txnStatus }],
      }
    : {
        merchantIdentifier,
        txns: [{ ...entry, chargebackAmount: u.chargebackAmountPaise, txnStatus }],
        refunds: [],
      };
}

/** The update's delivery id: one per refund outcome, one per chargeback change. */
export function updateDeliveryId(merchantIdentifier: string, u: RecordedUpdate): string {
  return u.kind === 'refund'
    ? contentDeliveryId('rf', merchantIdentifier, [u.orderId, u.merchantRefId])
    : contentDeliveryId('cb', merchantIdentifier, [u.orderId, u.version]);
}
