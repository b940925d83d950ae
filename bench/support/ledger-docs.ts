/**
 * Ledger-shaped transactions for the store benchmarks: the i-th of `perMerchant` of a merchant,
 * created over DAYS days from FIRST_DAY (oldest first), stored as the repository stores them.
 */
import { newTxnId } from '../../src/domain/identifiers';
import type { PaymentInstrument } from '../../src/domain/instrument';
import type { Transaction } from '../../src/domain/transaction';
import { orderKey } from '../../src/store/transaction-repository';

export const DAYS = 10;
export const FIRST_DAY = Date.UTC(2026, 0, 1) - 5.5 * 3_600_000; // 2026-01-01 00:00 IST
export const DAY_MS = 86_400_000;

const INSTRUMENTS: PaymentInstrument[] = [
  { kind: 'UPI', vpa: 'asha@okbank', bankName: 'HDFC Bank' },
  { kind: 'CARD', cardToken: '401200XXXXXX1112', cardId: 'c0ffee', brand: 'VISA', cardType: 'CREDIT', bankName: 'ICICI Bank' },
  { kind: 'NETBANKING', bankCode: 'SBIN', bankName: 'State Bank of India' },
];

/** One stored transaction, i-th of its merchant (oldest first): mostly successes, some with a refund. */
export function ledgerTransaction(merchantIdentifier: string, i: number, perMerchant: number): Transaction & { _id: string } {
  const createdAt = new Date(FIRST_DAY + Math.floor((i / perMerchant) * DAYS * DAY_MS));
  const status = i % 10 === 0 ? 'Failure' : i % 10 === 1 ? 'Pending' : i % 10 === 2 ? 'PartialRefund' : 'Success';
  const succeeded = status === 'Success' || status === 'PartialRefund';
  const successAt = succeeded ? new Date(createdAt.getTime() + 2_000) : null;
  const t: Transaction = {
    txnId: newTxnId(createdAt),
    merchantIdentifier,
    orderId: `bench-${i}`,
    amountPaise: 900 + ((i * 7919) % 1_000_000),
    productDescription: 'Benchmark order',
    buyerName: 'Asha Rao',
    buyerEmail: 'asha@example.in',
    ipAddress: '203.0.113.7',
    instrument: INSTRUMENTS[i % 3]!,
    status,
    responseCode: succeeded ? '100' : status === 'Failure' ? '1022' : '208',
    responseDescription: succeeded ? 'The transaction was completed successfully.' : 'Declined',
    bankRefNum: succeeded ? '123456789012' : null,
    authCode: succeeded ? '123456' : null,
    markedFailedByService: false,
    createdAt,
    updatedAt: successAt ?? createdAt,
    completedAt: status === 'Pending' ? null : (successAt ?? createdAt),
    successAt,
    refunds:
      status === 'PartialRefund'
        ? [{ merchantRefId: `r-${i}`, amountPaise: 500, rrn: '998877665544', status: 'SUCCESS', createdAt: successAt! }]
        : [],
    version: 2,
  };
  // Pending orders in the sweep's queue, as TransactionRepository.createPending stores them.
  const queued = status === 'Pending' ? { sweepLane: 'unswept', sweepDueAt: t.updatedAt } : {};
  return { _id: orderKey(t), ...t, ...queued };
}
