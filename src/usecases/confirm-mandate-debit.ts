import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { paiseToWire } from '../domain/money';
import { formatIstDateTime } from '../domain/ist-time';
import { isInPeakWindow } from '../domain/peak-windows';
import type { Merchant } from '../domain/merchant';
import { mandateDebitWorkflowClient } from '../temporal/mandate-debit-client';
import type { MandateAnswer, MandateDeps } from './create-mandate';

/**
 * `action: execute`: the merchant confirms a notified debit whose autoExecute was false. Accepted
 * only while the debit waits for it (executionDate to 24 hours after) and outside the peak windows
 * (the contract's rule 1: 1118, by the injectable clock; the merchant confirms again after the
 * window); the debit then runs at once.
 */
export async function confirmMandateDebit(
  deps: MandateDeps,
  merchant: Merchant,
  r: { orderId: string; mandateParentOrderId: string },
): Promise<MandateAnswer> {
  const merchantIdentifier = merchant.merchantIdentifier;
  const parent = await deps.mandates.findByOrder({ merchantIdentifier, orderId: r.mandateParentOrderId });
  if (!parent) return { key: 'parentNotFound', bankPostData: null };
  const debit = await deps.transactions.findByOrder({ merchantIdentifier, orderId: r.orderId });
  const nothing: MandateAnswer = { key: 'nothingToExecute', bankPostData: null };
  if (!debit || debit.instrument.kind !== 'UPI_MANDATE' || debit.instrument.mandateOrderId !== parent.orderId) return nothing;
  const now = deps.now();
  if (isInPeakWindow(now)) return { key: 'peakTime', bankPostData: null };
  try {
    await mandateDebitWorkflowClient(deps.temporal).confirm({ merchantIdentifier, orderId: r.orderId });
  } catch (e) {
    if (e instanceof WorkflowUpdateFailedError || e instanceof WorkflowNotFoundError) return nothing;
    throw e;
  }
  return {
    key: 'executeConfirmed',
    bankPostData: { amount: paiseToWire(debit.amountPaise), initDateTime: formatIstDateTime(now) },
  };
}
