import type { Transaction } from '../../../src/domain/transaction';
import { publishedOutcome } from '../../../src/domain/response-codes';
import { peakWindowAt } from '../../../src/domain/peak-windows';
import { debitTxnIdsOf, MandateResponse } from '../../../src/domain/mandate';
import {
  mandateDebitWorkflowId,
  mandateWorkflowId,
  paymentWorkflowId,
  refundWorkflowId,
} from '../../../src/temporal/workflow-ids';
import { webhookDeliveryWorkflowId } from '../../../src/temporal/webhook-contract';
import { webhookBatchWorkflowId } from '../../../src/temporal/webhook-batch-contract';
import { failedTasks } from './failed-tasks';
import type { InvariantScope } from './scope';
import { merchantOfCall, verifies, type World } from './world';

/**
 * The money invariants, read from three independent places: the bank's books (the simulator's own
 * record of what it approved and refunded), the gateway's store, and what the merchant's webhook
 * receiver got. Each violated invariant is one line naming the orders concerned.
 */
export interface Books {
  payments: ReturnType<World['stack']['bank']['books']['snapshot']>['payments'];
  refunds: ReturnType<World['stack']['bank']['books']['snapshot']>['refunds'];
  callbacks: ReturnType<World['stack']['bank']['books']['snapshot']>['callbacks'];
  debits: ReturnType<World['stack']['bank']['books']['snapshot']>['debits'];
}

export async function storedTransactions(w: Pick<InvariantScope, 'merchant' | 'stack'>): Promise<Map<string, Transaction>> {
  const docs = await w.stack.gw.rt.store.db
    .collection<Transaction>('transactions')
    .find({ merchantIdentifier: w.merchant.merchantIdentifier })
    .toArray();
  return new Map(docs.map((t) => [t.txnId, t]));
}

/** Paid: Success or any state that follows a success (refunds, chargebacks). */
const paid = (t: Transaction) => t.status !== 'Failure' && t.status !== 'Pending';
const autoRefunded = (t: Transaction) => t.refunds.some((r) => r.merchantRefId === `auto-${t.txnId}` && r.status === 'SUCCESS');

/**
 * (1) Every payment the bank approved ends Success (or refunded automatically), never a silent
 * Failure. Before the bank's file (`afterFile` false) this holds for every approval the bank told
 * the gateway of (an answer, a delivered callback); a bank that hid its approval from every
 * channel (`inquiryPending`: callback lost, inquiry PENDING) is excused until its file arrives.
 * And the gateway holds no Success the bank did not approve, for the amount the bank took.
 */
export function approvedEndSuccess(
  w: InvariantScope,
  books: Books,
  stored: Map<string, Transaction>,
  afterFile: boolean,
): string[] {
  const problems: string[] = [];
  for (const p of books.payments) {
    if (p.answer.status !== 'APPROVED') continue;
    const t = stored.get(p.request.txnId);
    const told =
      afterFile ||
      w.stack.bank.conduct.conductOf(p.request.txnId) !== 'inquiryPending' ||
      books.callbacks.some(
        (c) =>
          c.callback.type === 'payment' &&
          c.callback.txnId === p.request.txnId &&
          c.callback.status === 'APPROVED' &&
          c.state === 'delivered',
      );
    if (!t) problems.push(`(1) bank approved ${p.request.txnId}, the gateway holds no such payment`);
    else if (told && !paid(t) && !autoRefunded(t))
      problems.push(
        `(1) bank approved ${p.request.txnId} (order ${t.orderId}, ${describeConduct(w, p.request.txnId)}) but the gateway holds ${t.status} ${t.responseCode}${afterFile ? ' after the bank file' : ''}`,
      );
  }
  const approved = new Map(books.payments.filter((p) => p.answer.status === 'APPROVED').map((p) => [p.request.txnId, p]));
  for (const t of stored.values()) {
    if (!paid(t) || t.instrument.kind === 'UPI_MANDATE') continue;
    const b = approved.get(t.txnId);
    if (!b) problems.push(`(1) order ${t.orderId} is ${t.status} but the bank never approved ${t.txnId}`);
    else if (b.request.amountPaise !== t.amountPaise) problems.push(`(1) order ${t.orderId}: amount differs from the bank's`);
  }
  return problems;
}

