import type { RefundStatus } from '../domain/transaction';

/*
 * The refund workflow's contract (workflows/refund.ts): its type name, what it is started with, what
 * it ends with, and the failure types its activities end with. Its id is in workflow-ids.ts.
 */

export const REFUND_WORKFLOW_TYPE = 'refundWorkflow';

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

/** What recording a refund's outcome found and did (the workflow's result). */
export interface RefundRecorded {
  applied: boolean;
  refundStatus: RefundStatus;
  txnStatus: string;
  /** ISO instant the refund was settled (null for an entry settled before this was recorded). */
  completedAt: string | null;
}

/** The workflow's signature, for a typed start by name. */
export type RefundWorkflow = (input: RefundWorkflowInput) => Promise<RefundRecorded>;

/** Non-retryable failure types of the refund's activities (ApplicationFailure types). */
export const RefundFailure = {
  /** The refund entry to record is not on the order (it is written before the workflow starts). */
  REFUND_NOT_FOUND: 'RefundNotFound',
} as const;
