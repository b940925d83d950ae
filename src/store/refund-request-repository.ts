import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

interface RefundRequestDoc {
  /** sha256 of the entry point, the merchant and the request's signed text (refund-requests.ts). */
  _id: string;
  merchantIdentifier: string;
  merchantRefId: string;
  firstAt: Date;
  /** firstAt + the replay window: a TTL index drops it on MongoDB (the embedded store keeps it, overwritten when reused). */
  expiresAt: Date;
}

export const REFUND_REQUESTS = 'refund_requests';

/**
 * The merchantRefId the gateway gave a refund request sent without one, by the request's hash: the
 * same signed request within the window is the same refund. One document per hash, claimed by its
 * unique _id, so two requests at once get one id.
 */
export class RefundRequestRepository {
  private readonly requests: Collection<RefundRequestDoc>;
  constructor(db: Db) {
    this.requests = db.collection<RefundRequestDoc>(REFUND_REQUESTS);
  }

  /**
   * The merchantRefId of the request `hash`: the one stored while it is unexpired at `now`, else
   * `candidate`, stored first (written before any refund starts under it).
   */
  async claim(o: {
    hash: string;
    merchantIdentifier: string;
    candidate: string;
    now: Date;
    windowMs: number;
    /** The stored id's refund failed: replace that id (only that one) with `candidate`. */
    replacing?: string;
  }): Promise<string> {
    const fresh = () => ({
      merchantIdentifier: o.merchantIdentifier,
      merchantRefId: o.candidate,
      firstAt: o.now,
      expiresAt: new Date(o.now.getTime() + o.windowMs),
    });
    if (o.replacing !== undefined) {
      await this.requests.updateOne({ _id: o.hash, merchantRefId: o.replacing }, { $set: fresh() });
      const now = await this.requests.findOne({ _id: o.hash });
      if (now) return now.merchantRefId;
    }
    for (;;) {
      const stored = await this.requests.findOne({ _id: o.hash });
      if (stored && stored.expiresAt.getTime() > o.now.getTime()) return stored.merchantRefId;
      if (!stored) {
        const inserted = await this.requests.insertOne({ _id: o.hash, ...fresh() }).then(
          () => true,
          (e: unknown) => {
            if (isDuplicateKeyError(e)) return false;
            throw e;
          },
        );
        if (inserted) return o.candidate;
        continue; // another request claimed it a moment ago: take its id
      }
      // Expired: a new request, replacing the old record only if nobody replaced it meanwhile.
      const replaced = await this.requests.updateOne({ _id: o.hash, firstAt: stored.firstAt }, { $set: fresh() });
      if (replaced.modifiedCount === 1) return o.candidate;
    }
  }
}