/**
 * (3) No debit reached the bank after a revoke the gateway acknowledged, none before its
 * executionDate, none inside a peak window (the model's debits are all merchant-initiated), and none
 * the gateway did not accept. A debit's attempts are `<txnId>` and `<txnId>R<n>`; when the bank
 * booked each is read in the gateway's time (MoneyStack.debitBookedAt).
 */
export function debitsLawful(w: InvariantScope, books: Books, stored: Map<string, Transaction>): string[] {
  const problems: string[] = debitsApprovedOnce(w, books, stored);
  for (const d of books.debits) {
    const debitId = d.request.debitId;
    const at = w.stack.debitBookedAt.get(debitId);
    const when = at === undefined ? 'at an unknown time' : `at ${new Date(at).toISOString()}`;
    const mandate = w.mandates.find((m) => `${w.merchant.merchantIdentifier}:${m.orderId}` === d.mandateId);
    const debit = w.debits.find((x) => isAttemptOf(debitId, x.txnId));
    if (!mandate || !debit) {
      problems.push(`(3) the bank booked debit ${debitId} ${when}, which no accepted notify scheduled`);
      continue;
    }
    if (mandate.revoked && !mandate.revoked.debitsAtBank.includes(debitId))
      problems.push(
        `(3) debit ${debitId} (order ${debit.orderId}) reached the bank ${when}, after mandate ${mandate.orderId}'s acknowledged revoke`,
      );
    if (at === undefined) continue;
    if (at < debit.executeAtMs)
      problems.push(
        `(3) debit ${debitId} (order ${debit.orderId}) reached the bank ${when}, before its executionDate ${new Date(debit.executeAtMs).toISOString()}`,
      );
    if (peakWindowAt(new Date(at)))
      problems.push(`(3) debit ${debitId} (order ${debit.orderId}) reached the bank ${when}, inside a peak window`);
  }
  return problems;
}

/** Whether a bank debit id is an attempt of the debit `txnId`: itself, or `<txnId>R<n>` (a txnId may itself end in R and digits). */
const isAttemptOf = (debitId: string, txnId: string) => debitTxnIdsOf(debitId).includes(txnId);

/**
 * (3) The bank approved at most one attempt of each debit the gateway accepted, for the debit's
 * amount, and an approval means the gateway holds the debit executed (1111): a retry that the bank
 * approves after an earlier attempt was approved takes the payer's money twice.
 */
function debitsApprovedOnce(w: InvariantScope, books: Books, stored: Map<string, Transaction>): string[] {
  const problems: string[] = [];
  for (const debit of w.debits) {
    const approved = books.debits.filter((d) => isAttemptOf(d.request.debitId, debit.txnId) && d.answer.status === 'APPROVED');
    if (approved.length === 0) continue;
    const ids = approved.map((d) => d.request.debitId).join(', ');
    if (approved.length > 1)
      problems.push(`(3) debit ${debit.txnId} (order ${debit.orderId}): the bank approved ${approved.length} attempts (${ids})`);
    const t = stored.get(debit.txnId);
    for (const d of approved)
      if (t && d.request.amountPaise !== t.amountPaise)
        problems.push(
          `(3) debit ${debit.txnId} (order ${debit.orderId}): the bank approved ${d.request.debitId} for ${d.request.amountPaise} paise, the debit is ${t.amountPaise}`,
        );
    if (t?.responseCode !== MandateResponse.executed.code)
      problems.push(
        `(3) the bank approved debit ${ids} (order ${debit.orderId}) but the gateway holds ${t ? `${t.status} ${t.responseCode}` : 'no such debit'}`,
      );
  }
  return problems;
}

const describeConduct = (w: InvariantScope, txnId: string) => `bank conduct ${w.stack.bank.conduct.conductOf(txnId) ?? 'plain'}`;

