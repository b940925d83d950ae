import type { Settlement, SettlementLine } from '../../../src/domain/settlement';
import { chargebackEventId, refundEventId, settlementLineId } from '../../../src/domain/settlement';
import type { Transaction } from '../../../src/domain/transaction';
import type { PayoutEntry } from '../../../src/bank/simulator/payouts';
import { storedTransactions } from './invariants';
import { feesExact, shareOf } from './fees';
import type { World } from './world';

/**
 * The settlement invariants (6, 7, 8), read from the store's settlements, lines and transactions
 * and from the bank simulator's payouts. `quiet`: no settlement of the merchant is running, so
 * every claim has its line and every payout its answer; with one in flight, only what holds at
 * every instant is checked (a line always follows its claim, the bank never pays a settlement
 * the gateway refused or carried). `excused`: settlements that may still be unfinished when quiet
 * (listed by needs-attention, or waiting within their state's time: excused.ts).
 */
export async function settlementInvariants(w: World, quiet: boolean, excused: Set<string> = new Set()): Promise<string[]> {
  const db = w.stack.gw.rt.store.db;
  // The merchant and the sub-merchants its splits pay: each is checked on its own, to the paisa.
  const ms = [w.merchant.merchantIdentifier, ...w.sellers.map((s) => s.merchantIdentifier)];
  const lines = await db
    .collection<SettlementLine>('settlement_lines')
    .find({ merchantIdentifier: { $in: ms } })
    .toArray();
  const settlements = await db
    .collection<Settlement & { carriedIntoId?: string }>('settlements')
    .find({ merchantIdentifier: { $in: ms } })
    .toArray();
  // The orders after the lines: a line is inserted after its claim, so a claim made between the
  // two reads is seen on its order, never a line without its claim.
  const stored = await storedTransactions(w);
  const problems: string[] = [];
  for (const m of ms) {
    const mine = lines.filter((l) => l.merchantIdentifier === m);
    const theirs = settlements.filter((s) => s.merchantIdentifier === m);
    if (quiet) problems.push(...balances(m, stored, mine, theirs).map((p) => `${p} (merchant ${m})`));
    problems.push(
      ...paidOnce(
        [...w.stack.bank.payouts.values()].filter((p) => p.request.merchantIdentifier === m),
        theirs,
        quiet,
        excused,
      ),
    );
  }
  problems.push(...settledOnce(stored, lines, settlements, quiet, excused), ...feesExact(w.plan, stored, lines));
  return problems;
}

/**
 * (6) To the paisa, what the merchant's settlements paid (net) plus their fees and taxes, plus the
 * balance they carry, plus what no settlement has claimed yet, equals what payers paid minus
 * refunds and chargebacks plus reverts; and the paid settlements' net plus the balance carried
 * equals their lines' net.
 */
export function balances(
  m: string,
  stored: Map<string, Transaction>,
  lines: SettlementLine[],
  settlements: (Settlement & { carriedIntoId?: string })[],
): string[] {
  let owed = 0;
  let unsettled = 0;
  for (const t of stored.values()) {
    if (!t.successAt) continue;
    // A split order pays each merchant its share; refunds and chargebacks fall on the master.
    const share = shareOf(t, m);
    owed += share;
    if (!t.saleSettlementId) unsettled += share;
    if ((t.split?.masterMerchantIdentifier ?? t.merchantIdentifier) !== m) continue;
    for (const r of t.refunds) {
      if (r.status !== 'SUCCESS') continue;
      owed -= r.amountPaise;
      if (!r.settlementId) unsettled -= r.amountPaise;
    }
    if (t.chargeback) {
      owed -= t.chargeback.amountPaise;
      if (!t.chargeback.settlementId) unsettled -= t.chargeback.amountPaise;
      if (t.chargeback.revertedAt) {
        owed += t.chargeback.amountPaise;
        if (!t.chargeback.reversalSettlementId) unsettled += t.chargeback.amountPaise;
      }
    }
  }
  const claimed = lines.reduce((s, l) => s + l.settlementAmountPaise + l.feePaise + l.taxPaise, 0);
  // Lines parked for a sub-merchant's next settlement belong to no settlement yet.
  const linesNet = lines.filter((l) => !l.settlementId.startsWith('pending:')).reduce((s, l) => s + l.settlementAmountPaise, 0);
  const paidNet = settlements.filter((s) => s.state === 'paid').reduce((s, x) => s + x.netPaise, 0);
  const carried = settlements
    .filter((s) => (s.state === 'carried_forward' || s.state === 'payout_refused') && !s.carriedIntoId)
    .reduce((s, x) => s + x.carriedOutPaise, 0);
  const open = settlements.filter((s) => s.state !== 'paid' && s.state !== 'carried_forward' && s.state !== 'payout_refused');
  const problems: string[] = [];
  if (claimed + unsettled !== owed)
    problems.push(`(6) settled ${claimed} + unsettled ${unsettled} paise != paid - refunds - chargebacks + reverts ${owed}`);
  if (open.length === 0 && paidNet + carried !== linesNet)
    problems.push(`(6) settlements paid ${paidNet} + carried ${carried} paise != their lines' net ${linesNet}`);
  return problems;
}

