import type { Transaction } from '../../src/domain/transaction';
import type { Books } from '../support/money-model/invariants';

/**
 * Which Pending orders the final check excuses as waiting by design at `now`: a debit before its
 * executionDate, and a checkout before its payer deadline that never reached the bank (no request
 * of it in the bank's books, so no payment there either). A checkout the bank saw is not excused: a
 * payment stranded by a kill after its bank request would otherwise pass. The test stacks' checkouts
 * expire in 3 minutes (test/support/stack-process.ts), so one excused here must still be seen to
 * expire within the final check's patience.
 */
export function waitsByDesign(books: Pick<Books, 'payments'>, now: number): (t: Transaction) => boolean {
  const atBank = new Set(books.payments.flatMap((p) => [p.request.txnId, `order:${p.request.orderId}`]));
  return (t) => {
    if (t.executeAt) return t.executeAt.getTime() > now;
    if (!t.payerDeadline || t.payerDeadline.getTime() <= now) return false;
    return !atBank.has(t.txnId) && !atBank.has(`order:${t.orderId}`);
  };
}
