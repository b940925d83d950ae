import type { Collection, Db } from 'mongodb';
import {
  addLines,
  EMPTY_TOTALS,
  type Settlement,
  type SettlementDifference,
  type SettlementLine,
  type SettlementStartFailure,
  type SettlementState,
  type SettlementTotals,
} from '../domain/settlement';
import { isDuplicateKeyError } from './mongo';
import { pendingLineSettlementId } from './settlement-claim-repository';

export type { SettlementDifference, SettlementStartFailure };

/** Parked split shares moved per write: one write stays well inside the claim lease's margin. */
const ADOPT_PAGE_SIZE = 1000;

/**
 * The `settlements` (one per merchant and date, `_id` the workflow id) and `settlement_lines`
 * collections, and the differences found against the bank's files. Every write is conditional on
 * the state it moves from, so a retried activity changes nothing the first attempt changed.
 */
export class SettlementRepository {
  readonly settlements: Collection<Settlement & { carriedIntoId?: string }>;
  readonly lines: Collection<SettlementLine>;
  private readonly differences: Collection<SettlementDifference>;
  private readonly merchants: Collection<{ _id: string }>;
  private readonly startFailures: Collection<SettlementStartFailure>;

  constructor(db: Db) {
    this.startFailures = db.collection<SettlementStartFailure>('settlement_start_failures');
    this.merchants = db.collection<{ _id: string }>('merchants');
    this.settlements = db.collection('settlements');
    this.lines = db.collection<SettlementLine>('settlement_lines');
    this.differences = db.collection<SettlementDifference>('settlement_differences');
  }

  /** Creates the settlement (state open, or held) unless it exists; returns it as stored. */
  async open(id: string, merchantIdentifier: string, settlementDate: string, held: boolean, now: Date): Promise<Settlement> {
    const fresh: Settlement = {
      _id: id,
      merchantIdentifier,
      settlementDate,
      state: held ? 'held' : 'open',
      lineCount: 0,
      grossPaise: 0,
      refundsPaise: 0,
      chargebacksPaise: 0,
      feePaise: 0,
      taxPaise: 0,
      carriedInPaise: 0,
      netPaise: 0,
      carriedOutPaise: 0,
      createdAt: now,
    };
    try {
      await this.settlements.insertOne(fresh);
      return fresh;
    } catch (e) {
      if (!isDuplicateKeyError(e)) throw e;
      return (await this.find(id))!;
    }
  }

  async find(id: string): Promise<Settlement | null> {
    return this.settlements.findOne({ _id: id });
  }

  /** Moves between open and held (the merchant's hold); nothing once the settlement went further. */
  async setHeld(id: string, held: boolean): Promise<void> {
    await this.settlements.updateOne(
      { _id: id, state: held ? 'open' : 'held' },
      { $set: { state: held ? 'held' : 'open' }, $unset: { heldReason: '', coolingUntil: '' } },
    );
  }

  /** An open settlement waits in held until its account's cooling ends (or an operator confirms the account). */
  async holdForCooling(id: string, until: Date): Promise<void> {
    await this.settlements.updateOne(
      { _id: id, state: 'open' },
      { $set: { state: 'held', heldReason: 'account_cooling', coolingUntil: until } },
    );
  }

  /** Whether split shares wait parked for this merchant (the `settlement` index). */
  async hasParkedLines(merchantIdentifier: string): Promise<boolean> {
    return (
      (await this.lines.findOne({ settlementId: pendingLineSettlementId(merchantIdentifier) }, { projection: { _id: 1 } })) !==
      null
    );
  }

  /**
   * Split shares other merchants' settlements parked for this merchant join this settlement, a
   * bounded page at a time (`settlement` index): each page's ids are read, then `check` (the claim
   * fence's guard: it throws once the totals may have run) is called before the conditional write.
   * Returns how many lines it moved.
   */
  async adoptParkedLines(
    merchantIdentifier: string,
    id: string,
    settlementDate: string,
    check: () => Promise<void>,
    pageSize = ADOPT_PAGE_SIZE,
  ): Promise<number> {
    const parked = pendingLineSettlementId(merchantIdentifier);
    let moved = 0;
    for (;;) {
      const page = await this.lines.find({ settlementId: parked }, { projection: { _id: 1 }, limit: pageSize }).toArray();
      if (page.length === 0) return moved;
      await check();
      const r = await this.lines.updateMany(
        { _id: { $in: page.map((l) => l._id) }, settlementId: parked },
        { $set: { settlementId: id, settlementDate } },
      );
      moved += r.modifiedCount;
      if (page.length < pageSize) return moved;
    }
  }

