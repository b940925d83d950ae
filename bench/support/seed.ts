import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { newTxnId } from '../../src/domain/identifiers';
import { orderKey, type TransactionRepository } from '../../src/store/transaction-repository';
import type { Transaction } from '../../src/domain/transaction';

/** A paid UPI order as the payment workflow leaves it. */
function paidTransaction(merchantIdentifier: string, orderId: string, at: Date): Transaction {
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
    status: 'Success',
    responseCode: '100',
    responseDescription: 'The transaction was completed successfully.',
    bankRefNum: '123456789012',
    authCode: '123456',
    markedFailedByService: false,
    createdAt: at,
    updatedAt: at,
    completedAt: at,
    successAt: at,
    refunds: [],
    version: 2,
  };
}

/** Paid orders of one merchant through the repository (the path the workflows write). */
export async function seedPaidOrders(transactions: TransactionRepository, merchantIdentifier: string, count: number) {
  const orderIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const orderId = `bench-${randomBytes(5).toString('hex')}`;
    const { transaction } = await transactions.createPending({
      txnId: newTxnId(new Date()),
      merchantIdentifier,
      orderId,
      amountPaise: 10_000,
      productDescription: 'Masala chai',
      buyerName: null,
      buyerEmail: null,
      ipAddress: '127.0.0.1',
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox Bank' },
      createdAt: new Date(),
    });
    await transactions.recordOutcome(
      { merchantIdentifier, orderId, txnId: transaction.txnId },
      {
        status: 'Success',
        responseCode: '100',
        responseDescription: 'The transaction was completed successfully.',
        bankRefNum: '123456789012',
        authCode: '123456',
        markedFailedByService: false,
      },
      new Date(),
    );
    orderIds.push(orderId);
  }
  return orderIds;
}

/** Grows the transactions collection to `total` documents with orders of other merchants. */
export async function seedOtherMerchantsTo(db: Db, total: number): Promise<void> {
  const coll = db.collection<Transaction & { _id: string }>('transactions');
  let count = await coll.countDocuments({});
  const at = new Date();
  while (count < total) {
    const n = Math.min(1000, total - count);
    const merchant = randomBytes(16).toString('hex');
    const docs = Array.from({ length: n }, (_, i) => {
      const t = paidTransaction(merchant, `other-${count + i}`, at);
      return { _id: orderKey(t), ...t };
    });
    await coll.insertMany(docs, { ordered: false });
    count += n;
  }
}
