import type { Transaction } from '../../src/domain/transaction';
import type { TestGateway } from './gateway';

/**
 * Seeds a settlement and its lines as the settlement engine writes them (the shared settlement
 * data contract: the UTR is on the settlement only): one SALE line per paid order given, plus a formula-looking orderId line, so the
 * merchant-facing pages and APIs are tested without running the engine.
 */
export async function seedPaidSettlement(
  gw: TestGateway,
  merchantIdentifier: string,
  orders: Transaction[],
  o: { date?: string; utr?: string; state?: string } = {},
) {
  const settlementDate = o.date ?? '2026-11-24';
  const settlementId = `settlement:${merchantIdentifier}:${settlementDate}`;
  const feeOf = (paise: number) => Math.round(paise * 0.02);
  const taxOf = (paise: number) => Math.round(feeOf(paise) * 0.18);
  const lines = orders.map((t) => ({
    _id: `SALE:${t.txnId}:${merchantIdentifier}`,
    settlementId,
    merchantIdentifier,
    txnId: t.txnId,
    orderId: t.orderId,
    action: 'SALE',
    txnDate: t.successAt ?? t.createdAt,
    amountPaise: t.amountPaise,
    feePaise: feeOf(t.amountPaise),
    taxPaise: taxOf(t.amountPaise),
    settlementAmountPaise: t.amountPaise - feeOf(t.amountPaise) - taxOf(t.amountPaise),
    settlementDate,
  }));
  const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((s, l) => s + f(l), 0);
  const state = o.state ?? 'paid';
  if (lines.length) await gw.rt.store.db.collection('settlement_lines').insertMany(lines as never[]);
  await gw.rt.store.db.collection('settlements').insertOne({
    _id: settlementId as never,
    merchantIdentifier,
    settlementDate,
    state,
    lineCount: lines.length,
    grossPaise: sum((l) => l.amountPaise),
    refundsPaise: 0,
    chargebacksPaise: 0,
    feePaise: sum((l) => l.feePaise),
    taxPaise: sum((l) => l.taxPaise),
    carriedInPaise: 0,
    netPaise: sum((l) => l.settlementAmountPaise),
    carriedOutPaise: 0,
    ...(state === 'paid' ? { utr: o.utr ?? 'UTR2611240001', paidAt: new Date(), accountLast4: '6789', ifsc: 'HDFC0001234' } : {}),
    createdAt: new Date(),
  });
  return { settlementId, settlementDate, lines };
}