/** (2) Refunds never exceed what was paid; each refund the gateway made reached the bank once, for its amount. */
export function refundsBounded(books: Books, stored: Map<string, Transaction>): string[] {
  const problems: string[] = [];
  const bankRefunds = new Map(books.refunds.map((r) => [r.request.refundId, r]));
  for (const t of stored.values()) {
    const held = t.refunds.filter((r) => r.status !== 'FAILED').reduce((n, r) => n + r.amountPaise, 0);
    if (held > t.amountPaise) problems.push(`(2) order ${t.orderId}: refunds of ${held} paise exceed the ${t.amountPaise} paid`);
    for (const r of t.refunds) {
      const b = bankRefunds.get(`${t.txnId}:${r.merchantRefId}`);
      if (r.status === 'SUCCESS' && b?.answer.status !== 'APPROVED')
        problems.push(
          `(2) refund ${r.merchantRefId} of ${t.orderId} is SUCCESS but the bank holds ${b?.answer.status ?? 'nothing'}`,
        );
      if (b && b.request.amountPaise !== r.amountPaise)
        problems.push(`(2) refund ${r.merchantRefId} of ${t.orderId}: amount differs at the bank`);
    }
  }
  const byTxn = new Map<string, number>();
  for (const r of books.refunds) {
    if (r.answer.status === 'DECLINED') continue;
    byTxn.set(r.request.txnId, (byTxn.get(r.request.txnId) ?? 0) + r.request.amountPaise);
    const t = stored.get(r.request.txnId);
    const mine = t?.refunds.find((e) => `${t.txnId}:${e.merchantRefId}` === r.request.refundId);
    if (!mine) problems.push(`(2) the bank refunded ${r.request.refundId}, which the gateway does not hold`);
    else if (r.answer.status === 'APPROVED' && mine.status !== 'SUCCESS')
      problems.push(`(2) the bank refunded ${r.request.refundId}; the gateway holds it ${mine.status}`);
  }
  for (const [txnId, paise] of byTxn) {
    const paid = books.payments.find((p) => p.request.txnId === txnId);
    if (!paid || paise > paid.request.amountPaise)
      problems.push(`(2) the bank refunded ${paise} paise of ${txnId}, more than it took`);
  }
  return problems;
}

/**
 * (4) Every final payment reached the receiver at least once with its final responseCode; every call
 * verifies with the secret key in force when it arrived (or the one just before, for a call already
 * on its way when the key was rotated, or the next one, for a call received while its rotation was
 * being answered); the retries of one delivery id carry the same txnData.
 */
