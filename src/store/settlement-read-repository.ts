import type { Collection, Db, FindCursor } from 'mongodb';
import type { Settlement, SettlementLine } from '../domain/settlement';

export type { Settlement, SettlementState } from '../domain/settlement';

/**
 * What merchants read of settlements: the `settlements` and `settlement_lines` collections the
 * settlement engine writes. Read only here; every read names the merchant, so another merchant's
 * settlement is never found.
 */
export class SettlementReadRepository {
  private readonly settlements: Collection<Settlement>;
  private readonly lines: Collection<SettlementLine>;

  constructor(db: Db) {
    this.settlements = db.collection<Settlement>('settlements');
    this.lines = db.collection<SettlementLine>('settlement_lines');
  }

  /** The lines of one merchant and settlement (UTR) date, in transaction time order. */
  linesOfDate(merchantIdentifier: string, settlementDate: string): Promise<SettlementLine[]> {
    return this.lines.find({ merchantIdentifier, settlementDate }).sort({ txnDate: 1, _id: 1 }).toArray();
  }

  /** The UTRs of these settlements of the merchant that are paid (a line's UTR is its settlement's). */
  async utrsOf(merchantIdentifier: string, settlementIds: string[]): Promise<Map<string, string>> {
    const paid = await this.settlements
      .find({ _id: { $in: settlementIds }, merchantIdentifier, utr: { $exists: true } }, { projection: { utr: 1 } })
      .toArray();
    return new Map(paid.map((s) => [s._id, s.utr!]));
  }

  /** The merchant's latest settlements, newest date first. */
  latest(merchantIdentifier: string, limit: number): Promise<Settlement[]> {
    return this.settlements.find({ merchantIdentifier }).sort({ settlementDate: -1 }).limit(limit).toArray();
  }

  async find(merchantIdentifier: string, settlementId: string): Promise<Settlement | null> {
    return this.settlements.findOne({ _id: settlementId, merchantIdentifier });
  }

  /** The settlement that took this merchant's sale of txnId (its SALE line's), if one did. */
  async settlementOfSale(
    merchantIdentifier: string,
    txnId: string,
  ): Promise<{ line: SettlementLine; settlement: Settlement | null } | null> {
    const line = await this.lines.findOne({ _id: `SALE:${txnId}:${merchantIdentifier}` });
    return line ? { line, settlement: await this.find(merchantIdentifier, line.settlementId) } : null;
  }

  /**
   * The lines of one settlement that are this merchant's (a split's sub-merchant lines are in their
   * own merchant's settlement), as a cursor for the page or the CSV download.
   */
  linesOf(merchantIdentifier: string, settlementId: string): FindCursor<SettlementLine> {
    return this.lines.find({ settlementId, merchantIdentifier }).sort({ txnDate: 1, _id: 1 });
  }
}
