import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { PaymentInstrument } from '../domain/instrument';
import type { OrderRef } from '../store/transaction-repository';
import { paymentWorkflowClient } from '../temporal/payment-client';
import type { PaymentStage } from '../temporal/payment-messages';
import { offerPayer } from './pay-qr';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

/** The orders a payer pays on a page of ours: a payment link's, a hosted checkout's. */
export type PageOrderKind = 'PAYMENT_LINK' | 'CHECKOUT';

/**
 * A payer pays an order that waits for one on its page (payment link, hosted checkout). The
 * order's payment workflow takes the first payer and refuses every other (two payers at the same
 * moment never both pay); it is started first if its start has not happened yet.
 */
export async function payWaitingOrder(
  deps: StartPaymentDeps,
  order: OrderRef,
  kind: PageOrderKind,
  payer: PaymentInstrument,
): Promise<'accepted' | 'notOpen'> {
  if (!(await ensureOpen(deps, order, kind))) return 'notOpen';
  return (await offerPayer(deps.temporal, order, payer)) ? 'accepted' : 'notOpen';
}

/**
 * The payer cancels a hosted checkout: its workflow records Failure 102, unless it is no longer
 * waiting for a payer (paid, being paid, expired, cancelled already).
 */
export async function cancelWaitingOrder(
  deps: StartPaymentDeps,
  order: OrderRef,
  kind: PageOrderKind,
): Promise<'cancelled' | 'notOpen'> {
  if (!(await ensureOpen(deps, order, kind))) return 'notOpen';
  try {
    await paymentWorkflowClient(deps.temporal).cancelByPayer(order);
    return 'cancelled';
  } catch (e) {
    if (e instanceof WorkflowUpdateFailedError || e instanceof WorkflowNotFoundError) return 'notOpen';
    throw e;
  }
}

/** The order is Pending, of that kind, before its deadline; its workflow is made sure to run. */
async function ensureOpen(deps: StartPaymentDeps, order: OrderRef, kind: PageOrderKind): Promise<boolean> {
  const t = await deps.transactions.findByOrder(order);
  if (!t || t.status !== 'Pending' || t.instrument.kind !== kind) return false;
  if (t.payerDeadline && t.payerDeadline.getTime() <= deps.now().getTime()) return false;
  await ensurePaymentWorkflow(deps, t);
  return true;
}

/** Where the order's payment workflow is; a workflow not started yet is waiting for its payer all the same. */
export async function paymentStage(deps: Pick<StartPaymentDeps, 'temporal'>, order: OrderRef): Promise<PaymentStage> {
  try {
    return await paymentWorkflowClient(deps.temporal).stage(order);
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return 'awaiting-payer';
    throw e;
  }
}
