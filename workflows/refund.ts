import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { RefundActivities } from '../activities/refund-activities';
import type { TxnStatusName } from '../src/domain/txn-status';
import { updateDeliveryId, type RecordedUpdate } from '../src/domain/webhook-update';
import type { RefundRecorded, RefundWorkflowInput } from '../src/temporal/refund-contract';
import { TxnStatusKey } from '../src/temporal/search-attributes';
import { deliverWebhook } from './realtime-webhook';

const { requestBankRefund, recordRefundOutcome, reportRefundLate } = proxyActivities<RefundActivities>({
  startToCloseTimeout: '30 seconds',
  // The bank and the store may be down for a while; a refund is never abandoned half way.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One refund of one order (workflow id `refund:<merchant>:<orderId>:<merchantRefId>`): the amount
 * was reserved when the refund was accepted; ask the bank, then record SUCCESS or FAILED once.
 */
export async function refundWorkflow(input: RefundWorkflowInput): Promise<RefundRecorded> {
  const answer = await requestBankRefund({
    refundId: `${input.txnId}:${input.merchantRefId}`,
    txnId: input.txnId,
    bankRefNum: input.bankRefNum,
    amountPaise: input.amountPaise,
    reason: input.reason,
  });
  const recorded = await recordRefundOutcome({
    merchantIdentifier: input.merchantIdentifier,
    orderId: input.orderId,
    merchantRefId: input.merchantRefId,
    answer,
  });
  const joinsLateBatch = input.reportLate && recorded.refundStatus === 'SUCCESS';
  if (joinsLateBatch) {
    await reportRefundLate({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      amountPaise: input.amountPaise,
      completedAt: recorded.completedAt,
    });
  }
  // Every settled refund reaches the merchant (an auto-refund's success through the batch above):
  // whenever the stored outcome is final, not only when this run applied it; the delivery id is the
  // refund's, so a repeat adds nothing.
  if (!joinsLateBatch && recorded.refundStatus !== 'PENDING') {
    const update: RecordedUpdate = {
      kind: 'refund',
      orderId: input.orderId,
      merchantRefId: input.merchantRefId,
      amountPaise: input.amountPaise,
      refundStatus: recorded.refundStatus,
      txnStatus: recorded.txnStatus as TxnStatusName,
      at: recorded.completedAt ?? new Date().toISOString(),
    };
    await deliverWebhook({
      deliveryId: updateDeliveryId(input.merchantIdentifier, update),
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      update,
    });
  }
  upsertSearchAttributes([{ key: TxnStatusKey, value: `refund ${recorded.refundStatus}` }]);
  return recorded;
}
