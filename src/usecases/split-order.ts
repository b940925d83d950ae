import type { Db } from 'mongodb';
import type { SplitCode, SplitShares } from '../domain/split';
import { SplitRepository } from '../store/split-repository';
import { orderKey, type TransactionRepository } from '../store/transaction-repository';

/**
 * Records a master merchant's split of one of its orders, once: the order must be paid (Success)
 * and for exactly orderAmount, each sub-merchant linked to this master by an operator, and the
 * order not yet claimed by a settlement (the conditional write decides that race).
 */
export async function splitOrder(
  deps: { db: Db; transactions: TransactionRepository; now: () => Date },
  masterMerchantIdentifier: string,
  s: SplitShares,
): Promise<SplitCode> {
  const splits = new SplitRepository(deps.db);
  const order = { merchantIdentifier: masterMerchantIdentifier, orderId: s.orderId };
  const t = await deps.transactions.findByOrder(order);
  if (!t || t.status !== 'Success') return 'orderNotPaid';
  if (t.amountPaise !== s.orderAmountPaise) return 'orderAmountDiffers';
  const subs = s.shares.slice(1).map((x) => x.merchantIdentifier);
  const masters = await splits.mastersOf(subs);
  if (subs.some((m) => masters.get(m) !== masterMerchantIdentifier)) return 'subMerchantNotLinked';
  const written = await splits.recordSplit(orderKey(order), t.txnId, {
    masterMerchantIdentifier,
    shares: s.shares,
    at: deps.now(),
  });
  return written === 'notPaid' ? 'orderNotPaid' : written;
}
