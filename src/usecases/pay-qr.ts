import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { PaymentInstrument } from '../domain/instrument';
import type { Transaction } from '../domain/transaction';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';
import { paymentWorkflowClient } from '../temporal/payment-client';

export type PayQrResult =
  | { kind: 'accepted'; transaction: Transaction }
  | { kind: 'unknownOrder' }
  | { kind: 'notQr'; transaction: Transaction }
  | { kind: 'notOpen'; transaction: Transaction };

/**
 * The sandbox payer scans an order's QR and pays: a dynamic QR's, or a hosted checkout's (its UPI
 * intent or QR answer, or the QR on its page). The order's workflow accepts one payer, only while
 * the order is open (its update validator decides), so a closed, expired or already-paid QR is
 * refused and two payers at once never both pay.
 */
export async function payQr(
  deps: { transactions: TransactionRepository; temporal: Client },
  order: OrderRef,
  payer: PaymentInstrument,
  o: { checkout: boolean } = { checkout: false },
): Promise<PayQrResult> {
  const transaction = await deps.transactions.findByOrder(order);
  if (!transaction) return { kind: 'unknownOrder' };
  if (transaction.qrData === undefined && !o.checkout) return { kind: 'notQr', transaction };
  const open = transaction.status === 'Pending' && ['UPI_QR', 'CHECKOUT'].includes(transaction.instrument.kind);
  if (!open) return { kind: 'notOpen', transaction };
  return { kind: (await offerPayer(deps.temporal, order, payer)) ? 'accepted' : 'notOpen', transaction };
}

/**
 * Offers the payer to the order's waiting payment workflow (dynamic QR, payment link). True when
 * it took this payer; false when it was not waiting for one (paid, claimed, expired or finished).
 */
export async function offerPayer(temporal: Client, order: OrderRef, payer: PaymentInstrument): Promise<boolean> {
  try {
    await paymentWorkflowClient(temporal).offerPayer(order, payer);
    return true;
  } catch (e) {
    // Refused by the validator, or the workflow already finished (expired).
    if (e instanceof WorkflowUpdateFailedError || e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}
