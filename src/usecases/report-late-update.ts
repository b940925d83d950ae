import type { Client } from '@temporalio/client';
import type { Transaction } from '../domain/transaction';
import type { LateUpdate } from '../domain/webhook-late';
import { webhookBatchWorkflowClient } from '../temporal/webhook-batch-client';

export interface LateUpdateDeps {
  temporal: Client;
  taskQueue: string;
  webhookBatchWindowMs: number;
  /** Late updates a batch run takes before it continues as new (default SIGNALS_PER_RUN; tests lower it). */
  webhookBatchSignalsPerRun?: number;
}

/**
 * Reports an update after the fact (a reconciliation success, an auto-refund) for the merchant's
 * non-real-time webhook: it joins the merchant's batching workflow, started if it is not running.
 */
export async function reportLateUpdate(deps: LateUpdateDeps, merchantIdentifier: string, update: LateUpdate): Promise<void> {
  await webhookBatchWorkflowClient(deps.temporal).addLateUpdate(
    deps.taskQueue,
    {
      merchantIdentifier,
      windowMs: deps.webhookBatchWindowMs,
      ...(deps.webhookBatchSignalsPerRun === undefined ? {} : { signalsPerRun: deps.webhookBatchSignalsPerRun }),
    },
    update,
  );
}

/** A delayed success (from reconciliation) as the non-real-time webhook carries it: at its success time. */
export function delayedSuccessUpdate(t: Pick<Transaction, 'orderId' | 'amountPaise' | 'successAt'>, now: Date): LateUpdate {
  return { kind: 'txn', orderId: t.orderId, amountPaise: t.amountPaise, at: (t.successAt ?? now).toISOString() };
}
