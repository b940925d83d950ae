import type { Collection, Db } from 'mongodb';
import type { FeePlan } from '../domain/settlement-fees';

/** What an operator set about a merchant's settlements. */
export interface SettlementSettings {
  /** The merchant's own fee plan; absent: the configuration's default (SETTLEMENT_FEE_PLAN). */
  feePlan?: FeePlan;
  /** Held: its settlements wait (state `held`) until an operator releases them. */
  held: boolean;
  heldAt?: Date;
  updatedAt?: Date;
}

type SettingsDoc = Partial<SettlementSettings> & { _id: string };

/** `settlement_settings`, one document per merchant (`_id` its identifier), written only by the ops API. */
export class SettlementSettingsRepository {
  private readonly coll: Collection<SettingsDoc>;

  constructor(db: Db) {
    this.coll = db.collection<SettingsDoc>('settlement_settings');
  }

  async get(merchantIdentifier: string): Promise<SettlementSettings> {
    const d = await this.coll.findOne({ _id: merchantIdentifier });
    return {
      ...(d?.feePlan ? { feePlan: d.feePlan } : {}),
      held: d?.held ?? false,
      ...(d?.heldAt ? { heldAt: d.heldAt } : {}),
    };
  }

  async setFeePlan(merchantIdentifier: string, feePlan: FeePlan, now: Date): Promise<void> {
    await this.coll.updateOne({ _id: merchantIdentifier }, { $set: { feePlan, updatedAt: now } }, { upsert: true });
  }

  async setHeld(merchantIdentifier: string, held: boolean, now: Date): Promise<void> {
    await this.coll.updateOne(
      { _id: merchantIdentifier },
      held ? { $set: { held, heldAt: now, updatedAt: now } } : { $set: { held, updatedAt: now }, $unset: { heldAt: '' } },
      { upsert: true },
    );
  }
}