export function webhooksFaithful(w: InvariantScope, stored: Map<string, Transaction>): string[] {
  const problems: string[] = [];
  const calls = w.stack.receiver.calls.filter((c) => merchantOfCall(c.url) === w.merchant.merchantIdentifier);
  const seen = new Map<string, string[]>();
  const bytesById = new Map<string, string>();
  for (const c of calls) {
    const body = webhookBody(c.body, w.webhookFormat ?? 'json');
    if (!body) {
      problems.push(`(4) a webhook call is not the ${w.webhookFormat ?? 'json'} the merchant chose: ${c.body.slice(0, 80)}`);
      continue;
    }
    const id = String(c.headers['x-webhook-id'] ?? '');
    const keyIndex = w.keys.reduce((last, k, i) => (k.since <= c.receivedAt ? i : last), 0);
    // A first attempt already on its way at the rotation may carry the key before; a retry (in
    // time-skipping mode hours pass in milliseconds of wall clock) must carry the key in force.
    const firstAttempt = String(c.headers['x-webhook-attempt'] ?? '1') === '1';
    const onItsWay = firstAttempt && keyIndex > 0 && c.receivedAt - w.keys[keyIndex]!.since < 2000;
    // A call received while the next rotation was being answered may already carry the new key.
    const next = w.keys[keyIndex + 1];
    const committing = next !== undefined && c.receivedAt >= next.requestedAt;
    const inForce = [w.keys[keyIndex]!, ...(onItsWay ? [w.keys[keyIndex - 1]!] : []), ...(committing ? [next] : [])];
    if (!inForce.some((k) => verifies(body.txnData, body.checksum, k.secretKey)))
      problems.push(
        `(4) webhook ${id} (attempt ${c.headers['x-webhook-attempt']}) does not verify with the key in force (key #${keyIndex + 1})`,
      );
    if (bytesById.has(id) && bytesById.get(id) !== body.txnData)
      problems.push(`(4) webhook ${id} changed its txnData between attempts`);
    bytesById.set(id, body.txnData);
    // Real-time entries carry orderId and responseCode; the non-real-time webhook lists delayed
    // successes (`orderid`, no code) in its txns: each such entry announces a success (100). A
    // chargeback's entry (with its chargebackAmount) announces no outcome.
    const { txns } = JSON.parse(body.txnData) as {
      txns?: { orderId?: string; orderid?: string; responseCode?: string; chargebackAmount?: number }[];
    };
    // A webhook of another kind (a settlement's, an account change's) announces no order.
    for (const t of txns ?? []) {
      if (t.chargebackAmount !== undefined) continue;
      const orderId = t.orderId ?? t.orderid ?? '';
      seen.set(orderId, [...(seen.get(orderId) ?? []), t.responseCode ?? '100']);
    }
  }
  const held = new Set([...stored.values()].map((t) => t.orderId));
  for (const orderId of seen.keys())
    if (!held.has(orderId)) problems.push(`(4) the receiver heard of order ${orderId}, which the gateway does not hold`);
  for (const t of stored.values()) {
    if (t.status === 'Pending') {
      // Nothing is decided yet: a pending (208) is all the merchant may have heard.
      const early = (seen.get(t.orderId) ?? []).filter((code) => code !== '208');
      if (early.length > 0)
        problems.push(`(4) order ${t.orderId} is still Pending, yet the receiver heard ${JSON.stringify(early)}`);
      continue;
    }
    // The receiver sees the published code of the stored reason (1023 and 1024 are 183, 1022 is 400).
    const published = publishedOutcome({ responseCode: t.responseCode, responseDescription: '' }).responseCode;
    const heard = seen.get(t.orderId) ?? [];
    if (!heard.includes(published))
      problems.push(
        `(4) order ${t.orderId} ended ${t.status} ${t.responseCode} (published ${published}); the receiver got ${JSON.stringify(heard)}`,
      );
    // An order refunded automatically may stay a failure while the late webhook announced its success.
    const contradicting = heard.filter((code) => !heardBefore(code, published) && !(code === '100' && autoRefunded(t)));
    if (contradicting.length > 0)
      problems.push(
        `(4) order ${t.orderId} ended ${t.status} ${t.responseCode} (published ${published}), yet the receiver also heard ${JSON.stringify(contradicting)}`,
      );
  }
  return problems;
}

/** The failures the service decided that a later bank report may turn into a delayed success (docs/merchants/errors.md). */
const BEFORE_DELAYED_SUCCESS = ['183', '401', '102'];

/**
 * Whether the receiver may have heard `code` of an order whose final published code is `published`:
 * that code, a pending (208) before it, or a failure the service decided before a delayed success.
 */
const heardBefore = (code: string, published: string) =>
  code === published || code === '208' || (published === '100' && BEFORE_DELAYED_SUCCESS.includes(code));

/** A webhook call's txnData and checksum, in the body format the merchant chose (undefined when it is not that). */
function webhookBody(text: string, format: 'json' | 'form'): { txnData: string; checksum: string } | undefined {
  try {
    const body =
      format === 'json' ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
    return typeof body.txnData === 'string' && typeof body.checksum === 'string'
      ? { txnData: body.txnData, checksum: body.checksum }
      : undefined;
  } catch {
    return undefined;
  }
}

/** For a failure's story: the merchant's deliveries as the gateway stored them (id, kind, state, attempts). */
export async function storedDeliveries(w: InvariantScope): Promise<string[]> {
  const docs = await w.stack.gw.rt.store.db
    .collection<{ _id: string; merchantIdentifier: string; realtime: boolean; state: string; attempts: unknown[] }>(
      'webhook_deliveries',
    )
    .find({ merchantIdentifier: w.merchant.merchantIdentifier })
    .toArray();
  return docs.map((d) => `${d._id} ${d.realtime ? 'real-time' : 'late'} ${d.state} after ${d.attempts.length} attempt(s)`);
}

