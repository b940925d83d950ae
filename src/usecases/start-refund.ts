import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import {
  decideRefund,
  REFUND_REPLAY_WINDOW_MS,
  refundInitiated,
  sameRefundRequest,
  type RefundRequest,
  type RefundResult,
} from '../domain/refund';
import type { RefundEntry, Transaction } from '../domain/transaction';
import type { RefundRequestRepository } from '../store/refund-request-repository';
import type { TransactionRepository } from '../store/transaction-repository';
import { refundWorkflowClient } from '../temporal/refund-client';

export type { RefundRequest, RefundResult };

export interface StartRefundDeps {
  transactions: TransactionRepository;
  /** Needed by requests without a merchantRefId only (the merchant APIs'); an auto-refund names its id. */
  refundRequests?: RefundRequestRepository;
  temporal: Client;
  taskQueue: string;
  now: () => Date;
}

export function startRefundDeps(d: {
  config: Pick<Config, 'temporal'>;
  transactions: TransactionRepository;
  refundRequests: RefundRequestRepository;
  temporal: Client;
  now: () => Date;
}): StartRefundDeps {
  return {
    transactions: d.transactions,
    refundRequests: d.refundRequests,
    temporal: d.temporal,
    taskQueue: d.config.temporal.taskQueue,
    now: d.now,
  };
}

/**
 * Accepts a refund: reserves its amount on the transaction (a compare-and-set on the document's
 * version, so concurrent refunds never exceed the amount), then makes sure its workflow runs. The
 * same merchantRefId with the same request answers as the first time and refunds once (so does the
 * same signed request without one, for a day: refundIdOf); a retry also starts a workflow a crash
 * may have left unstarted.
 */
export async function startRefund(deps: StartRefundDeps, r: RefundRequest): Promise<RefundResult> {
  let claimed = r.merchantRefId;
  // The id the gateway gave this exact signed request (no merchantRefId sent): the text is the
  // first request's by construction, so it is the same refund whatever the amount field held.
  const byRequest = claimed === undefined;
  for (;;) {
    const t = await deps.transactions.findByOrder(r);
    // An order that cannot be refunded stores nothing, not even a request's id.
    if (!t || t.status === 'Pending' || t.status === 'Failure')
      return { response: 'notProcessed', merchantRefId: claimed ?? newRefundId() };
    const merchantRefId = (claimed ??= await refundIdOf(deps, r));

    const existing = t.refunds.find((e) => e.merchantRefId === merchantRefId);
    if (existing) {
      // The bank failed the first: that refund moved no money, so the same request asks again.
      if (byRequest && existing.status === 'FAILED') {
        claimed = await refundIdOf(deps, r, merchantRefId);
        continue;
      }
      if (!byRequest && !sameRefundRequest(existing, r.updateDesired, r.amountPaise))
        return { response: 'refIdReused', merchantRefId };
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
 * The merchantRefId of a request sent without one: the same merchant's same signed text at the same
 * entry point within REFUND_REPLAY_WINDOW_MS gets the id the first one got, so it answers as the
 * first and refunds once; later it is a new refund. The id is stored before any refund starts under
 * it: a crash after the store leaves an id with no refund, which the retry then starts (once, by the
 * refund's own idempotency on merchantRefId); a crash before it leaves nothing. `failed`: the id's
 * refund failed at the bank, so the request gets a new id (once, however many ask at the same time).
 */
async function refundIdOf(deps: StartRefundDeps, r: RefundRequest, failed?: string): Promise<string> {
  const signed = 'signedRequest' in r ? r.signedRequest : undefined;
  if (!signed || !deps.refundRequests)
    throw new Error('a refund without a merchantRefId needs its signed request and the store of them');
  const merchantIdentifier = r.merchantIdentifier;
  const hash = createHash('sha256')
    .update(JSON.stringify([signed.entry, merchantIdentifier, signed.signedText]))
    .digest('hex');
  return deps.refundRequests.claim({
    hash,
    merchantIdentifier,
    candidate: newRefundId(),
    now: deps.now(),
    windowMs: REFUND_REPLAY_WINDOW_MS,
    ...(failed ? { replacing: failed } : {}),
  });
}

const newRefundId = () => `gw-${randomBytes(8).toString('hex')}`;

/**
 * Starts the refund's workflow unless it exists (the sweep heals a crash before the start). Call it
 * only for a refund the store holds PENDING: Temporal forgets a closed workflow after retention.
 */
export async function ensureRefundWorkflow(
  deps: Pick<StartRefundDeps, 'temporal' | 'taskQueue'>,
  t: Transaction,
  e: RefundEntry,
) {
  await refundWorkflowClient(deps.temporal).startUnlessExists(deps.taskQueue, {
    merchantIdentifier: t.merchantIdentifier,
    orderId: t.orderId,
    txnId: t.txnId,
    bankRefNum: t.bankRefNum,
    merchantRefId: e.merchantRefId,
    amountPaise: e.amountPaise,
    reason: e.updateReason ?? '',
    reportLate: e.auto === true,
  });
}
