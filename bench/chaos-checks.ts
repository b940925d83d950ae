/**
 * What a chaos run verifies, from the store and Temporal directly: which orders exist, whether each
 * reached its final state through exactly one payment workflow, with the expected outcome and the
 * amount that was sent.
 */
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import { formatRupees } from '../src/domain/money';
import type { Transaction } from '../src/domain/transaction';
import { TxnStatusKey } from '../src/temporal/search-attributes';
import { paymentWorkflowId } from '../src/temporal/workflow-ids';
import { isAnswered2xx, type Answer, type ChaosPayment } from './chaos-payments';

interface PaymentRun {
  workflowId: string;
  runId: string;
  status: string;
  txnStatus: string | undefined;
  memoAmount: unknown;
}

export interface Observation {
  /** Stored transactions of the run's merchants, by orderId. */
  stored: Map<string, Transaction>;
  /** Every payment workflow execution (each run) of the run's merchants, by orderId. */
  runs: Map<string, PaymentRun[]>;
}

/**
 * The run id Temporal itself (not its eventually consistent list) holds as the latest of each
 * stored order's workflow: a second run the list had not caught up with would show here.
 */
export async function latestRuns(temporal: Client, stored: Iterable<Transaction>): Promise<Map<string, string>> {
  const latest = new Map<string, string>();
  for (const t of stored) {
    const d = await temporal.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId)).describe();
    latest.set(t.orderId, d.runId);
  }
  return latest;
}

export async function observe(db: Db, temporal: Client, merchantIdentifiers: string[]): Promise<Observation> {
  const docs = await db
    .collection<Transaction & { _id: string }>('transactions')
    .find({ merchantIdentifier: { $in: merchantIdentifiers } })
    .toArray();
  const stored = new Map(docs.map(({ _id, ...t }) => [t.orderId, t as Transaction]));

  const runs = new Map<string, PaymentRun[]>();
  for (const merchantIdentifier of merchantIdentifiers) {
    const query = `Kind = 'payment' AND MerchantId = '${merchantIdentifier}'`;
    for await (const w of temporal.workflow.list({ query })) {
      const orderId = w.workflowId.slice(paymentWorkflowId(merchantIdentifier, '').length);
      const list = runs.get(orderId) ?? [];
      list.push({
        workflowId: w.workflowId,
        runId: w.runId,
        status: w.status.name,
        txnStatus: w.typedSearchAttributes.get(TxnStatusKey),
        memoAmount: w.memo?.amount,
      });
      runs.set(orderId, list);
    }
  }
  return { stored, runs };
}

/** Converged: every stored order is final and its workflow (as Temporal lists it) has completed. */
export function converged(o: Observation): boolean {
  for (const [orderId, t] of o.stored) {
    if (t.status === 'Pending') return false;
    const runs = o.runs.get(orderId) ?? [];
    if (runs.length === 0 || runs.some((r) => r.status === 'RUNNING')) return false;
  }
  return true;
}

export interface Verdict {
  counts: Record<string, number>;
  /** One line per violated guarantee, with a few example orders. */
  problems: string[];
}

/**
 * The guarantees: answered 2xx means stored (with the txnId answered); everything stored is final
 * with the instrument's expected outcome, through exactly one completed workflow, with the amount
 * sent; nothing is stored that was not sent.
 */
export function verify(
  payments: ChaosPayment[],
  answers: Map<string, Answer>,
  o: Observation,
  latest: Map<string, string>,
): Verdict {
  const sent = new Map(payments.map((p) => [p.orderId, p]));
  const problems: string[] = [];
  const report = (what: string, orderIds: string[]) => {
    if (orderIds.length > 0) problems.push(`${what}: ${orderIds.length} (e.g. ${orderIds.slice(0, 3).join(', ')})`);
  };

  const answered = payments.filter((p) => isAnswered2xx(answers.get(p.orderId)));
  const lost = answered.filter((p) => !o.stored.has(p.orderId)).map((p) => p.orderId);
  const txnIdMismatch = answered
    .filter((p) => {
      const a = answers.get(p.orderId) as { txnId?: string };
      return o.stored.has(p.orderId) && a.txnId !== o.stored.get(p.orderId)!.txnId;
    })
    .map((p) => p.orderId);
  const unknown = [...o.stored.keys()].filter((id) => !sent.has(id));
  const existing = payments.filter((p) => o.stored.has(p.orderId));
  const notFinal = existing
    .filter((p) => !['Success', 'Failure'].includes(o.stored.get(p.orderId)!.status))
    .map((p) => p.orderId);
  const wrongOutcome = existing
    .filter((p) => {
      const t = o.stored.get(p.orderId)!;
      return t.status !== p.expected.status || t.responseCode !== p.expected.responseCode;
    })
    .map((p) => p.orderId);
  const amountChanged = existing
    .filter((p) => {
      const runs = o.runs.get(p.orderId) ?? [];
      return (
        o.stored.get(p.orderId)!.amountPaise !== p.amountPaise || runs.some((r) => r.memoAmount !== formatRupees(p.amountPaise))
      );
    })
    .map((p) => p.orderId);
  const withoutWorkflow = existing.filter((p) => (o.runs.get(p.orderId) ?? []).length === 0).map((p) => p.orderId);
  const duplicates = [...o.runs]
    .filter(([id, runs]) => runs.length > 1 || (latest.has(id) && latest.get(id) !== runs[0]!.runId))
    .map(([id]) => id);
  const workflowNotCompleted = existing
    .filter((p) => (o.runs.get(p.orderId) ?? []).some((r) => r.status !== 'COMPLETED'))
    .map((p) => p.orderId);
  const workflowOutcomeDiffers = existing
    .filter((p) => (o.runs.get(p.orderId) ?? []).some((r) => r.txnStatus !== o.stored.get(p.orderId)!.status))
    .map((p) => p.orderId);
  const workflowWithoutOrder = [...o.runs.keys()].filter((id) => !o.stored.has(id));

  report('answered 2xx but not stored', lost);
  report('answered txnId differs from the stored one', txnIdMismatch);
  report('stored but never sent', unknown);
  report('not final', notFinal);
  report('outcome differs from the instrument and amount', wrongOutcome);
  report('amount changed', amountChanged);
  report('stored without a payment workflow', withoutWorkflow);
  report('paid more than once (several workflow runs)', duplicates);
  report('workflow not completed', workflowNotCompleted);
  report('workflow outcome differs from the stored one', workflowOutcomeDiffers);
  report('payment workflow without a stored order', workflowWithoutOrder);

  return {
    counts: {
      existing: existing.length,
      final: existing.length - notFinal.length,
      success: existing.filter((p) => o.stored.get(p.orderId)!.status === 'Success').length,
      failure: existing.filter((p) => o.stored.get(p.orderId)!.status === 'Failure').length,
      'lost (2xx, not stored)': lost.length,
      duplicates: duplicates.length,
      'amount mismatches': amountChanged.length,
      'outcome mismatches': wrongOutcome.length + workflowOutcomeDiffers.length,
    },
    problems,
  };
}

