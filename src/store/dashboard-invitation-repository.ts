import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { DashboardInvitation } from '../domain/dashboard-staff';

/** One-time invitations to the dashboard, keyed by the SHA-256 of the link's token. */
type DashboardInvitationDoc = DashboardInvitation & { _id: string };

export type { DashboardInvitation };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export class DashboardInvitationRepository {
  private readonly invitations: Collection<DashboardInvitationDoc>;
  constructor(db: Db) {
    this.invitations = db.collection<DashboardInvitationDoc>('dashboard_invitations');
  }

  async create(token: string, i: DashboardInvitation): Promise<void> {
    await this.invitations.insertOne({ _id: tokenHash(token), ...i });
  }

  async find(token: string): Promise<DashboardInvitation | null> {
    const doc = await this.invitations.findOne({ _id: tokenHash(token) });
    if (!doc) return null;
    const { _id, ...invitation } = doc;
    void _id;
    return invitation;
  }

  /** Whether the merchant has an owner invitation still open (unused, unexpired) at `now`. */
  async ownerInvitationOpen(merchantIdentifier: string, now: Date): Promise<boolean> {
    const doc = await this.invitations.findOne(
      { merchantIdentifier, role: 'owner', usedAt: null, expiresAt: { $gt: now } },
      { projection: { _id: 1 } },
    );
    return doc !== null;
  }

  /** Marks the invitation used if it is still unused and unexpired at `now`: only one caller ever wins. */
  async consume(token: string, now: Date): Promise<boolean> {
    const r = await this.invitations.updateOne(
      { _id: tokenHash(token), usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
    );
    return r.modifiedCount === 1;
  }
}
