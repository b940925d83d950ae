/**
 * The merchants' webhook receiver of a chaos run, and what it must have seen: every final order
 * announced once, with its final responseCode. "Once" as a receiver counts it: deliveries carry
 * X-Webhook-Id and a redelivery of the same id (the same bytes again, after a worker died between
 * the receiver's answer and the record of it) is the one webhook, not a second.
 */
import { publishedOutcome } from '../src/domain/response-codes';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transaction } from '../src/domain/transaction';

interface Seen {
  webhookId: string;
  responseCode: string;
}

export interface WebhookReceiver {
  url: string;
  /** Every webhook entry received, by orderId, redeliveries included. */
  seen: Map<string, Seen[]>;
  calls(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const seen = new Map<string, Seen[]>();
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      calls++;
      try {
        const { txnData } = JSON.parse(body) as { txnData: string };
        const { txns } = JSON.parse(txnData) as { txns: { orderId: string; responseCode: string }[] };
        const webhookId = String(req.headers['x-webhook-id'] ?? '');
        for (const t of txns) seen.set(t.orderId, [...(seen.get(t.orderId) ?? []), { webhookId, responseCode: t.responseCode }]);
        res.writeHead(200).end('SUCCESS'); // the contract's acknowledgement
      } catch {
        res.writeHead(400).end('unreadable');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    seen,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every final stored order has reached the receiver at least once. */
export const webhooksArrived = (stored: Map<string, Transaction>, r: WebhookReceiver) =>
  [...stored.values()].every((t) => t.status === 'Pending' || r.seen.has(t.orderId));

export function verifyWebhooks(
  stored: Map<string, Transaction>,
  r: WebhookReceiver,
): { counts: Record<string, number>; problems: string[] } {
  const problems: string[] = [];
  const report = (what: string, orderIds: string[]) => {
    if (orderIds.length > 0) problems.push(`${what}: ${orderIds.length} (e.g. ${orderIds.slice(0, 3).join(', ')})`);
  };
  const final = [...stored.values()].filter((t) => t.status !== 'Pending');
  const distinctIds = (orderId: string) => new Set((r.seen.get(orderId) ?? []).map((s) => s.webhookId)).size;
  report(
    'final order without a webhook',
    final.filter((t) => !r.seen.has(t.orderId)).map((t) => t.orderId),
  );
  report(
    'order announced by more than one webhook (distinct X-Webhook-Id)',
    [...r.seen.keys()].filter((id) => distinctIds(id) > 1),
  );
  report(
    "webhook's responseCode differs from the stored one (as published: Zaakpay's code for the gateway's reason)",
    final
      .filter((t) => (r.seen.get(t.orderId) ?? []).some((s) => s.responseCode !== publishedOutcome(t).responseCode))
      .map((t) => t.orderId),
  );
  report(
    'webhook for an order not stored',
    [...r.seen.keys()].filter((id) => !stored.has(id)),
  );
  const redelivered = [...r.seen.values()].filter((list) => list.length > new Set(list.map((s) => s.webhookId)).size).length;
  return {
    counts: {
      'webhook calls received': r.calls(),
      'orders announced': r.seen.size,
      'orders redelivered (same X-Webhook-Id)': redelivered,
    },
    problems,
  };
}
