import type { Collection, Db } from 'mongodb';
import type { ReconciliationReport, ReconciliationRow, ReconciliationState, Rejection } from '../domain/reconciliation';

export type { ReconciliationReport, ReconciliationState };

export interface BatchResult {
  applied: number;
  unchanged: number;
  rejected: Rejection[];
  /** Orders this batch turned into delayed successes (or answered for a waiting payment), for webhooks. */
  changed: { merchantIdentifier: string; orderId: string; txnId: string; autoRefundRefId: string | null }[];
}

interface ReconciliationDoc extends Omit<ReconciliationReport, 'reconciliationId'> {
  _id: string;
  batches: number;
  createdAt: Date;
  finishedAt: Date | null;
}

interface BatchDoc {
  _id: string;
  rows: ReconciliationRow[];
  result: BatchResult | null;
  /** Who is applying the batch now, until when (absent: no one has yet). */
  lease?: BatchLease | null;
}

/** One activity attempt's hold on a batch: `owner` is unique to the attempt. */
export interface BatchLease {
  owner: string;
  until: Date;
}

const batchKey = (reconciliationId: string, n: number) => `${reconciliationId}:${n}`;

/**
 * A reconciliation file's rows live in batches keyed `<id>:<n>`, so its workflow passes only batch
 * numbers through Temporal history and each batch's outcome is written once, by `_id`.
 */
export class ReconciliationRepository {
  private readonly reconciliations: Collection<ReconciliationDoc>;
  private readonly batches: Collection<BatchDoc>;

  constructor(db: Db) {
    this.reconciliations = db.collection<ReconciliationDoc>('reconciliations');
    this.batches = db.collection<BatchDoc>('reconciliation_batches');
  }

  /** Stores the rows in batches and the report as running; returns the number of batches. */
  async create(
    reconciliationId: string,
    parsed: { rows: ReconciliationRow[]; rejected: Rejection[]; lines: number },
    batchSize: number,
    at: Date,
  ): Promise<number> {
    const batches: BatchDoc[] = [];
    for (let i = 0; i < parsed.rows.length; i += batchSize) {
      batches.push({ _id: batchKey(reconciliationId, batches.length), rows: parsed.rows.slice(i, i + batchSize), result: null });
    }
    if (batches.length > 0) await this.batches.insertMany(batches);
    await this.reconciliations.insertOne({
      _id: reconciliationId,
      state: 'running',
      rows: parsed.lines,
      applied: 0,
      unchanged: 0,
      rejected: parsed.rejected,
      batches: batches.length,
      createdAt: at,
      finishedAt: null,
    });
    return batches.length;
  }

  async batch(reconciliationId: string, n: number): Promise<BatchDoc | null> {
    return this.batches.findOne({ _id: batchKey(reconciliationId, n) });
  }

  /**
   * Takes the batch for `lease.owner` until `lease.until`, if it has no result and no one else holds
   * an unexpired lease on it (or extends the owner's own). True when the caller now holds it: two
   * workers (an activity timed out on one and retried on another) never apply one batch at once.
   */
  async leaseBatch(reconciliationId: string, n: number, lease: BatchLease, at: Date): Promise<boolean> {
    const r = await this.batches.updateOne(
      {
        _id: batchKey(reconciliationId, n),
        result: null,
        $or: [{ lease: null }, { 'lease.until': { $lte: at } }, { 'lease.owner': lease.owner }],
      },
      { $set: { lease } },
    );
    return r.matchedCount === 1;
  }

  /**
   * Records a batch's outcome once, if `owner` still holds its lease; a retried activity finds it
   * and does not apply the rows again. False when the lease was lost (nothing saved).
   */
  async saveBatchResult(reconciliationId: string, n: number, result: BatchResult, owner: string): Promise<boolean> {
    const r = await this.batches.updateOne(
      { _id: batchKey(reconciliationId, n), result: null, 'lease.owner': owner },
      { $set: { result, lease: null } },
    );
    return r.modifiedCount === 1;
  }

  /** Sums the batches into the report and marks it done. */
  async finish(reconciliationId: string, at: Date): Promise<ReconciliationReport> {
    const doc = await this.reconciliations.findOne({ _id: reconciliationId });
    if (!doc) throw new Error(`reconciliation ${reconciliationId} does not exist`);
    let applied = 0;
    let unchanged = 0;
    const rejected = doc.state === 'done' ? doc.rejected : [...doc.rejected];
    if (doc.state !== 'done') {
      for (let n = 0; n < doc.batches; n++) {
        const result = (await this.batch(reconciliationId, n))?.result;
        if (!result) throw new Error(`batch ${n} of reconciliation ${reconciliationId} has no result yet`);
        applied += result.applied;
        unchanged += result.unchanged;
        rejected.push(...result.rejected);
      }
      rejected.sort((a, b) => a.line - b.line);
      await this.reconciliations.updateOne(
        { _id: reconciliationId, state: 'running' },
        { $set: { state: 'done', applied, unchanged, rejected, finishedAt: at } },
      );
    }
    return (await this.report(reconciliationId))!;
  }

  async report(reconciliationId: string): Promise<ReconciliationReport | null> {
    const doc = await this.reconciliations.findOne({ _id: reconciliationId });
    if (!doc) return null;
    return {
      reconciliationId,
      state: doc.state,
      rows: doc.rows,
      applied: doc.applied,
      unchanged: doc.unchanged,
      rejected: doc.rejected,
    };
  }
}
