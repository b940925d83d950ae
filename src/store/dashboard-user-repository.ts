import type { Collection, Db } from 'mongodb';
import type { DashboardRole } from '../domain/dashboard-roles';
import type { DashboardUser } from '../domain/dashboard-staff';
import { isDuplicateKeyError } from './mongo';

/** A dashboard user, keyed by its normalised email: one email belongs to one merchant. */
interface DashboardUserDoc {
  _id: string;
  merchantIdentifier: string;
  role: DashboardRole;
  passwordHash: string;
  createdAt: Date;
}

export type { DashboardUser };

const toUser = (d: DashboardUserDoc): DashboardUser => ({
  email: d._id,
  merchantIdentifier: d.merchantIdentifier,
  role: d.role,
  passwordHash: d.passwordHash,
  createdAt: d.createdAt,
});

export class DashboardUserRepository {
  private readonly users: Collection<DashboardUserDoc>;
  constructor(db: Db) {
    this.users = db.collection<DashboardUserDoc>('dashboard_users');
  }

  /** False (nothing stored) when the email has an account already. */
  async create(u: DashboardUser): Promise<boolean> {
    return this.users
      .insertOne({
        _id: u.email,
        merchantIdentifier: u.merchantIdentifier,
        role: u.role,
        passwordHash: u.passwordHash,
        createdAt: u.createdAt,
      })
      .then(
        () => true,
        (e: unknown) => {
          if (isDuplicateKeyError(e)) return false;
          throw e;
        },
      );
  }

  async find(email: string): Promise<DashboardUser | null> {
    const doc = await this.users.findOne({ _id: email });
    return doc ? toUser(doc) : null;
  }

  /** The user only if it belongs to this merchant (another merchant's user is "not found"). */
  async findOfMerchant(merchantIdentifier: string, email: string): Promise<DashboardUser | null> {
    const doc = await this.users.findOne({ _id: email, merchantIdentifier });
    return doc ? toUser(doc) : null;
  }

  async listOfMerchant(merchantIdentifier: string): Promise<DashboardUser[]> {
    return (await this.users.find({ merchantIdentifier }).sort({ _id: 1 }).limit(1000).toArray()).map(toUser);
  }

  /** Replaces the password hash only if it is still `previous` (a rehash at a higher cost; a concurrent change wins). */
  async replacePasswordHash(email: string, previous: string, next: string): Promise<boolean> {
    const r = await this.users.updateOne({ _id: email, passwordHash: previous }, { $set: { passwordHash: next } });
    return r.modifiedCount === 1;
  }

  async setRole(merchantIdentifier: string, email: string, role: DashboardRole): Promise<boolean> {
    const r = await this.users.updateOne({ _id: email, merchantIdentifier }, { $set: { role } });
    return r.matchedCount === 1;
  }

  async remove(merchantIdentifier: string, email: string): Promise<boolean> {
    const r = await this.users.deleteOne({ _id: email, merchantIdentifier });
    return r.deletedCount === 1;
  }
}
