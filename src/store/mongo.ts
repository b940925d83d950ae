import { MongoClient, type Db } from 'mongodb';

export interface Store {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/** Connects and makes sure every collection's indexes exist (idempotent). */
export async function connectStore(uri: string, dbName: string): Promise<Store> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: 5000,
    appName: 'merchant-gateway',
    // FerretDB and single-node test servers have no replica set; writes are single-document.
    retryWrites: false,
  });
  await client.connect();
  const db = client.db(dbName);
  await ensureIndexes(db);
  return { client, db, close: () => client.close() };
}

export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('merchants').createIndex({ apiKeyHash: 1 }, { unique: true, name: 'apiKeyHash_unique' });
  // Orders are unique by their _id (merchant:orderId); gateway transaction ids are unique too.
  await db.collection('transactions').createIndex({ txnId: 1 }, { unique: true, name: 'txnId_unique' });
  // Ledger and bulk pages: by merchant and date, then txnId for a stable order.
  await db
    .collection('transactions')
    .createIndex({ merchantIdentifier: 1, createdAt: 1, txnId: 1 }, { name: 'merchant_created' });
  await db.collection('transactions').createIndex({ status: 1, updatedAt: 1 }, { name: 'status_updated' });
  await db
    .collection('transactions')
    .createIndex({ 'refunds.status': 1, updatedAt: 1 }, { name: 'refund_status_updated', sparse: true });
}

export function isDuplicateKeyError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 11000;
}