/** The claims an order holds: each event settled, the settlement that claimed it and its amount. */
function claimsOf(t: Transaction): { lineId: string; settlementId: string | undefined; amountPaise: number; other?: true }[] {
  const m = t.split?.masterMerchantIdentifier ?? t.merchantIdentifier;
  const recipients = new Set([m, ...(t.split?.shares ?? []).map((s) => s.merchantIdentifier)]);
  // A split's share of another merchant is claimed with the sale and settled by that merchant's
  // own settlement (its line parked until then): its line is elsewhere, for the share.
  const claims: { lineId: string; settlementId: string | undefined; amountPaise: number; other?: true }[] = [
    ...[...recipients].map((r) => ({
      lineId: settlementLineId('SALE', t.txnId, r),
      settlementId: t.saleSettlementId,
      amountPaise: shareOf(t, r),
      ...(r === m ? {} : { other: true as const }),
    })),
  ];
  for (const r of t.refunds)
    if (r.status === 'SUCCESS' || r.settlementId)
      claims.push({
        lineId: settlementLineId('REFUND', refundEventId(t.txnId, r.merchantRefId), m),
        settlementId: r.settlementId,
        amountPaise: r.amountPaise,
      });
  const cb = t.chargeback;
  if (cb) {
    const id = chargebackEventId(t.txnId);
    claims.push({ lineId: settlementLineId('CHARGEBACK', id, m), settlementId: cb.settlementId, amountPaise: cb.amountPaise });
    if (cb.revertedAt || cb.reversalSettlementId)
      claims.push({
        lineId: settlementLineId('CHARGEBACK_REVERSAL', id, m),
        settlementId: cb.reversalSettlementId,
        amountPaise: cb.amountPaise,
      });
  }
  return claims;
}

/**
 * (7) Each sale, refund, chargeback and revert is settled exactly once: its line (one per event, by
 * its id) belongs to the settlement that claimed the event, for the event's amount, and no line
 * exists without its claim; once quiet, every claim has its line, in a settlement that ended.
 */
export function settledOnce(
  stored: Map<string, Transaction>,
  lines: SettlementLine[],
  settlements: Settlement[],
  quiet: boolean,
  listed: Set<string> = new Set(),
): string[] {
  const problems: string[] = [];
  const byId = new Map(lines.map((l) => [l._id, l]));
  const ended = new Map(
    settlements.map((s) => [s._id, s.state === 'paid' || s.state === 'carried_forward' || s.state === 'payout_refused']),
  );
  const claimed = new Set<string>();
  for (const t of stored.values())
    for (const c of claimsOf(t)) {
      if (!c.settlementId) continue;
      claimed.add(c.lineId);
      const line = byId.get(c.lineId);
      if (!line) {
        if (quiet) problems.push(`(7) ${c.lineId} (order ${t.orderId}) is claimed by ${c.settlementId} but has no line`);
        continue;
      }
      if (line.settlementId !== c.settlementId && !c.other)
        problems.push(
          `(7) ${c.lineId} (order ${t.orderId}) is claimed by ${c.settlementId}, its line is in ${line.settlementId}`,
        );
      if (line.amountPaise !== c.amountPaise)
        problems.push(`(7) ${c.lineId} (order ${t.orderId}): line of ${line.amountPaise} paise for an event of ${c.amountPaise}`);
      if (quiet && ended.get(c.settlementId) !== true && !listed.has(c.settlementId))
        problems.push(`(7) ${c.lineId} (order ${t.orderId}) is claimed by ${c.settlementId}, which has not ended`);
    }
  for (const l of lines)
    if (!claimed.has(l._id)) problems.push(`(7) line ${l._id} of ${l.settlementId} settles an event no order says was claimed`);
  return problems;
}

/** What the bank simulator holds of one payout (payouts.ts), as the check reads it. */
export type PayoutAtBank = Pick<PayoutEntry, 'request' | 'answer'>;

/**
 * (8) Each payout is paid at the bank at most once per settlement id, and only for a settlement
 * the gateway records paid (with the bank's UTR and amount): a payout the bank paid while the
 * gateway recorded it refused (or carried) would be paid again by the next settlement.
 */
export function paidOnce(
  atBank: PayoutAtBank[],
  settlements: Settlement[],
  quiet: boolean,
  listed = new Set<string>(),
): string[] {
  const problems: string[] = [];
  const mine = new Map(settlements.map((s) => [s._id, s]));
  for (const p of atBank) {
    const s = mine.get(p.request.payoutId);
    const status = p.answer.status;
    if (!s) problems.push(`(8) the bank holds payout ${p.request.payoutId} (${status}), no settlement of the merchant`);
    else if (status === 'PAID') {
      if (s.state !== 'paid' && ((quiet && !listed.has(s._id)) || s.state !== 'payout_requested'))
        problems.push(`(8) the bank paid ${s._id} ${p.request.amountPaise} paise; the gateway holds it ${s.state}`);
      if (s.state === 'paid' && (s.utr !== p.answer.utr || s.netPaise !== p.request.amountPaise))
        problems.push(
          `(8) ${s._id} paid ${s.netPaise} paise UTR ${s.utr}; the bank paid ${p.request.amountPaise} UTR ${p.answer.utr}`,
        );
    } else if (status === 'REFUSED' && s.state !== 'payout_refused' && (quiet || s.state !== 'payout_requested'))
      problems.push(`(8) the bank refused ${s._id}; the gateway holds it ${s.state}`);
  }
  for (const s of settlements)
    if (s.state === 'paid' && !atBank.some((p) => p.request.payoutId === s._id && p.answer.status === 'PAID'))
      problems.push(`(8) ${s._id} is paid (UTR ${s.utr}) but the bank paid no such payout`);
  return problems;
}
