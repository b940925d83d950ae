/**
 * Mandate debits that execute while the kill probes hold a process down (production-stack.test.ts).
 * The merchant notifies them with the API replicas' clock moved back a day (a notify must come at
 * least 24 hours before its executionDate: api-clock.ts), so that they fall due, by the real clock
 * the workers and Temporal keep, seconds after the kill; the bank's books (GET /admin/books) then
 * say whether each reached the bank once, and the merchant's receiver whether it heard of it.
 */
import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { isInPeakWindow, NOTIFY_LEAD_MS } from '../../src/domain/peak-windows';
import type { StackState } from '../../src/devstack/production/stack';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { checkStatus, request } from '../support/http';
import { notifyData, transactU } from '../support/mandates';
import { newOrderId } from '../support/payments';
import { moveApiClock } from './api-clock';

/** One debit notified to fall due during a kill. */
export interface DueDebit {
  orderId: string;
  amountPaise: number;
  executeAt: Date;
  /** The gateway's id of it: the bank's debitId of its first attempt. */
  txnId: string;
  /** When the probe first saw it in the bank's books. */
  seenAtBank?: number;
}

/** A debit as GET /admin/books lists it. */
export interface BankDebit {
  mandateId: string;
  request: { debitId: string; amountPaise: number };
  answer: { status: string };
  /** How many times the gateway sent it (a repeat after a lost answer is the same debit). */
  requests: number;
}

/** How far back the API's clock goes: a notify then is more than 24 hours before the debits fall due. */
const LEAD_MARGIN_MS = 120_000;

/**
 * How late a debit may run after it falls due in a kill probe: a killed worker's debit is sent again
 * when its activity times out (30 s), a timer on a moved history shard fires once the shard moves,
 * and the probes wait up to 7 minutes for them.
 */
const LATE_EXECUTION_MS = 10 * 60_000;

/**
 * Whether debits falling due from `first` to `last` can be notified now and run then, late ones
 * included: neither the moved clock of the notifies nor any instant from now until `last` and its
 * late margin may fall in a peak window (the API refuses the first, the workflow waits out the
 * second). The span is far shorter than a window, so a window opening inside it holds its end.
 */
export function debitsCanFallDue(first: Date, last: Date, now = new Date()): boolean {
  const notifiedAt = new Date(first.getTime() - NOTIFY_LEAD_MS - LEAD_MARGIN_MS);
  const latest = new Date(last.getTime() + LATE_EXECUTION_MS);
  return ![notifiedAt, now, first, last, latest].some(isInPeakWindow);
}

/**
 * Notifies one debit under `parent` for each instant of `dueAt` (whole seconds), of the amounts
 * from `firstAmount` up (the bank's notifications are told apart by amount), with the API's clock
 * a day and two minutes before the first; each answered 1109. The clock is real again on return.
 */
export async function notifyDebitsDue(o: {
  state: StackState;
  publicUrl: string;
  merchant: MerchantCredentials;
  parent: string;
  dueAt: Date[];
  firstAmount: number;
}): Promise<DueDebit[]> {
  const first = Math.min(...o.dueAt.map((d) => d.getTime()));
  const debits: DueDebit[] = [];
  try {
    await moveApiClock(o.state, new Date(first - NOTIFY_LEAD_MS - LEAD_MARGIN_MS));
    for (const [i, executeAt] of o.dueAt.entries()) {
      const orderId = newOrderId('due-debit');
      const amountPaise = o.firstAmount + i;
      const data = notifyData(o.merchant, {
        orderId,
        parent: o.parent,
        executionDate: formatIstDateTime(executeAt),
        amount: String(amountPaise),
      });
      const res = await transactU(o.publicUrl, o.merchant, data);
      assert.equal(res.json?.responseCode, '1109', `the debit due at ${executeAt.toISOString()} is scheduled: ${res.text}`);
      debits.push({ orderId, amountPaise, executeAt, txnId: '' });
    }
  } finally {
    await moveApiClock(o.state, 'real');
  }
  for (const d of debits) {
    const res = await checkStatus(o.publicUrl, o.merchant.secretKey, {
      merchantIdentifier: o.merchant.merchantIdentifier,
      orderId: d.orderId,
    });
    d.txnId = res.json?.data?.orders?.[0]?.orderDetail?.txnId as string;
    assert.ok(d.txnId, `${d.orderId}: the gateway holds the debit: ${res.text.slice(0, 200)}`);
  }
  return debits;
}

/**
 * The bank answers each debit of `merchantIdentifier` `ms` late (the simulator's latency fault):
 * a debit is at the bank, unanswered, for that long, and a worker killed meanwhile dies holding it.
 * Returns what removes the fault.
 */
export async function slowBankDebits(bankUrl: string, adminToken: string, merchantIdentifier: string, ms: number) {
  const headers = { authorization: `Bearer ${adminToken}` };
  const res = await request(`${bankUrl}/admin/faults`, {
    body: { match: { operation: 'debit', merchantIdentifier }, fault: { kind: 'latency', ms } },
    headers,
  });
  assert.equal(res.status, 201, res.text);
  const id = (res.json as { id: string }).id;
  return async () => void (await request(`${bankUrl}/admin/faults/${id}`, { method: 'DELETE', headers }));
}

/** Waits (polling the books every 250 ms) until every debit is at the bank, noting when each was first seen there. */
export async function debitsAtBank(debits: DueDebit[], books: () => Promise<{ debits: BankDebit[] }>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const b = await books().catch(() => undefined);
    for (const d of debits) if (!d.seenAtBank && b?.debits.some((x) => x.request.debitId === d.txnId)) d.seenAtBank = Date.now();
    const missing = debits.filter((d) => !d.seenAtBank);
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`after ${timeoutMs / 1000} s the bank holds no debit of ${missing.map((d) => d.orderId).join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
