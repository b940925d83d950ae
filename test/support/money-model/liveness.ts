import type { Settlement, SettlementLine } from '../../../src/domain/settlement';
import { addDays, istMidnight, isWorkingDay, settlementDateOfCapture } from '../../../src/domain/settlement-calendar';
import { settlementCalendar } from '../../../src/config-settlements';
import { request } from '../http';
import { storedTransactions } from './invariants';
import { opsAuth, type World } from './world';

type StoredSettlement = Settlement & { carriedIntoId?: string };

/**
 * What the operator's needs-attention lists now (GET /ops/v1/settlements/needs-attention), as
 * text: a settlement is listed when its id appears anywhere in it, whatever the listing's shape.
 */
export async function needsAttention(w: World): Promise<string> {
  const r = await request(`${w.stack.gw.baseUrl}/ops/v1/settlements/needs-attention`, { method: 'GET', headers: opsAuth(w) });
  if (r.status !== 200) throw new Error(`needs-attention answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.text;
}

/** The settlements needs-attention lists among `ids`. */
export const listedAmong = (text: string, ids: string[]) => new Set(ids.filter((id) => text.includes(`"${id}"`)));

/**
 * (L) Liveness, at the model's time now: every paid sale whose T+N settlement date is a working
 * day past (the end of the next working day has come) is settled (its settlement paid, or carried
 * to one that is, or carried forward with nothing to pay) or its settlement is listed by
 * needs-attention; a split's share parked for a sub-merchant likewise. And nothing is locked by a
 * dead settlement: a settlement workflow that failed, was terminated or timed out and holds a
 * claim is listed.
 */
export async function liveness(w: World): Promise<string[]> {
  const rt = w.stack.gw.rt;
  const now = rt.now();
  const cal = settlementCalendar(rt.config.settlements);
  const deadline = (capturedAt: Date) => {
    let d = addDays(settlementDateOfCapture(cal, capturedAt), 1);
    while (!isWorkingDay(cal, d)) d = addDays(d, 1);
    return istMidnight(addDays(d, 1));
  };
  const ms = [w.merchant.merchantIdentifier, ...w.sellers.map((s) => s.merchantIdentifier)];
  const db = rt.store.db;
  const settlements = new Map(
    (
      await db
        .collection<StoredSettlement>('settlements')
        .find({ merchantIdentifier: { $in: ms } })
        .toArray()
    ).map((s) => [s._id, s]),
  );
  const parked = await db
    .collection<SettlementLine>('settlement_lines')
    .find({ merchantIdentifier: { $in: ms }, settlementId: { $regex: '^pending:' } })
    .toArray();
  const attention = await needsAttention(w);
  const listed = listedAmong(attention, [...settlements.keys(), ...w.settlements]);
  const problems: string[] = [];

  /** Why the money of settlement `id` is not paid yet (undefined when it is, or nothing is owed). */
  const unpaid = (id: string): string | undefined => {
    let s = settlements.get(id);
    const seen = new Set<string>();
    while (s && s.carriedIntoId && !seen.has(s._id) && (s.state === 'carried_forward' || s.state === 'payout_refused')) {
      seen.add(s._id);
      if (listed.has(s._id)) return undefined;
      s = settlements.get(s.carriedIntoId);
    }
    if (!s) return `settlement ${id} does not exist`;
    if (s.state === 'paid' || (s.state === 'carried_forward' && !s.carriedIntoId) || listed.has(s._id)) return undefined;
    return `${s._id} is ${s.state}${s.state === 'held' && w.held ? ' (held)' : ''}, not listed by needs-attention`;
  };

  for (const t of (await storedTransactions(w)).values()) {
    if (!t.successAt || now < deadline(t.successAt)) continue;
    // A held merchant's settlements wait at their opening, before any claim: listed as held.
    const heldListed = [...settlements.values()].some((x) => x.state === 'held' && listed.has(x._id));
    const why = t.saleSettlementId ? unpaid(t.saleSettlementId) : heldListed ? undefined : 'no settlement claimed it';
    if (why)
      problems.push(
        `(L) order ${t.orderId} (${t.amountPaise} paise, captured ${t.successAt.toISOString()}, due ${settlementDateOfCapture(cal, t.successAt)}) is not settled at ${now.toISOString()}: ${why}`,
      );
  }
  for (const l of parked)
    if (now >= deadline(l.txnDate))
      problems.push(`(L) ${l._id} (${l.amountPaise} paise) is still parked for ${l.merchantIdentifier} at ${now.toISOString()}`);

  for (const id of w.settlements) {
    const status = await rt.temporal.workflow
      .getHandle(id)
      .describe()
      .then((d) => d.status.name)
      .catch(() => 'NOT_FOUND');
    if (status === 'RUNNING' || status === 'COMPLETED' || status === 'NOT_FOUND' || listed.has(id)) continue;
    const s = settlements.get(id);
    if (s && s.state !== 'paid' && s.state !== 'carried_forward' && s.state !== 'payout_refused')
      problems.push(`(L) settlement workflow ${id} is ${status} with its settlement ${s.state}, not listed by needs-attention`);
  }
  return problems;
}
