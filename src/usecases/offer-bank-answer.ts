import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { BankAnswer } from '../bank/connector';
import type { OrderRef } from '../store/transaction-repository';
import { paymentWorkflowClient } from '../temporal/payment-client';

/**
 * Offers a bank's late answer (a callback, a reconciliation line) to the order's payment workflow.
 * true: the workflow took it and records it. false: it has decided, finished, or is not running
 * (not started yet); the caller reads the transaction again and applies the answer to what it finds
 * (a delayed success), or refuses it so its sender retries: never taken and dropped.
 */
export async function offerBankAnswer(temporal: Client, order: OrderRef, answer: BankAnswer): Promise<boolean> {
  try {
    await paymentWorkflowClient(temporal).offerBankAnswer(order, answer);
    return true;
  } catch (e) {
    if (e instanceof WorkflowUpdateFailedError || e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}
