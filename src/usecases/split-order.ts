import {
  customNamed,
  namedMerchant,
  namesByCustomIdentifier,
  type Naming,
  type SplitCode,
  type SplitRequest,
  type SplitShares,
} from '../domain/split';
import type { SplitRepository } from '../store/split-repository';
import { orderKey, type TransactionRepository } from '../store/transaction-repository';

/**
 * Records a master merchant's split of one of its orders, once: the order must be paid (Success)
 * and for exactly orderAmount, each sub-merchant linked to this master by an operator, and the
 * order not yet claimed by a settlement (the conditional write decides that race).
 */
export async function splitOrder(
  deps: { splits: SplitRepository; transactions: TransactionRepository; now: () => Date },
  masterMerchantIdentifier: string,
  s: SplitShares,
): Promise<SplitCode> {
  const { splits } = deps;
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

/**
 * How the request names its sub-merchants: by merchantIdentifier, or (`isCustomIdentifier: true`)
 * by the master's own names for the sub-merchants linked to it, resolved here in one read. A name
 * no linked sub-merchant carries (or, after a race of two links, more than one) is refused.
 */
export async function subMerchantNaming(
  splits: Pick<SplitRepository, 'subMerchantsByCustomIdentifier'>,
  masterMerchantIdentifier: string,
  r: SplitRequest,
): Promise<{ nameOf: (p: Naming) => string | null } | { refused: SplitCode; detail: string }> {
  if (!namesByCustomIdentifier(r)) return { nameOf: (p) => namedMerchant(p) };
  const names = r.subMerchantIdentifiers.map(customNamed).filter((n): n is string => n !== null);
  const found = await splits.subMerchantsByCustomIdentifier(masterMerchantIdentifier, [...new Set(names)]);
  const unresolved = names.find((n) => found.get(n)?.length !== 1);
  if (unresolved !== undefined) return { refused: 'customIdentifierUnknown', detail: unresolved };
  return {
    nameOf: (p) => {
      const name = customNamed(p);
      return name === null ? null : found.get(name)![0];
    },
  };
}
