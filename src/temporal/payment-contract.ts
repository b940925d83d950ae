import type { BankPaymentRequest } from '../bank/connector';

/*
 * The payment workflow's contract (workflows/payment.ts): its type name, what it is started with,
 * what it ends with, and the failure types its activities end with. Its signals, updates and queries
 * are in payment-messages.ts, its id in workflow-ids.ts. The client code that starts it imports this,
 * never the workflow.
 */

export const PAYMENT_WORKFLOW_TYPE = 'paymentWorkflow';

export interface PaymentWorkflowInput extends BankPaymentRequest {
  orderId: string;
  /** How long to wait for a bank that accepted the request but has not answered. */
  bankTimeoutMs: number;
  /** Dynamic QR: how long the order waits for its payer (who brings the instrument) before it fails. */
  awaitPayerMs?: number;
  /** false only where the point is not the webhook (workflow tests); absent means send it. */
  realtimeWebhook?: boolean;
}

export interface PaymentWorkflowResult {
  txnId: string;
  status: string;
  markedFailedByService: boolean;
}

/** The workflow's signature, for a typed start by name. */
export type PaymentWorkflow = (input: PaymentWorkflowInput) => Promise<PaymentWorkflowResult>;

/**
 * Non-retryable failure types of the payment's activities (ApplicationFailure types); the bank's
 * own (a refused request, an answer about another id) are BankFailure in src/bank/connector.ts.
 */
export const PaymentFailure = {
  /** The transaction to record does not exist. */
  TRANSACTION_NOT_FOUND: 'TransactionNotFound',
} as const;
