import type { Collection, Db } from 'mongodb';
import type { OperatorScope, OperatorToken } from '../domain/operator-token';

interface OperatorTokenDoc {
  /** The token's name: unique for good, a revoked token's name is not given again. */
  _id: string;
  /** Hex SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  scopes: OperatorScope[];
  createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

const view = (d: OperatorTokenDoc): OperatorToken => ({
  name: d._id,
  scopes: d.scopes,
  createdAt: d.createdAt,
  rotatedAt: d.rotatedAt,
  revokedAt: d.revokedAt,
});

/** The `operator_tokens` collection: named, scoped operator tokens, kept as hashes. */
export class OperatorTokenRepository {
  private readonly tokens: Collection<OperatorTokenDoc>;
  constructor(db: Db) {
    this.tokens = db.collection<OperatorTokenDoc>('operator_tokens');
  }

  /** False when the name is taken (by a live or a revoked token). */
  async create(name: string, tokenHash: string, scopes: OperatorScope[], now: Date): Promise<boolean> {
    try {
      await this.tokens.insertOne({ _id: name, tokenHash, scopes, createdAt: now, rotatedAt: null, revokedAt: null });
      return true;
    } catch (e) {
      if ((e as { code?: number }).code === 11000) return false;
      throw e;
    }
  }

  /** The unrevoked token of this hash: read on every operator request, so a revocation holds at once everywhere. */
  async findLive(tokenHash: string): Promise<OperatorToken | null> {
    const doc = await this.tokens.findOne({ tokenHash, revokedAt: null });
    return doc ? view(doc) : null;
  }

  async list(): Promise<OperatorToken[]> {
    return (await this.tokens.find({}).sort({ _id: 1 }).limit(1000).toArray()).map(view);
  }

  /** Replaces a live token's hash; null when there is no live token of that name. */
  async rotate(name: string, tokenHash: string, now: Date): Promise<OperatorToken | null> {
    const doc = await this.tokens.findOneAndUpdate(
      { _id: name, revokedAt: null },
      { $set: { tokenHash, rotatedAt: now } },
      { returnDocument: 'after' },
    );
    return doc ? view(doc) : null;
  }

  /** Revokes a token (again is a no-op); null when there is no token of that name. */
  async revoke(name: string, now: Date): Promise<{ token: OperatorToken; changed: boolean } | null> {
    const changed = await this.tokens.findOneAndUpdate(
      { _id: name, revokedAt: null },
      { $set: { revokedAt: now } },
      { returnDocument: 'after' },
    );
    if (changed) return { token: view(changed), changed: true };
    const doc = await this.tokens.findOne({ _id: name });
    return doc ? { token: view(doc), changed: false } : null;
  }
}
