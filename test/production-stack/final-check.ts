/**
 * The kill probes' final check (production-stack.test.ts runs it after the last of them): the
 * money model's invariants (test/support/money-model/invariants.ts) over everything the probes
 * ran against the stack, the bank's books read over its admin API, plus every workflow of the
 * stack's Temporal namespace. What is still moving (a webhook retried in 5 minutes, a workflow
 * about to end) gets until `patienceMs` to settle; what is still wrong then fails the check.
 */
import type { Transaction } from '../../src/domain/transaction';
import {
  approvedEndSuccess,
  debitsLawful,
  refundsBounded,
  storedTransactions,
  webhooksFaithful,
  workflowsHealthy,
  type Books,
} from '../support/money-model/invariants';
import { mandateDebitWorkflowId, paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { namespaceWorkflowProblems } from './namespace-workflows';
import { waitsByDesign } from './waits-by-design';
import type { ProbeScope } from './probe-scope';

/** The bank's books as GET /admin/books gives them: the money model's Books and the debits' notifications. */
export type BooksRead = Books & {
  notifications: {
    mandateId: string;
    amountPaise: number;
    executeAt: string;
    answer: { notificationId: string; status: string };
  }[];
};

export async function finalCheck(o: {
  probe: ProbeScope;
  books: () => Promise<BooksRead>;
  patienceMs: number;
  log: (line: string) => void;
}): Promise<void> {
  const giveUpAt = Date.now() + o.patienceMs;
  const closedClean = new Set<string>();
  for (;;) {
    const { problems, summary, checkoutsWaiting } = await checkOnce(o.probe, await o.books(), closedClean);
    // A checkout excused for now (before its deadline, never at the bank) must still be seen to end:
    // the test stacks' checkouts expire in 3 minutes, well within the patience.
    if (problems.length === 0 && checkoutsWaiting.length === 0)
      return o.log(`final check: the money invariants hold over ${summary}`);
    if (Date.now() > giveUpAt)
      throw new Error(
        `the money invariants over everything the probes ran (${summary}), after ${o.patienceMs / 1000} s:\n${[
          ...problems,
          ...checkoutsWaiting.map((id) => `checkout ${id} is still Pending, waiting for its payer`),
        ].join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 10_000));
  }
}

/** One look at everything: the problems found and what was looked at. */
async function checkOnce(
  probe: ProbeScope,
  books: BooksRead,
  closedClean: Set<string>,
): Promise<{ problems: string[]; summary: string; checkoutsWaiting: string[] }> {
  const scope = probe.scope;
  scope.waiting = waitsByDesign(books, Date.now());
  const stored = await storedTransactions(scope);
  const problems = await probe.refresh(stored);
  problems.push(
    ...approvedEndSuccess(scope, books, stored, false),
    ...refundsBounded(books, stored),
    ...debitsLawful(scope, books, stored),
    ...notifiedOnce(
      books,
      scope.debits.map((d) => ({ ...d, amountPaise: stored.get(d.txnId)?.amountPaise })),
      scope.merchant.merchantIdentifier,
    ),
    ...webhooksFaithful(scope, stored),
    ...(await workflowsHealthy(scope, stored)),
  );
  const waiting = waitingWorkflows(scope.merchant.merchantIdentifier, stored, scope.waiting!);
  const ns = await namespaceWorkflowProblems(scope.stack.gw.rt.temporal, (w) => waiting.has(w.workflowId), closedClean);
  problems.push(...ns.problems);
  const refunds = [...stored.values()].reduce((n, t) => n + t.refunds.length, 0);
  const types = Object.entries(ns.byType)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  const summary = `${stored.size} orders (${[...stored.values()].filter((t) => t.status === 'Pending').length} waiting by design), ${refunds} refunds, ${scope.debits.length} debits scheduled, ${books.payments.length} payments, ${books.refunds.length} refunds and ${books.notifications.length} notifications at the bank, ${scope.stack.receiver.calls.length} webhook calls, ${ns.runs} workflow runs (${types})`;
  const checkoutsWaiting = [...stored.values()]
    .filter((t) => t.status === 'Pending' && !t.executeAt && scope.waiting!(t))
    .map((t) => t.orderId);
  return { problems: [...new Set(problems)], summary, checkoutsWaiting };
}

/** The workflow ids of orders that wait by design (a scheduled debit, a checkout before its deadline). */
function waitingWorkflows(m: string, stored: Map<string, Transaction>, waits: (t: Transaction) => boolean): Set<string> {
  const ids = new Set<string>();
  for (const t of stored.values())
    if (t.status === 'Pending' && waits(t))
      ids.add(t.instrument.kind === 'UPI_MANDATE' ? mandateDebitWorkflowId(m, t.orderId) : paymentWorkflowId(m, t.orderId));
  return ids;
}

/** A debit the gateway accepted (1109), as its notification to the bank must carry it. */
export interface NotifiedDebit {
  orderId: string;
  txnId: string;
  mandateOrderId: string;
  executeAtMs: number;
  amountPaise?: number;
}

/**
 * (3) The bank was told of each debit the gateway scheduled under its txnId, and of nothing else.
 * The bank keys notifications by id (a repeat of one is an idempotent retry, counted in its
 * `requests`), so what can go wrong is a debit never notified, a second id for one debit (the same
 * mandate, amount and executeAt under another id), a debit's notification that is not what the gateway
 * accepted (refused, another mandate, amount or instant) or a notification of a debit the gateway
 * does not hold as accepted (refused 1118, never asked for).
 */
export function notifiedOnce(
  books: Pick<BooksRead, 'notifications'>,
  debits: NotifiedDebit[],
  merchantIdentifier: string,
): string[] {
  const problems: string[] = [];
  const byId = new Map(books.notifications.map((n) => [n.answer.notificationId, n]));
  for (const d of debits) {
    const n = byId.get(d.txnId);
    if (!n) problems.push(`(3) debit ${d.txnId} (order ${d.orderId}) was never notified to the bank`);
    // Its own notification must be the debit the gateway accepted: the bank's idempotency keeps the first of an id.
    else if (
      n.answer.status !== 'ACCEPTED' ||
      n.mandateId !== `${merchantIdentifier}:${d.mandateOrderId}` ||
      (d.amountPaise !== undefined && n.amountPaise !== d.amountPaise) ||
      Date.parse(n.executeAt) !== d.executeAtMs
    )
      problems.push(
        `(3) debit ${d.txnId} (order ${d.orderId}, ${d.amountPaise} paise at ${new Date(d.executeAtMs).toISOString()}) is notified as ${n.answer.status} ${n.mandateId} ${n.amountPaise} paise at ${n.executeAt}`,
      );
  }
  const scheduled = new Set(debits.map((d) => d.txnId));
  for (const n of books.notifications) {
    const id = n.answer.notificationId;
    if (scheduled.has(id)) continue;
    const same = debits.find(
      (d) =>
        n.mandateId === `${merchantIdentifier}:${d.mandateOrderId}` &&
        n.amountPaise === d.amountPaise &&
        Date.parse(n.executeAt) === d.executeAtMs,
    );
    problems.push(
      same
        ? `(3) the bank holds notification ${id} of debit ${same.txnId} (order ${same.orderId}) besides ${same.txnId}: two notification ids for one debit`
        : `(3) the bank was notified of debit ${id}, which the gateway does not hold as a debit it accepted (1109)`,
    );
  }
  return problems;
}
