import { MongoClient, ReadPreference, type Collection, type Db, type MongoClientOptions } from 'mongodb';
import { watchStoreMonitors } from './store-monitor-watchdog';

export interface Store {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * The options the gateway adds to MONGODB_URI. Options given here override the URI's, so what the
 * URI must decide is left out: `retryWrites` stays the driver's default (on) for a MongoDB replica
 * set, where a write retried after a failover or a network error is what keeps it single and
 * atomic; the local FerretDB store's URI turns it off itself (devstack/ferretdb.ts, ferretdbUri).
 * Reads always go to the primary: a read of a secondary may miss what the same process just wrote
 * (a conditional update read back, an idempotency check), whatever the URI says.
 */
export const STORE_CLIENT_OPTIONS: Readonly<MongoClientOptions> = Object.freeze({
  serverSelectionTimeoutMS: 5000,
  appName: 'merchant-gateway',
  readPreference: ReadPreference.PRIMARY,
});

/**
 * Connects and makes sure every collection's indexes exist (idempotent). The client is watched for
 * a stuck server monitor (store-monitor-watchdog.ts), reconnected when one is; `onStuckMonitor` is told.
 */
export async function connectStore(
  uri: string,
  dbName: string,
  o: { onStuckMonitor?: (address: string) => void } = {},
): Promise<Store> {
  const client = new MongoClient(uri, { ...STORE_CLIENT_OPTIONS });
  await client.connect();
  const watchdog = watchStoreMonitors(client, o.onStuckMonitor ? { onStuck: o.onStuckMonitor } : {});
  const db = client.db(dbName);
  try {
    await ensureIndexes(db);
  } catch (e) {
    watchdog.stop();
    await client.close();
    throw e;
  }
  return {
    client,
    db,
    close: async () => {
      watchdog.stop();
      await client.close();
    },
  };
}

/** Asks the store to answer (a readiness probe): rejects when it does not. */
export async function pingStore(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

/** Drops a whole database: a time-skipping run starts on a fresh one of its own. */
export async function dropDatabase(uri: string, dbName: string): Promise<void> {
  const client = new MongoClient(uri, { ...STORE_CLIENT_OPTIONS });
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}

/**
 * The transactions collection's indexes: what each read of transaction-repository.ts needs on
 * MongoDB, and what the embedded store's patch answers those reads from (docs/contributors/store.md).
 */
export const TRANSACTION_INDEXES: readonly { key: Record<string, 1>; name: string; unique?: true; sparse?: true }[] = [
  // Orders are unique by their _id (merchant:orderId); gateway transaction ids are unique too.
  { key: { txnId: 1 }, name: 'txnId_unique', unique: true },
  // Ledger and bulk pages: by merchant and date, then txnId for a stable order.
  { key: { merchantIdentifier: 1, createdAt: 1, txnId: 1 }, name: 'merchant_created' },
  { key: { merchantIdentifier: 1, successAt: 1, txnId: 1 }, name: 'merchant_success' },
  // A walk's keyset check (has any of the merchant's transactions been written since a page was
  // read?), read as a two-sided date range so the embedded store answers from the index.
  { key: { merchantIdentifier: 1, updatedAt: 1, txnId: 1 }, name: 'merchant_updated' },
  // Settlements: a merchant's orders with a refund settled or a chargeback raised or reverted since
  // a date (`adjustedAt`, only on orders that have one), read as a two-sided date range.
  { key: { merchantIdentifier: 1, adjustedAt: 1, txnId: 1 }, name: 'merchant_adjusted', sparse: true },
  // The pending sweeps: what is due, least recently swept first (so a backlog rotates through runs).
  // The pending-payment sweep's queue (transaction-repository.ts, SweepQueue): only Pending orders hold it.
  { key: { sweepLane: 1, sweepDueAt: 1 }, name: 'sweep_lane_due', sparse: true },
  { key: { 'refunds.status': 1, refundsSweptAt: 1, updatedAt: 1 }, name: 'refund_status_swept_updated', sparse: true },
  // Chargeback changes whose webhook delivery a crash may have left unstarted (few: cleared once started).
  {
    key: { 'chargebackNotice.version': 1, chargebackNoticeSweptAt: 1, updatedAt: 1 },
    name: 'chargeback_notice_swept_updated',
    sparse: true,
  },
];

/** Indexes an earlier version created and no read uses any more (dropped at start-up). */
const REPLACED_INDEXES: readonly { collection: string; name: string }[] = [
  { collection: 'transactions', name: 'status_swept_updated' }, // by sweep_lane_due
  { collection: 'transactions', name: 'refund_status_updated' }, // by refund_status_swept_updated
  { collection: 'mandates', name: 'state_created' }, // by state_swept_created
];

export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('merchants').createIndex({ apiKeyHash: 1 }, { unique: true, name: 'apiKeyHash_unique' });
  await ensureTransactionIndexes(db.collection('transactions'));
  await db.collection('mandates').createIndex({ state: 1, sweptAt: 1, createdAt: 1 }, { name: 'state_swept_created' });
  // The dashboard's lists of a merchant's mandates, payment links and failed webhook deliveries, by period.
  await db.collection('mandates').createIndex({ merchantIdentifier: 1, createdAt: 1 }, { name: 'merchant_created' });
  await db.collection('payment_links').createIndex({ merchantIdentifier: 1, createdAt: 1 }, { name: 'merchant_created' });
  await db.collection('webhook_deliveries').createIndex({ merchantIdentifier: 1, createdAt: 1 }, { name: 'merchant_created' });
  // The dashboard: a merchant's users; a user's sessions (signing out everywhere).
  await db.collection('api_keys').createIndex({ merchantIdentifier: 1 }, { name: 'merchant' });
  await db.collection('dashboard_users').createIndex({ merchantIdentifier: 1 }, { name: 'merchant' });
  await db.collection('dashboard_sessions').createIndex({ email: 1 }, { name: 'email' });
  await ensureRateLimitIndexes(db);
  // A refund request's id outlives its replay window by nothing on MongoDB (the embedded store keeps it).
  await ttlIndex(db.collection('refund_requests'), 'expiresAt', 'expires_ttl');
  await ensureSettlementIndexes(db);
  await dropReplacedIndexes(db);
}

/** Settlements by merchant and date, by state (needs attention), lines by settlement (totals) and by merchant and date. */
async function ensureSettlementIndexes(db: Db): Promise<void> {
  const lines = db.collection('settlement_lines');
  await lines.createIndex({ merchantIdentifier: 1, settlementDate: 1 }, { name: 'merchant_date' });
  await lines.createIndex({ settlementId: 1 }, { name: 'settlement' });
  const settlements = db.collection('settlements');
  await settlements.createIndex({ merchantIdentifier: 1, settlementDate: 1 }, { name: 'merchant_date' });
  await settlements.createIndex({ state: 1, settlementDate: 1 }, { name: 'state_date' });
  await settlements.createIndex({ settlementDate: 1 }, { name: 'date' });
  // Needs attention: unfinished settlements of a state created before a time; the daily run's
  // re-starts: a merchant's unfinished settlements; the bank-file check: settlements paid on a date.
  await settlements.createIndex({ state: 1, createdAt: 1 }, { name: 'state_created' });
  await settlements.createIndex({ merchantIdentifier: 1, state: 1, settlementDate: 1 }, { name: 'merchant_state_date' });
  await settlements.createIndex({ state: 1, payoutRequestedAt: 1 }, { name: 'state_payout_requested', sparse: true });
  await settlements.createIndex({ state: 1, paidAt: 1 }, { name: 'state_paid' });
  await db.collection('settlement_differences').createIndex({ date: 1 }, { name: 'date' });
  await db.collection('settlement_differences').createIndex({ payoutId: 1 }, { name: 'payout' });
  await db.collection('audit_records').createIndex({ merchantIdentifier: 1, at: -1 }, { name: 'merchant_at' });
  await db.collection('audit_records').createIndex({ at: -1 }, { name: 'at' });
  await db.collection('operator_tokens').createIndex({ tokenHash: 1 }, { name: 'token_hash' });
  await db.collection('settlement_file_checks').createIndex({ state: 1 }, { name: 'state' });
}

async function dropReplacedIndexes(db: Db): Promise<void> {
  for (const { collection, name } of REPLACED_INDEXES)
    await db
      .collection(collection)
      .dropIndex(name)
      .catch((e: { code?: number; codeName?: string }) => {
        // IndexNotFound, or the collection does not exist yet
        if (e.code !== 27 && e.code !== 26 && e.codeName !== 'IndexNotFound' && e.codeName !== 'NamespaceNotFound') throw e;
      });
}

export async function ensureTransactionIndexes(coll: Collection): Promise<void> {
  for (const { key, ...options } of TRANSACTION_INDEXES) await coll.createIndex(key, options);
}

/**
 * rate-limiter-flexible's counters: one document per merchant and API family, found by `key`.
 * MongoDB also drops expired ones by TTL; FerretDB has no TTL indexes, and the limiter overwrites
 * an expired counter itself, so there they stay one per merchant and family.
 */
async function ensureRateLimitIndexes(db: Db): Promise<void> {
  const limits = db.collection('rate_limits');
  await limits.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
  await ttlIndex(limits, 'expire', 'expire_ttl');
}

async function ttlIndex(coll: Collection, field: string, name: string): Promise<void> {
  await coll.createIndex({ [field]: -1 }, { expireAfterSeconds: 0, name }).catch((e: { code?: number }) => {
    if (e.code !== 238) throw e; // NotImplemented: the embedded store
  });
}

export function isDuplicateKeyError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 11000;
}