/**
 * For a run that did not converge: what Temporal says about an order's workflow (status, pending
 * workflow task and activities, the last history events), so the log tells where it stopped.
 */
export async function explainWorkflow(temporal: Client, t: Transaction): Promise<string> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(t.merchantIdentifier, t.orderId));
  try {
    const d = await handle.describe();
    const task = d.raw.pendingWorkflowTask;
    const activities = (d.raw.pendingActivities ?? []).map(
      (a) => `${a.activityType?.name} state ${a.state} attempt ${a.attempt}${a.lastFailure ? ` (${a.lastFailure.message})` : ''}`,
    );
    const history = await handle.fetchHistory();
    const events = (history.events ?? []).map((e) => String(e.eventType).replace('EVENT_TYPE_', '')).slice(-12);
    return [
      `${t.orderId} (${JSON.stringify(t.instrument)}, stored ${t.status}): workflow ${d.status.name}`,
      `  pending workflow task: ${task ? `state ${task.state} attempt ${task.attempt}` : 'none'}`,
      `  pending activities: ${activities.join('; ') || 'none'}`,
      `  last events: ${events.join(', ')}`,
    ].join('\n');
  } catch (e) {
    return `${t.orderId}: ${(e as Error).message}`;
  }
}

/** One payment as the bank simulator's books hold it (GET /admin/books). */
export interface BankBookPayment {
  request: { txnId: string; merchantIdentifier: string; amountPaise: number };
  answer: { status: string; bankRefNum: string | null };
  requests: number;
}

/**
 * Bank-fault mode: the gateway's books and the bank's agree to the paisa. Every order the gateway
 * holds as Success the bank approved, for the same amount and reference; every order the bank
 * approved the gateway holds as Success; declines agree; the money totals are equal.
 */
export function verifyBankBooks(
  stored: Map<string, Transaction>,
  bank: { payments: BankBookPayment[] },
): { counts: Record<string, number>; problems: string[] } {
  const atBank = new Map(bank.payments.map((p) => [p.request.txnId, p]));
  const byTxn = new Map([...stored.values()].map((t) => [t.txnId, t]));
  const problems: string[] = [];
  const report = (what: string, ids: string[]) => {
    if (ids.length > 0) problems.push(`${what}: ${ids.length} (e.g. ${ids.slice(0, 3).join(', ')})`);
  };
  const gatewayPaid = [...stored.values()].filter((t) => t.status === 'Success');
  report(
    'Success at the gateway, not approved by the bank',
    gatewayPaid.filter((t) => atBank.get(t.txnId)?.answer.status !== 'APPROVED').map((t) => t.orderId),
  );
  report(
    'amount or reference differs from the bank',
    gatewayPaid
      .filter((t) => {
        const b = atBank.get(t.txnId);
        return b && (b.request.amountPaise !== t.amountPaise || b.answer.bankRefNum !== t.bankRefNum);
      })
      .map((t) => t.orderId),
  );
  const bankApproved = bank.payments.filter((p) => p.answer.status === 'APPROVED');
  report(
    'approved by the bank, not Success at the gateway',
    bankApproved.filter((p) => byTxn.get(p.request.txnId)?.status !== 'Success').map((p) => p.request.txnId),
  );
  report(
    'declined by the bank, not Failure at the gateway',
    bank.payments
      .filter((p) => p.answer.status === 'DECLINED' && byTxn.get(p.request.txnId)?.status !== 'Failure')
      .map((p) => p.request.txnId),
  );
  const gatewayPaise = gatewayPaid.reduce((n, t) => n + t.amountPaise, 0);
  const bankPaise = bankApproved.reduce((n, p) => n + p.request.amountPaise, 0);
  if (gatewayPaise !== bankPaise) problems.push(`paid: gateway ${gatewayPaise} paise, bank ${bankPaise} paise`);
  return {
    counts: {
      'bank: payments': bank.payments.length,
      'bank: approved': bankApproved.length,
      'bank: requests repeated (retries)': bank.payments.reduce((n, p) => n + p.requests - 1, 0),
      'paise paid (gateway = bank)': gatewayPaise === bankPaise ? gatewayPaise : -1,
    },
    problems,
  };
}
