import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError } from '../domain/api-errors';
import { newTxnId } from '../domain/identifiers';
import { formatIstDateTime, parseIstDateTime } from '../domain/ist-time';
import { notifyParentProblem, type MandateResponseKey, type NotifyRequest } from '../domain/mandate';
import { paiseToWire } from '../domain/money';
import { notifyTimingProblem } from '../domain/peak-windows';
import type { Merchant } from '../domain/merchant';
import { MandateFailure } from '../temporal/mandate-contract';
import { mandateWorkflowClient } from '../temporal/mandate-client';
import type { NotifyDebitRequest } from '../temporal/mandate-messages';
import type { MandateAnswer, MandateDeps } from './create-mandate';
import { acrossHandOver, refusalType } from './mandate-hand-over';

export type { NotifyRequest };

/**
 * Schedules a debit under an ACTIVE Adhoc mandate: every rule the API can check is checked here
 * against the injectable clock; the mandate workflow then asks the payer's bank (1110 when it
 * refuses) and starts the debit's workflow. A repeat of a scheduled notify answers 1109 again.
 */
export async function notifyMandate(deps: MandateDeps, merchant: Merchant, r: NotifyRequest): Promise<MandateAnswer> {
  const now = deps.now();
  const executeAt = parseIstDateTime(r.executionDate);
  if (!executeAt) throw new ApiError('validationFailed', 'paymentInstrument.upiMandate.executionDate: not a real date and time');
  const merchantIdentifier = merchant.merchantIdentifier;
  const refused = (key: MandateResponseKey): MandateAnswer => ({ key, bankPostData: null });
  const scheduled: MandateAnswer = {
    key: 'notified',
    bankPostData: { amount: paiseToWire(r.amountPaise), initDateTime: formatIstDateTime(executeAt) },
  };

  const parent = await deps.mandates.findByOrder({ merchantIdentifier, orderId: r.mandateParentOrderId });
  if (!parent) return refused('parentNotFound');
  const parentProblem = notifyParentProblem(parent);
  if (parentProblem) return refused(parentProblem);
  // A repeat is answered as the debit stands, before the rules of the clock: a merchant resending a
  // notify its first answer was lost for, once a peak window has begun, learns that it is still
  // scheduled; once the debit has run (or lapsed) it is no longer scheduled, and its orderId is used.
  const existing = await deps.transactions.findByOrder({ merchantIdentifier, orderId: r.orderId });
  if (existing) {
    const same =
      existing.instrument.kind === 'UPI_MANDATE' &&
      existing.instrument.mandateOrderId === parent.orderId &&
      existing.amountPaise === r.amountPaise &&
      existing.executeAt?.getTime() === executeAt.getTime();
    return same && existing.status === 'Pending' ? scheduled : refused('orderIdUsed');
  }
  const timing = notifyTimingProblem(now, executeAt);
  if (timing) return refused(timing === 'leadTimeTooShort' ? 'leadTimeTooShort' : 'peakTime');
  if (executeAt < parent.validFrom || executeAt >= parent.validUntil) return refused('outsideValidity');
  if (r.amountPaise > parent.maxAmountPaise) return refused('amountAboveLimit');

  if (await deps.mandates.findByOrder({ merchantIdentifier, orderId: r.orderId })) return refused('orderIdUsed');

  const request: NotifyDebitRequest = {
    orderId: r.orderId,
    txnId: newTxnId(now),
    amountPaise: r.amountPaise,
    productDescription: r.productDescription,
    executeAtMs: executeAt.getTime(),
    autoExecute: r.autoExecute,
  };
  try {
    const result = await acrossHandOver(() =>
      mandateWorkflowClient(deps.temporal).notifyDebit({ merchantIdentifier, orderId: parent.orderId }, request),
    );
    return result.kind === 'notified' ? scheduled : refused(result.reason);
  } catch (e) {
    // The workflow refused (the mandate ended between our read and the update) or has ended.
    if (e instanceof WorkflowUpdateFailedError)
      return refused(refusalType(e) === MandateFailure.INACTIVE ? 'inactive' : 'parentNotActive');
    if (e instanceof WorkflowNotFoundError) return refused('parentNotActive');
    throw e;
  }
}
