import { peakWindowAt } from '../../../src/domain/peak-windows';
import { request } from '../http';
import { createData, istAt, notifyData, transactU } from '../mandates';
import { bankMandateId, secretKey, skip, type ModelMandate, type World } from './world';

/** The model's mandates: created for a sandbox payer, debits notified, revoked by the payer. */

let counter = 0;
const nextOrderId = (kind: string) => `mm-${kind}-${Date.now().toString(36)}-m${(counter++).toString(36)}`;

/**
 * A mandate (Adhoc, a year long, no first debit) created at the gateway's time; the sandbox payer
 * answers it at once. Kept when ACTIVE; the answer code otherwise (a create refused is no error).
 */
export async function createMandate(w: World, payer: string): Promise<string> {
  const orderId = nextOrderId('mandate');
  const gw = w.stack.gw;
  const m = { ...w.merchant, secretKey: secretKey(w) };
  const r = await transactU(gw.baseUrl, m, createData(m, { orderId, today: gw.rt.now(), payer }));
  if (r.status >= 500) throw new Error(`mandate create answered ${r.status}: ${r.text.slice(0, 300)}`);
  if (r.json?.responseCode !== '1101') return `${orderId} → ${r.json?.responseCode}`;
  const order = { merchantIdentifier: m.merchantIdentifier, orderId };
  const deadline = Date.now() + 10_000;
  let state = (await gw.rt.mandates.findByOrder(order))?.state;
  while (state === 'CREATED' && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 50));
    state = (await gw.rt.mandates.findByOrder(order))?.state;
  }
  if (state === 'ACTIVE') w.mandates.push({ orderId, payer });
  return `${orderId} → ${state}`;
}

/** A notify (Adhoc debit) at the IST wall-clock `time` `days` after the gateway's today; kept when accepted (1109). */
export async function notifyDebit(
  w: World,
  mandate: ModelMandate,
  o: { days: number; time: string; amountPaise: number },
): Promise<string> {
  const gw = w.stack.gw;
  // A notify inside a peak window is refused by design (1119, tested elsewhere): the merchant sends
  // it when the window ends, so that the model's debits get scheduled.
  const peak = peakWindowAt(gw.rt.now());
  if (peak) await skip(w, Math.ceil((peak.end.getTime() - gw.rt.now().getTime()) / 1000) + 1);
  const now = gw.rt.now();
  const at = istAt(now, o.days, o.time);
  const executionDate = `${new Date(at.getTime() + 5.5 * 3_600_000).toISOString().slice(0, 10)} ${o.time}`;
  const orderId = nextOrderId('debit');
  const m = { ...w.merchant, secretKey: secretKey(w) };
  const data = notifyData(m, {
    orderId,
    parent: mandate.orderId,
    executionDate,
    amount: String(o.amountPaise),
    payer: mandate.payer,
  });
  const r = await transactU(gw.baseUrl, m, data);
  if (r.status >= 500) throw new Error(`notify answered ${r.status}: ${r.text.slice(0, 300)}`);
  const code = r.json?.responseCode;
  if (code === '1109') {
    const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId });
    if (!t) throw new Error(`notify ${orderId} answered 1109 but no debit is stored`);
    w.debits.push({ orderId, mandateOrderId: mandate.orderId, txnId: t.txnId, executeAtMs: at.getTime() });
  }
  return `${orderId} at ${executionDate} (request at ${now.toISOString()}) → ${code}`;
}

/** The sandbox payer revokes the mandate; once acknowledged, no debit may reach the bank after. */
export async function revokeMandate(w: World, mandate: ModelMandate): Promise<string> {
  const r = await request(`${w.stack.gw.baseUrl}/sandbox/v1/mandates/revoke`, {
    body: { merchantIdentifier: w.merchant.merchantIdentifier, orderId: mandate.orderId },
  });
  if (r.status >= 500) throw new Error(`revoke answered ${r.status}: ${r.text.slice(0, 300)}`);
  if (r.json?.success === true && !mandate.revoked) {
    const id = bankMandateId(w, mandate);
    const debitsAtBank = [...w.stack.bank.books.debits.entries()].filter(([, d]) => d.mandateId === id).map(([k]) => k);
    mandate.revoked = { debitsAtBank };
  }
  return `${mandate.orderId} → ${r.json?.success === true ? 'REVOKED' : r.json?.message?.code}`;
}