  /**
   * The sums of a settlement's lines, streamed through the `settlement` index and added here: the
   * embedded store's `$group` does not sum (FerretDB 1.24 answers 0), and the cost is the lines' anyway.
   * `progress` is called after every 1,000 lines (the totals activity's heartbeat).
   */
  async totals(id: string, progress: () => void = () => undefined): Promise<SettlementTotals> {
    let t = EMPTY_TOTALS;
    const cursor = this.lines.find(
      { settlementId: id },
      { projection: { _id: 0, action: 1, amountPaise: 1, feePaise: 1, taxPaise: 1, settlementAmountPaise: 1 }, batchSize: 1000 },
    );
    let batch: SettlementLine[] = [];
    for await (const line of cursor) {
      batch.push(line);
      if (batch.length === 1000) {
        t = addLines(t, batch);
        batch = [];
        progress();
      }
    }
    return addLines(t, batch);
  }

  /**
   * Takes into this settlement what the merchant's earlier ones carried out (a negative net, a
   * refused payout), each once: claimed by `carriedIntoId`. Returns the sum this settlement holds.
   */
  async takeCarried(merchantIdentifier: string, id: string, settlementDate: string): Promise<number> {
    const carrying = {
      merchantIdentifier,
      state: { $in: ['carried_forward', 'payout_refused'] as SettlementState[] },
      settlementDate: { $lt: settlementDate },
    };
    await this.settlements.updateMany({ ...carrying, carriedIntoId: { $exists: false } }, { $set: { carriedIntoId: id } });
    const taken = await this.settlements
      .find({ ...carrying, carriedIntoId: id }, { projection: { carriedOutPaise: 1 } })
      .toArray();
    return taken.reduce((sum, s) => sum + s.carriedOutPaise, 0);
  }

  /** Records the totals while the settlement is open (a retry writes the same sums). */
  async setTotals(id: string, t: SettlementTotals, carriedInPaise: number): Promise<void> {
    const { linesNetPaise, ...sums } = t;
    await this.settlements.updateOne(
      { _id: id, state: 'open' },
      { $set: { ...sums, carriedInPaise, netPaise: linesNetPaise + carriedInPaise } },
    );
  }

  /** Nothing to pay: the (zero or negative) net is carried into the next settlement. */
  async carryForward(id: string): Promise<Settlement | null> {
    const s = await this.find(id);
    if (!s) return null;
    await this.settlements.updateOne(
      { _id: id, state: 'open' },
      { $set: { state: 'carried_forward', carriedOutPaise: s.netPaise } },
    );
    return this.find(id);
  }

  /**
   * The payout is about to be asked for: the account it goes to is recorded first (its number
   * sealed), and every later request of the payout sends that account.
   */
  async markPayoutRequested(id: string, account: NonNullable<Settlement['payoutAccount']>, at: Date): Promise<void> {
    await this.settlements.updateOne(
      { _id: id, state: 'open' },
      {
        $set: {
          state: 'payout_requested',
          payoutId: id,
          ifsc: account.ifsc,
          accountLast4: account.accountLast4,
          payoutAccount: account,
          payoutRequestedAt: at,
        },
      },
    );
  }

  /** A payout requested before the account was kept on the settlement keeps the account read now, once. */
  async keepPayoutAccount(id: string, account: NonNullable<Settlement['payoutAccount']>): Promise<void> {
    await this.settlements.updateOne(
      { _id: id, state: 'payout_requested', payoutAccount: { $exists: false } },
      { $set: { payoutAccount: account, ifsc: account.ifsc, accountLast4: account.accountLast4 } },
    );
  }

  /** A hold that arrived before the bank was asked moves the settlement back to held; false once the bank was asked. */
  async returnToHeld(id: string): Promise<boolean> {
    const r = await this.settlements.updateOne(
      { _id: id, state: 'payout_requested', awaitingBankSince: { $exists: false } },
      { $set: { state: 'held' } },
    );
    return r.modifiedCount === 1;
  }

  /** The bank is about to be asked: from now on no hold stops the payout, and it is awaited since `at`. */
  /** True when this call marked it (its request is the payout's first); false when it already was. */
  async markAwaitingBank(id: string, at: Date): Promise<boolean> {
    const r = await this.settlements.updateOne(
      { _id: id, state: 'payout_requested', awaitingBankSince: { $exists: false } },
      { $set: { awaitingBankSince: at } },
    );
    return r.modifiedCount === 1;
  }

