import type { Collection, Db } from 'mongodb';
import type { Settlement, SettlementDifference, SettlementFileCheck } from '../domain/settlement';
import { stateSince, UNFINISHED_SETTLEMENT_STATES, type UnfinishedState } from '../domain/settlement-attention';
import { EARLIEST_DATE } from './transaction-doc';

export type { SettlementFileCheck };

/**
 * The reads behind "needs attention" and the daily run's re-starts, each answered from an index
 * (src/store/mongo.ts) so its cost follows the settlements that are unfinished, never the store:
 * `state_created` and `state_payout_requested` (a state, then a range of two dates) and `merchant_state_date` (a merchant and
 * its unfinished states). Also the record of each bank-file check.
 */
export class SettlementAttentionRepository {
  private readonly settlements: Collection<Settlement & { payoutRequestedAt?: Date }>;
  private readonly fileChecks: Collection<SettlementFileCheck>;
  private readonly differences: Collection<SettlementDifference>;

  constructor(db: Db) {
    this.settlements = db.collection('settlements');
    this.differences = db.collection<SettlementDifference>('settlement_differences');
    this.fileChecks = db.collection<SettlementFileCheck>('settlement_file_checks');
  }

  /**
   * Settlements in `state` since before `before`, longest waiting first (the ones that may have
   * waited too long), judged as `stateSince` judges them: a requested payout by its
   * `payoutRequestedAt` (`state_payout_requested`; one stored before that field by its
   * `createdAt`), every other state by its `createdAt` (`state_created`).
   */
  async inStateBefore(state: UnfinishedState, before: Date, limit: number): Promise<Settlement[]> {
    const created = (extra: object) =>
      this.settlements
        .find({ state, createdAt: { $gte: EARLIEST_DATE, $lt: before }, ...extra })
        .sort({ createdAt: 1 })
        .limit(limit)
        .toArray();
    if (state !== 'payout_requested') return created({});
    const requested = await this.settlements
      .find({ state, payoutRequestedAt: { $gte: EARLIEST_DATE, $lt: before } })
      .sort({ payoutRequestedAt: 1 })
      .limit(limit)
      .toArray();
    const both = [...requested, ...(await created({ payoutRequestedAt: { $exists: false } }))];
    return both.sort((a, b) => stateSince(a).getTime() - stateSince(b).getTime()).slice(0, limit);
  }

  /** Those of these settlements that are not final (by `_id`). */
  unfinishedByIds(ids: string[]): Promise<Settlement[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.settlements.find({ _id: { $in: ids }, state: { $in: [...UNFINISHED_SETTLEMENT_STATES] } }).toArray();
  }

  /** Held settlements, oldest first: waiting for the operator's release. */
  held(limit: number): Promise<Settlement[]> {
    return this.settlements.find({ state: 'held' }).sort({ createdAt: 1 }).limit(limit).toArray();
  }

  /** Differences found in the bank's files of these dates and not resolved since (`date` index), newest date first. */
  differencesOn(dates: string[], limit: number): Promise<SettlementDifference[]> {
    return this.differences
      .find({ date: { $in: dates }, resolvedAt: { $exists: false } })
      .sort({ date: -1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /**
   * Settles `paid_at_bank_not_recorded` differences of these dates whose payout the gateway has
   * since recorded paid: with the bank's amount and UTR it is `recorded_paid`; with another, that
   * difference (`amount_differs`, `utr_differs`) is recorded in its place. Each is marked, never
   * deleted; a conditional write, so concurrent looks mark it once. Returns how many were marked.
   */
  async resolveRecordedPayouts(dates: string[], now: Date, limit: number): Promise<number> {
    const open = await this.differences
      .find({ date: { $in: dates }, kind: 'paid_at_bank_not_recorded', resolvedAt: { $exists: false } })
      .limit(limit)
      .toArray();
    if (!open.length) return 0;
    const paid = new Map(
      (await this.settlements.find({ _id: { $in: open.map((d) => d.payoutId) }, state: 'paid' }).toArray()).map((s) => [
        s._id,
        s,
      ]),
    );
    let resolved = 0;
    for (const d of open) {
      const s = paid.get(d.payoutId);
      if (!s || !d.bank) continue;
      const gateway = { amountPaise: s.netPaise, utr: s.utr ?? null, state: s.state };
      const differs = [
        ...(s.netPaise !== d.bank.amountPaise ? (['amount_differs'] as const) : []),
        ...(s.utr && s.utr !== d.bank.utr ? (['utr_differs'] as const) : []),
      ];
      for (const kind of differs) {
        const id = `${d.date}:${d.payoutId}:${kind}`;
        const { _id: _found, ...rest } = d;
        await this.differences.updateOne(
          { _id: id },
          { $setOnInsert: { ...rest, kind, gateway, foundAt: now } },
          { upsert: true },
        );
      }
      const resolution = differs.length ? 'recorded_paid_differently' : 'recorded_paid';
      const marked = await this.differences.updateOne(
        { _id: d._id, resolvedAt: { $exists: false } },
        { $set: { resolvedAt: now, resolution } },
      );
      resolved += marked.modifiedCount;
    }
    return resolved;
  }

  /** Payouts an earlier file listed while the gateway still waited for the bank's answer (`payout` index). */
  async listedByEarlierFile(payoutIds: string[], before: string): Promise<Set<string>> {
    if (!payoutIds.length) return new Set();
    const found = await this.differences
      .find({ payoutId: { $in: payoutIds }, kind: 'paid_at_bank_not_recorded', date: { $lt: before } })
      .toArray();
    return new Set(found.map((d) => d.payoutId));
  }

  /** The merchant's settlements whose workflow has still to finish them, up to a date, oldest first (the daily run re-starts them). */
  unfinishedOf(merchantIdentifier: string, upTo: string, limit: number): Promise<Settlement[]> {
    return this.settlements
      .find({ merchantIdentifier, state: { $in: [...UNFINISHED_SETTLEMENT_STATES] }, settlementDate: { $lte: upTo } })
      .sort({ settlementDate: 1 })
      .limit(limit)
      .toArray();
  }

  /** Settlements recorded paid in a period (the bank-file check of a payout date). */
  paidBetween(from: Date, to: Date): Promise<Settlement[]> {
    return this.settlements.find({ state: 'paid', paidAt: { $gte: from, $lt: to } }).toArray();
  }

  /** Records the check of a date's file: a success replaces an earlier failure of that date. */
  async recordFileCheck(check: SettlementFileCheck): Promise<void> {
    await this.fileChecks.replaceOne({ _id: check._id }, check, { upsert: true });
  }

  /** Files whose check gave up, oldest date first. */
  failedFileChecks(limit: number): Promise<SettlementFileCheck[]> {
    return this.fileChecks.find({ state: 'failed' }).sort({ _id: 1 }).limit(limit).toArray();
  }

  findFileCheck(date: string): Promise<SettlementFileCheck | null> {
    return this.fileChecks.findOne({ _id: date });
  }
}
