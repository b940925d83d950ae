import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { AuditRecord } from '../domain/audit';

interface AuditDoc extends AuditRecord {
  _id: string;
}

/**
 * The audit trail, append-only: this repository inserts and reads, and has no way to change or
 * remove a record. Read newest first, by merchant or across the gateway, with a keyset cursor.
 */
export class AuditRepository {
  private readonly records: Collection<AuditDoc>;
  constructor(db: Db) {
    this.records = db.collection<AuditDoc>('audit_records');
  }

  /** Records one action; `id` makes a retried record land once (default: a fresh id). */
  async record(r: AuditRecord, id: string = randomUUID()): Promise<void> {
    await this.records.updateOne({ _id: id }, { $setOnInsert: { ...r } }, { upsert: true });
  }

  /** At most `limit` records, newest first, older than the cursor `before` (a record's `at`). */
  async list(o: { merchantIdentifier?: string; before?: Date; limit: number }): Promise<(AuditRecord & { id: string })[]> {
    const filter = {
      ...(o.merchantIdentifier !== undefined ? { merchantIdentifier: o.merchantIdentifier } : {}),
      ...(o.before ? { at: { $lt: o.before } } : {}),
    };
    const docs = await this.records.find(filter).sort({ at: -1, _id: -1 }).limit(o.limit).toArray();
    return docs.map(({ _id, ...r }) => ({ id: _id, ...r }));
  }
}
