import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { RefundActivities, RefundRecorded } from '../activities/refund-activities';
import { TxnStatusKey } from '../src/temporal/search-attributes';

export interface RefundWorkflowInput {
  merchantIdentifier: string;
  orderId: string;
  txnId: string;
  bankRefNum: string | null;
  merchantRefId: string;
  amountPaise: number;
  reason: string;
  /** An auto-refund: once it succeeds, it joins the merchant's non-real-time webhook. */
  reportLate?: boolean;
}

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
  if (input.reportLate && recorded.refundStatus === 'SUCCESS') {
    await reportRefundLate({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      amountPaise: input.amountPaise,
      completedAt: recorded.completedAt,
    });
  }
  upsertSearchAttributes([{ key: TxnStatusKey, value: `refund ${recorded.refundStatus}` }]);
  return recorded;
}
