/**
 * What must hold of the debits that fell due during a kill (debits-due.ts): each executed once.
 * The gateway holds it executed (1111), the bank holds one debit of it (its first attempt's
 * debitId, approved, of its amount, however many times the gateway sent it, and no retry's; one a
 * killed worker had sent, sent again), and
 * the merchant's receiver heard of it, naming that debit.
 */
import { strict as assert } from 'node:assert';
import { debitTxnIdsOf } from '../../src/domain/mandate';
import type { ReceivedCall } from '../support/receiver';
import type { BankDebit, DueDebit } from './debits-due';
import { heard } from './steady-mix';

export async function debitsExecutedOnce(o: {
  debits: DueDebit[];
  books: () => Promise<{ debits: BankDebit[] }>;
  statusOf: (orderId: string) => Promise<Record<string, any> | undefined>;
  calls: ReceivedCall[];
  /** How long the gateway and the receiver get (a webhook lost to a kill is sent again 5 minutes on). */
  patienceMs: number;
  /** Debits (order ids) a killed worker had sent: the gateway must have sent them again (a repeat the bank answers as the first). */
  sentAgain?: string[];
}): Promise<string[]> {
  const deadline = Date.now() + o.patienceMs;
  for (const d of o.debits) {
    for (;;) {
      const order = await o.statusOf(d.orderId).catch(() => undefined);
      const heardOf = heard(o.calls).payments.some((p) => p.orderId === d.orderId && p.responseCode === '1111');
      if (order && order.txnStatus !== '2' && heardOf) {
        assert.deepEqual(
          [order.txnStatus, order.responseCode],
          ['0', '1111'],
          `${d.orderId}: executed: ${JSON.stringify(order)}`,
        );
        break;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${d.orderId}: not executed and heard of after ${o.patienceMs / 1000} s: ${JSON.stringify(order)}; heard of: ${heardOf}`,
        );
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const b = await o.books();
  return o.debits.map((d) => {
    const atBank = b.debits.filter((x) => debitTxnIdsOf(x.request.debitId).includes(d.txnId));
    assert.deepEqual(
      atBank.map((x) => [x.request.debitId, x.request.amountPaise, x.answer.status]),
      [[d.txnId, d.amountPaise, 'APPROVED']],
      `${d.orderId}: debited once at the bank, as the debit the gateway holds`,
    );
    if (o.sentAgain?.includes(d.orderId))
      assert.ok(atBank[0]!.requests >= 2, `${d.orderId}: the killed worker's debit was sent again (${atBank[0]!.requests}x)`);
    const webhooks = heard(o.calls).payments.filter((p) => p.orderId === d.orderId);
    assert.ok(
      webhooks.every((p) => p.pgTransId === d.txnId && p.responseCode === '1111'),
      `${d.orderId}: every webhook of it names the one debit: ${JSON.stringify(webhooks)}`,
    );
    return `${d.orderId} due ${d.executeAt.toISOString().slice(11, 19)}, at the bank ${d.seenAtBank ? new Date(d.seenAtBank).toISOString().slice(11, 23) : '?'}, sent ${atBank[0]!.requests}x, ${webhooks.length} webhook(s)`;
  });
}
