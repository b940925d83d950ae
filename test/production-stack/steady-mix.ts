/**
 * The rest of the steady mix the kill probes run beside their payments (production-stack.test.ts):
 * a merchant refunding orders paid earlier, and what its webhook receiver heard.
 */
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
    while (!o.due(i) && Date.now() < dueBy) await new Promise((resolve) => setTimeout(resolve, 100));
    const giveUpAt = Date.now() + o.patienceMs;
    const r: RefundAsked = { orderId, merchantRefId: `mix-${orderId}`, answers: [], accepted: false };
    asked.push(r);
    for (;;) {
      const res = await send(orderId, r.merchantRefId).catch((e: Error) => e);
      const code = res instanceof Error ? undefined : (res.json?.responseCode as string | undefined);
      r.answers.push(res instanceof Error ? res.message.slice(0, 120) : `${res.status} ${code ?? res.text.slice(0, 80)}`);
      const again = res instanceof Error || res.status >= 500;
      if (!again) {
        r.accepted = res.status === 200 && code === '230';
        break;
      }
      if (Date.now() > giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  return asked;
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
