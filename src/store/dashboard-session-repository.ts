import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { DashboardSession } from '../domain/dashboard-staff';

/**
 * Dashboard sessions, keyed by the SHA-256 of the cookie's token (a copy of the store holds no
 * usable session), each with its own CSRF token. No TTL index (the embedded store has none):
 * an expired session is refused when read and deleted then.
 */
interface DashboardSessionDoc {
  _id: string;
  email: string;
  merchantIdentifier: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export type { DashboardSession };

export const sessionTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export class DashboardSessionRepository {
  private readonly sessions: Collection<DashboardSessionDoc>;
  constructor(db: Db) {
    this.sessions = db.collection<DashboardSessionDoc>('dashboard_sessions');
  }

  async create(token: string, s: DashboardSession): Promise<void> {
    await this.sessions.insertOne({ _id: sessionTokenHash(token), ...s });
  }

  /** The session of a cookie's token, if it exists and has not expired at `now`. */
  async find(token: string, now: Date): Promise<DashboardSession | null> {
    const id = sessionTokenHash(token);
    const doc = await this.sessions.findOne({ _id: id });
    if (!doc) return null;
    if (doc.expiresAt.getTime() <= now.getTime()) {
      await this.sessions.deleteOne({ _id: id });
      return null;
    }
    return {
      email: doc.email,
      merchantIdentifier: doc.merchantIdentifier,
      csrfToken: doc.csrfToken,
      createdAt: doc.createdAt,
      expiresAt: doc.expiresAt,
    };
  }

  async remove(token: string): Promise<void> {
    await this.sessions.deleteOne({ _id: sessionTokenHash(token) });
  }

  /** Signs the user out everywhere (and a removed user at once). Returns how many sessions ended. */
  async removeAllOf(email: string): Promise<number> {
    return (await this.sessions.deleteMany({ email })).deletedCount;
  }
}
