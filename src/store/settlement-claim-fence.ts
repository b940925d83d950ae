import type { Collection, Db } from 'mongodb';
import type { SettlementState } from '../domain/settlement';

/**
 * How long a claim page's lease lasts from its last renewal. A page renews it before each write
 * (every CLAIMS_PER_COMMAND claims), so it only runs out for an attempt that stopped making
 * progress: one that Temporal gave up on (no heartbeat) and that may still be running somewhere.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

/**
 * A write starts only while this much of the lease is left: the margin covers one write's
 * duration and the clock difference between the worker claiming and the one totalling.
 */
export const CLAIM_LEASE_MARGIN_MS = 30_000;

interface FenceDoc {
  _id: string;
  state: SettlementState;
  /** Until when a claim page may write (renewed by the page as it goes). */
  claimLeaseUntil?: Date;
  /** Set once by the totals step: no claim page writes after it. */
  claimsClosedAt?: Date;
}

export class ClaimsClosedError extends Error {
  override readonly name = 'ClaimsClosedError';
}

/**
 * Orders a settlement's claim pages before its totals, on the settlement's own document (the two
 * write different collections, so no single write can order them). A page writes only under a
 * lease taken while the settlement is `open` with claims not closed; the totals step closes the
 * claims only from `open` and only once no lease is live, and sums the lines after that. So a late
 * attempt of a page (one Temporal retried or timed out, still running) adds nothing after the totals.
 */
export class SettlementClaimFence {
  private readonly settlements: Collection<FenceDoc>;

  constructor(db: Db) {
    this.settlements = db.collection<FenceDoc>('settlements');
  }

  /** Takes or renews the claim lease; null when the settlement is not open or its claims are closed. */
  async lease(id: string, now: Date): Promise<Date | null> {
    const until = new Date(now.getTime() + CLAIM_LEASE_MS);
    const r = await this.settlements.updateOne(
      { _id: id, state: 'open', claimsClosedAt: { $exists: false } },
      { $max: { claimLeaseUntil: until } },
    );
    return r.matchedCount === 1 ? until : null;
  }

  /** Gives the lease back at the end of a page (unless a later attempt renewed it since). */
  async release(id: string, until: Date): Promise<void> {
    await this.settlements.updateOne({ _id: id, claimLeaseUntil: until }, { $unset: { claimLeaseUntil: '' } });
  }

  /**
   * Closes the claims for the totals: 'closed' (now, or by an earlier attempt), 'busy' while a
   * claim page's lease is live (try again later), 'notOpen' when the settlement went further.
   */
  async close(id: string, now: Date): Promise<'closed' | 'busy' | 'notOpen'> {
    const r = await this.settlements.updateOne(
      {
        _id: id,
        state: 'open',
        claimsClosedAt: { $exists: false },
        $or: [{ claimLeaseUntil: { $exists: false } }, { claimLeaseUntil: { $lte: now } }],
      },
      { $set: { claimsClosedAt: now } },
    );
    if (r.matchedCount === 1) return 'closed';
    const s = await this.settlements.findOne({ _id: id }, { projection: { state: 1, claimsClosedAt: 1 } });
    if (s?.state !== 'open') return 'notOpen';
    return s.claimsClosedAt ? 'closed' : 'busy';
  }

  /**
   * The guard a claim page calls before each write (`check`): renews the lease when half of it is
   * gone; throws ClaimsClosedError once the claims are closed, and a plain (retried) error when the
   * lease ran out while they are not. `until` is the lease as last taken (to release it).
   */
  guard(id: string, now: () => Date, until: Date, beat: () => void): { check: () => Promise<void>; until: () => Date } {
    let leaseUntil = until;
    const check = async () => {
      beat();
      const at = now();
      if (leaseUntil.getTime() - at.getTime() < CLAIM_LEASE_MS / 2) {
        const renewed = await this.lease(id, at);
        if (!renewed) throw new ClaimsClosedError(`settlement ${id}: claims closed, this page writes nothing more`);
        leaseUntil = renewed;
      }
      if (now().getTime() > leaseUntil.getTime() - CLAIM_LEASE_MARGIN_MS)
        throw new Error(`settlement ${id}: the claim lease ran out before a write; the page is retried`);
    };
    return { check, until: () => leaseUntil };
  }
}