/**
 * (5) Every payment and debit is final, every webhook delivery ended (delivered, or failed once its
 * schedule ran out), and no workflow of this merchant is left running or failing: payments, debits, refunds, reconciliations, mandates, webhook deliveries and the
 * merchant's late-webhook batch each ended completed (a mandate still ACTIVE is the one that may
 * run: it lives until its end date) and failed no workflow task.
 */
export async function workflowsHealthy(w: InvariantScope, stored: Map<string, Transaction>): Promise<string[]> {
  const problems: string[] = [];
  const m = w.merchant.merchantIdentifier;
  const db = w.stack.gw.rt.store.db;
  const mandates = await db
    .collection<{ orderId: string; merchantIdentifier: string; state: string }>('mandates')
    .find({ merchantIdentifier: m })
    .toArray();
  const deliveries = await db
    .collection<{ _id: string; merchantIdentifier: string; state: string }>('webhook_deliveries')
    .find({ merchantIdentifier: m })
    .toArray();
  /**
   * `absent`: the workflow may not exist: a refund refused before its workflow started, a batch
   * never needed, a delivery whose first attempts (in the workflow that changed the transaction)
   * succeeded, since only a delivery still failing after them starts its own workflow.
   */
  const waits = (t: Transaction) => t.status === 'Pending' && (w.waiting?.(t) ?? false);
  const expected: { id: string; mayRun?: boolean; absent?: boolean }[] = [
    ...[...stored.values()].map((t) => ({
      id: t.instrument.kind === 'UPI_MANDATE' ? mandateDebitWorkflowId(m, t.orderId) : paymentWorkflowId(m, t.orderId),
      mayRun: waits(t),
    })),
    ...[...stored.values()].flatMap((t) =>
      t.refunds.map((r) => ({ id: refundWorkflowId(m, t.orderId, r.merchantRefId), absent: true })),
    ),
    ...w.reconciliationIds.map((id) => ({ id: `reconciliation:${id}` })),
    ...mandates.map((x) => ({ id: mandateWorkflowId(m, x.orderId), mayRun: x.state === 'ACTIVE' })),
    ...deliveries.map((d) => ({ id: webhookDeliveryWorkflowId(d._id), absent: true })),
    { id: webhookBatchWorkflowId(m), absent: true },
  ];
  for (const t of stored.values())
    if (t.status === 'Pending' && !waits(t)) problems.push(`(5) order ${t.orderId} is still Pending`);
  for (const d of deliveries) if (d.state === 'pending') problems.push(`(5) webhook delivery ${d._id} is still pending`);
  for (const { id, mayRun, absent } of expected) {
    const handle = w.stack.gw.rt.temporal.workflow.getHandle(id);
    let status: string;
    try {
      status = (await handle.describe()).status.name;
    } catch {
      if (!absent) problems.push(`(5) workflow ${id} does not exist`);
      continue;
    }
    if (status !== 'COMPLETED' && !(mayRun && status === 'RUNNING')) problems.push(`(5) workflow ${id} is ${status}`);
    const failed = failedTasks(await handle.fetchHistory(), w.benignTaskFailures ?? false);
    if (failed.length > 0) problems.push(`(5) workflow ${id} failed ${failed.length} workflow task(s): ${failed.join(', ')}`);
  }
  // A settlement may end otherwise than completed, or wait, when needs-attention lists it (the
  // liveness invariant judges that); none may fail a workflow task.
  for (const id of w.settlements) {
    const failed = failedTasks(await w.stack.gw.rt.temporal.workflow.getHandle(id).fetchHistory(), w.benignTaskFailures ?? false);
    if (failed.length > 0)
      problems.push(`(5) settlement workflow ${id} failed ${failed.length} workflow task(s): ${failed.join(', ')}`);
  }
  return problems;
}
