import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { MandateState } from '../domain/mandate';
import { formatRupees } from '../domain/money';
import { MANDATE_WORKFLOW_TYPE, type MandateWorkflow, type MandateWorkflowInput } from './mandate-contract';
import { notifyDebitUpdate, revokeMandateUpdate, type NotifyDebitRequest, type NotifyDebitResult } from './mandate-messages';
import { KindKey, MandateStateKey, MerchantIdKey, OrderIdKey } from './search-attributes';
import { mandateWorkflowId } from './workflow-ids';

/** The order a mandate's workflow (or a mandate debit's) is named by. */
export interface MandateOrder {
  merchantIdentifier: string;
  orderId: string;
}

/** What Temporal UI shows of a mandate beside its input: the limit and how it was created. */
export interface MandateMemo {
  maxAmountPaise: number;
  mode: string;
}

/**
 * The mandate workflow as its callers see it (workflows/mandate.ts): its id, start options,
 * search attributes and memo, and its updates. Temporal's errors reach the caller as they are
 * (WorkflowUpdateFailedError when the workflow refuses, WorkflowNotFoundError when it is not running).
 */
export function mandateWorkflowClient(temporal: Client) {
  const handle = (m: MandateOrder) => temporal.workflow.getHandle(mandateWorkflowId(m.merchantIdentifier, m.orderId));
  return {
    /**
     * Starts the mandate's workflow unless it exists: a running one is reused, an ended one refused.
     * True when this call started it.
     */
    async startUnlessExists(taskQueue: string, input: MandateWorkflowInput, memo: MandateMemo): Promise<boolean> {
      try {
        await temporal.workflow.start<MandateWorkflow>(MANDATE_WORKFLOW_TYPE, {
          workflowId: mandateWorkflowId(input.merchantIdentifier, input.orderId),
          taskQueue,
          args: [input],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [
            { key: MerchantIdKey, value: input.merchantIdentifier },
            { key: OrderIdKey, value: input.orderId },
            { key: KindKey, value: 'mandate' },
            { key: MandateStateKey, value: 'CREATED' },
          ],
          memo: { txnId: input.txnId, maxAmount: formatRupees(memo.maxAmountPaise), frequency: input.frequency, mode: memo.mode },
        });
        return true;
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw e;
      }
    },

    /** Schedules a debit (notifyDebitUpdate); the update id is the debit's orderId, so a retried call gets the first call's result. */
    notifyDebit: (mandate: MandateOrder, request: NotifyDebitRequest): Promise<NotifyDebitResult> =>
      handle(mandate).executeUpdate(notifyDebitUpdate, { args: [request], updateId: `notify:${request.orderId}` }),

    /** The payer revokes the mandate (revokeMandateUpdate). */
    revoke: (mandate: MandateOrder): Promise<MandateState> => handle(mandate).executeUpdate(revokeMandateUpdate),
  };
}
