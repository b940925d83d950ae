/*
 * The mandate debit workflow's contract (workflows/mandate-debit.ts): what it is started with and
 * what it ends with. Kept apart from the workflow so the activities that start debits need not
 * import the workflow (which imports the activities' types: an import cycle).
 */

/** How a debit ended: executed (1111), failed (1112), lapsed unconfirmed, or cancelled before the bank. */
export type MandateDebitResult = 'executed' | 'executionFailed' | 'executionLapsed' | 'executionCancelled';

export interface MandateDebitInput {
  merchantIdentifier: string;
  mandateOrderId: string;
  /** The debit's own order and transaction (the notify's orderDetail.orderId; the first debit's, held for it at create). */
  orderId: string;
  txnId: string;
  amountPaise: number;
  payerVpa: string;
  /** When the debit runs, ms since the epoch. */
  executeAtMs: number;
  /** false: the merchant confirms (action execute) from executeAt until 24 hours after it, or it lapses. */
  autoExecute: boolean;
  /** Retries after a failed attempt (the contract's executions: 3; the first debit: 0). */
  maxRetries: number;
  retryIntervalMs: number;
  /** The first debit runs at once on the payer's approval, a customer-initiated debit: no peak rule. */
  customerInitiated?: boolean;
  /** false only where the point is not the webhook (workflow tests); absent means send it. */
  realtimeWebhook?: boolean;
}

export interface MandateDebitOutcome {
  result: MandateDebitResult;
  status: string;
  attempts: number;
}

export const MANDATE_DEBIT_WORKFLOW_TYPE = 'mandateDebitWorkflow';

/** The workflow's signature, for a typed start by name. */
export type MandateDebitWorkflow = (input: MandateDebitInput) => Promise<MandateDebitOutcome>;
