import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { newTxnId } from '../../src/domain/identifiers';
import type { Transaction } from '../../src/domain/transaction';
import { PayerDataCipher } from '../../src/domain/payer-data';
import type { StoredInstrument } from '../../src/store/sealed-instrument';
import type { NewTransaction, TransactionRepository } from '../../src/store/transaction-repository';
import { PAID_OUTCOME, storedPaidUpiOrder } from '../../test/support/stored-orders';

/** A new UPI order, as the API writes it before its workflow runs. */
function newOrder(merchantIdentifier: string, orderId: string, at: Date): NewTransaction {
  return {
    txnId: newTxnId(at),
    merchantIdentifier,
    orderId,
    amountPaise: 10_000,
    productDescription: 'Masala chai',
    buyerName: null,
    buyerEmail: null,
    ipAddress: '127.0.0.1',
    instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox Bank' },
    createdAt: at,
  };
}

/** Paid orders of one merchant through the repository (the path the workflows write). */
export async function seedPaidOrders(transactions: TransactionRepository, merchantIdentifier: string, count: number) {
  const orderIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const orderId = `bench-${randomBytes(5).toString('hex')}`;
    const { transaction } = await transactions.createPending(newOrder(merchantIdentifier, orderId, new Date()));
    if (!transaction) throw new Error(`order ${orderId} is held by another kind of order`);
    await transactions.recordOutcome({ merchantIdentifier, orderId, txnId: transaction.txnId }, PAID_OUTCOME, new Date());
    orderIds.push(orderId);
  }
  return orderIds;
}

/**
 * Grows the transactions collection to `total` documents with orders of other merchants, stored as
 * the repository stores them (payer data sealed under `masterKey`, so nothing is left to migrate).
 */
export async function seedOtherMerchantsTo(db: Db, masterKey: string, total: number): Promise<void> {
  const coll = db.collection<Omit<Transaction, 'instrument'> & { _id: string; instrument: StoredInstrument }>('transactions');
  const cipher = new PayerDataCipher(masterKey);
  let count = await coll.countDocuments({});
  const at = new Date();
  while (count < total) {
    const n = Math.min(1000, total - count);
    const merchant = randomBytes(16).toString('hex');
    const docs = Array.from({ length: n }, (_, i) =>
      storedPaidUpiOrder(cipher, { merchantIdentifier: merchant, orderId: `other-${count + i}`, amountPaise: 10_000, at }),
    );
    await coll.insertMany(docs, { ordered: false });
    count += n;
  }
}

/** Status requests for the orders, each signed as its merchant signs it (checksum header over the body). */
export function signedStatusRequests(merchant: { merchantIdentifier: string; secretKey: string }, orderIds: string[]) {
  return orderIds.map((orderId) => {
    const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId, version: 13 });
    return { body, headers: { 'content-type': 'application/json', checksum: hmacSha256Hex(merchant.secretKey, body) } };
  });
}
