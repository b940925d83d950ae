/**
 * The rest of the steady mix the kill probes run beside their payments (production-stack.test.ts):
 * a merchant refunding orders paid earlier, notifying debits under its mandate, and what its
 * webhook receiver heard.
 */
import { isInPeakWindow } from '../../src/domain/peak-windows';
import type { HttpResult } from '../support/http';
import type { ReceivedCall } from '../support/receiver';

/** One refund the merchant asked for, and every answer it got (the last decides). */
export interface RefundAsked {
  orderId: string;
  merchantRefId: string;
  /** `<HTTP status> <responseCode>`, or the error of an attempt that got no answer. */
  answers: string[];
  /** The gateway answered 200 with code 230 (Transaction Refund Initiated). */
  accepted: boolean;
}

/**
 * Full refunds of `orders`, one after another, as a merchant sends them, the i-th once `due(i)`
 * holds (spreading them over the payments' burst; at most 10 minutes on). A 5xx or an answer lost
 * on the way is sent again with the same merchantRefId (the gateway must take it as the same
 * refund), for up to `patienceMs` after the first try; any other answer is kept as it is.
 */
export async function refundLane(
  orders: string[],
  send: (orderId: string, merchantRefId: string) => Promise<HttpResult>,
  o: { patienceMs: number; due: (i: number) => boolean },
): Promise<RefundAsked[]> {
  const asked: RefundAsked[] = [];
  const dueBy = Date.now() + 600_000;
  for (const [i, orderId] of orders.entries()) {
    await until(() => o.due(i), dueBy);
    const r: RefundAsked = { orderId, merchantRefId: `mix-${orderId}`, answers: [], accepted: false };
    asked.push(r);
    const { last } = await sendUntilAnswered(() => send(orderId, r.merchantRefId), r.answers, o.patienceMs);
    r.accepted = last?.status === 200 && last.json?.responseCode === '230';
  }
  return asked;
}

/** One debit the merchant notified under its mandate, and every answer it got (the last decides). */
export interface NotifyAsked {
  orderId: string;
  /** Each notify of a lane asks a different amount: the bank's notifications are told apart by it. */
  amountPaise: number;
  /** `<HTTP status> <responseCode>`, or the error of an attempt that got no answer. */
  answers: string[];
  /** The last answer's responseCode (`1109` scheduled, `1118` peak time, ...), when it was a 200. */
  code?: string;
  /** Whether the real clock was in a peak window when the last attempt was sent, and when it was answered. */
  peakAtSend: boolean;
  peakAtAnswer: boolean;
  /** Whether the first attempt was sent outside a peak window (a resend of what it scheduled is answered 1109 in one). */
  offPeakAtFirstSend: boolean;
}

/**
 * Notifies of debits, one after another, as a merchant sends them, the i-th once `due(i)` holds
 * (at most 10 minutes on). `send` sends the i-th notify; a 5xx or an answer lost on the way is sent
 * again with the same orderId, amount and executionDate (the gateway must take it as the same
 * notify), for up to `patienceMs` after the first try; any other answer is kept as it is.
 */
export async function notifyLane(
  notifies: { orderId: string; amountPaise: number; send: () => Promise<HttpResult> }[],
  o: { patienceMs: number; due: (i: number) => boolean },
): Promise<NotifyAsked[]> {
  const asked: NotifyAsked[] = [];
  const dueBy = Date.now() + 600_000;
  for (const [i, n] of notifies.entries()) {
    await until(() => o.due(i), dueBy);
    const r: NotifyAsked = {
      orderId: n.orderId,
      amountPaise: n.amountPaise,
      answers: [],
      peakAtSend: false,
      peakAtAnswer: false,
      offPeakAtFirstSend: !isInPeakWindow(new Date()),
    };
    asked.push(r);
    const { last, sentAt } = await sendUntilAnswered(n.send, r.answers, o.patienceMs);
    if (last?.status === 200) r.code = last.json?.responseCode as string | undefined;
    r.peakAtSend = isInPeakWindow(new Date(sentAt));
    r.peakAtAnswer = isInPeakWindow(new Date());
  }
  return asked;
}

/**
 * Sends a request as a merchant does: again, a second later, after a 5xx or an answer lost on the
 * way, for up to `patienceMs`. Each attempt's answer goes to `answers`; `last` is the last answer
 * (undefined when it was lost), `sentAt` when the last attempt was sent.
 */
async function sendUntilAnswered(
  send: () => Promise<HttpResult>,
  answers: string[],
  patienceMs: number,
): Promise<{ last?: HttpResult; sentAt: number }> {
  const giveUpAt = Date.now() + patienceMs;
  for (;;) {
    const sentAt = Date.now();
    const res = await send().catch((e: Error) => e);
    const code = res instanceof Error ? undefined : (res.json?.responseCode as string | undefined);
    answers.push(res instanceof Error ? res.message.slice(0, 120) : `${res.status} ${code ?? res.text.slice(0, 80)}`);
    const again = res instanceof Error || res.status >= 500;
    if (!again || Date.now() > giveUpAt) return { last: res instanceof Error ? undefined : res, sentAt };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Waits (polling every 100 ms) until `ready` holds or `by` has passed. */
export async function until(ready: () => boolean, by: number): Promise<void> {
  while (!ready() && Date.now() < by) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A payment's real-time webhook entry, as the merchant's receiver got it. */
export interface PaymentHeard {
  orderId: string;
  pgTransId: string;
  responseCode: string;
}

/** The payment entries (`txns` with an orderId) and refund entries (merchantRefId) of every call. */
export function heard(calls: ReceivedCall[]): { payments: PaymentHeard[]; refunds: string[] } {
  const payments: PaymentHeard[] = [];
  const refunds: string[] = [];
  for (const call of calls) {
    const txnData = txnDataOf(call);
    if (!txnData) continue;
    for (const t of txnData.txns ?? []) if (typeof t.orderId === 'string') payments.push(t as unknown as PaymentHeard);
    for (const r of txnData.refunds ?? []) if (typeof r.merchantRefId === 'string') refunds.push(r.merchantRefId);
  }
  return { payments, refunds };
}

type Entry = Record<string, unknown>;

function txnDataOf(call: ReceivedCall): { txns?: Entry[]; refunds?: Entry[] } | undefined {
  try {
    const text = call.body.trimStart().startsWith('{')
      ? (JSON.parse(call.body) as { txnData?: string }).txnData
      : new URLSearchParams(call.body).get('txnData');
    return text ? (JSON.parse(text) as { txns?: Entry[]; refunds?: Entry[] }) : undefined;
  } catch {
    return undefined;
  }
}
