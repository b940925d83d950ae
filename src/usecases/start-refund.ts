import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Config } from '../config';
import { formatRupees, type Paise } from '../domain/money';
import { decideRefund, refundInitiated, sameRefundRequest, type RefundResponseKey, type UpdateDesired } from '../domain/refund';
import type { RefundEntry, Transaction } from '../domain/transaction';
import type { TransactionRepository } from '../store/transaction-repository';
import { KindKey, MerchantIdKey, OrderIdKey } from '../temporal/search-attributes';
import { refundWorkflowId } from '../temporal/workflow-ids';
import { REFUND_WORKFLOW_TYPE, type RefundWorkflow } from '../temporal/refund-contract';

export interface RefundRequest {
  merchantIdentifier: string;
  orderId: string;
  updateDesired: UpdateDesired;
  /** Required for a partial refund (22); a full refund (14) refunds what remains. */
  amountPaise?: Paise;
  /** The merchant's id of this refund; generated when absent (then a repeat is a new refund). */
  merchantRefId?: string;
  updateReason: string;
  /** An auto-refund of a delayed success (reported to the non-real-time webhook when it succeeds). */
  auto?: boolean;
}

export interface StartRefundDeps {
  transactions: TransactionRepository;
  temporal: Client;
  taskQueue: string;
  now: () => Date;
}

export function startRefundDeps(d: {
  config: Config;
  transactions: TransactionRepository;
  temporal: Client;
  now: () => Date;
}): StartRefundDeps {
  return { transactions: d.transactions, temporal: d.temporal, taskQueue: d.config.TEMPORAL_TASK_QUEUE, now: d.now };
}

export interface RefundResult {
  response: RefundResponseKey;
  merchantRefId: string;
}

/**
 * Accepts a refund: reserves its amount on the transaction (a compare-and-set on the document's
 * version, so concurrent refunds never exceed the amount), then makes sure its workflow runs. The
 * same merchantRefId with the same request answers as the first time and refunds once; a retry
 * also starts a workflow a crash may have left unstarted.
 */
export async function startRefund(deps: StartRefundDeps, r: RefundRequest): Promise<RefundResult> {
  const merchantRefId = r.merchantRefId ?? `gw-${randomBytes(8).toString('hex')}`;
  for (;;) {
    const t = await deps.transactions.findByOrder(r);
    if (!t || t.status === 'Pending' || t.status === 'Failure') return { response: 'notProcessed', merchantRefId };

    const existing = t.refunds.find((e) => e.merchantRefId === merchantRefId);
    if (existing) {
      if (!sameRefundRequest(existing, r.updateDesired, r.amountPaise)) return { response: 'refIdReused', merchantRefId };
      // A settled refund needs no workflow (and once retention has passed, Temporal would start one).
      if (existing.status === 'PENDING') await ensureRefundWorkflow(deps, t, existing);
      return { response: refundInitiated(r.updateDesired), merchantRefId };
    }

    const decision = decideRefund(t, r.updateDesired, r.amountPaise);
    if (!decision.ok) return { response: decision.response, merchantRefId };
    const now = deps.now();
    const entry: RefundEntry = {
      merchantRefId,
      amountPaise: decision.amountPaise,
      rrn: null,
      status: 'PENDING',
      createdAt: now,
      updateDesired: r.updateDesired,
      updateReason: r.updateReason,
      completedAt: null,
      ...(r.auto ? { auto: true } : {}),
    };
    const reserved = await deps.transactions.updateIfUnchanged(r, t.version, {
      set: {
        refundReservedPaise: (t.refundReservedPaise ?? 0) + decision.amountPaise,
        status: decision.statusAfter,
        updatedAt: now,
      },
      pushRefund: entry,
    });
    if (!reserved) continue; // someone changed the order meanwhile: decide again on what it is now
    await ensureRefundWorkflow(deps, reserved, entry);
    return { response: refundInitiated(r.updateDesired), merchantRefId };
  }
}

/**
 * Starts the refund's workflow unless it exists (the sweep heals a crash before the start). Call it
 * only for a refund the store holds PENDING: Temporal forgets a closed workflow after retention.
 */
export async function ensureRefundWorkflow(
  deps: Pick<StartRefundDeps, 'temporal' | 'taskQueue'>,
  t: Transaction,
  e: RefundEntry,
) {
  try {
    await deps.temporal.workflow.start<RefundWorkflow>(REFUND_WORKFLOW_TYPE, {
      workflowId: refundWorkflowId(t.merchantIdentifier, t.orderId, e.merchantRefId),
      taskQueue: deps.taskQueue,
      args: [
        {
          merchantIdentifier: t.merchantIdentifier,
          orderId: t.orderId,
          txnId: t.txnId,
          bankRefNum: t.bankRefNum,
          merchantRefId: e.merchantRefId,
          amountPaise: e.amountPaise,
          reason: e.updateReason ?? '',
          reportLate: e.auto === true,
        },
      ],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: MerchantIdKey, value: t.merchantIdentifier },
        { key: OrderIdKey, value: t.orderId },
        { key: KindKey, value: 'refund' },
      ],
      memo: { txnId: t.txnId, merchantRefId: e.merchantRefId, amount: formatRupees(e.amountPaise), reason: e.updateReason ?? '' },
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}