  /** The UTR is kept on the settlement only: a line's readers take it from its settlement (one write at any volume). */
  async recordPaid(id: string, utr: string, at: Date): Promise<void> {
    await this.settlements.updateOne(
      { _id: id, state: 'payout_requested' },
      { $set: { state: 'paid', utr, paidAt: at, carriedOutPaise: 0 } },
    );
  }

  /** The bank refused (or there is no account): the whole net is carried into the next settlement. */
  async recordRefused(id: string, reason: string): Promise<void> {
    const s = await this.find(id);
    if (!s) return;
    await this.settlements.updateOne(
      { _id: id, state: { $in: ['open', 'payout_requested'] } },
      { $set: { state: 'payout_refused', failureReason: reason, carriedOutPaise: s.netPaise } },
    );
  }

  /** Refused payouts whose money is not yet taken by a later settlement: the operator's "needs attention". */
  async refusedNotCarried(limit: number): Promise<Settlement[]> {
    return this.settlements
      .find({ state: 'payout_refused', carriedIntoId: { $exists: false } })
      .sort({ settlementDate: 1 })
      .limit(limit)
      .toArray();
  }

  /** Notes that the daily run gave up starting the merchant's settlement of the date (kept until a start succeeds). */
  async recordStartFailure(f: Omit<SettlementStartFailure, '_id'>): Promise<void> {
    const _id = `${f.merchantIdentifier}:${f.settlementDate}`;
    await this.startFailures.replaceOne({ _id }, f, { upsert: true });
  }

  /** A start that succeeded (or found nothing due) clears what an earlier run noted for that date. */
  async clearStartFailure(merchantIdentifier: string, settlementDate: string): Promise<void> {
    await this.startFailures.deleteOne({ _id: `${merchantIdentifier}:${settlementDate}` });
  }

  /** Settlements the daily run could not start, oldest date first: the operator's "needs attention". */
  async startFailuresListed(limit: number): Promise<SettlementStartFailure[]> {
    return this.startFailures.find({}).sort({ settlementDate: 1, merchantIdentifier: 1 }).limit(limit).toArray();
  }

  /** The merchant's settlements whose payout is requested and not yet answered: a hold cannot stop them. */
  async payoutRequestedIds(merchantIdentifier: string): Promise<string[]> {
    const found = await this.settlements
      .find({ state: 'payout_requested', merchantIdentifier }, { projection: { _id: 1 } })
      .toArray();
    return found.map((s) => s._id);
  }

  /** Held settlements: waiting for the operator's release. */
  async held(merchantIdentifier?: string): Promise<Settlement[]> {
    return this.settlements.find({ state: 'held', ...(merchantIdentifier ? { merchantIdentifier } : {}) }).toArray();
  }

  async findByPayoutIds(ids: string[]): Promise<Settlement[]> {
    return ids.length ? this.settlements.find({ _id: { $in: ids } }).toArray() : [];
  }

  /** A page of merchants' identifiers in `_id` order after `after` (the daily starter walks them a page at a time). */
  async merchantIdentifiersAfter(after: string | null, limit: number): Promise<string[]> {
    const rows = await this.merchants
      .find(after === null ? {} : { _id: { $gt: after } }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return rows.map((m) => m._id);
  }

  /** Lines parked for the merchant by others' split orders, or money carried in from a refused payout. */
  async hasParkedOrRefused(merchantIdentifier: string): Promise<boolean> {
    const parked = await this.lines.findOne({ merchantIdentifier, settlementId: pendingLineSettlementId(merchantIdentifier) });
    if (parked) return true;
    return (
      (await this.settlements.findOne({ merchantIdentifier, state: 'payout_refused', carriedIntoId: { $exists: false } })) !==
      null
    );
  }

  /** Records a difference once; one found again keeps what was first recorded (never overwritten). */
  async recordDifference(d: SettlementDifference): Promise<boolean> {
    try {
      await this.differences.insertOne(d);
      return true;
    } catch (e) {
      if (isDuplicateKeyError(e)) return false;
      throw e;
    }
  }

  async differencesOn(date: string | undefined, limit: number): Promise<SettlementDifference[]> {
    return this.differences
      .find(date ? { date } : {})
      .sort({ date: -1, _id: 1 })
      .limit(limit)
      .toArray();
  }
}
