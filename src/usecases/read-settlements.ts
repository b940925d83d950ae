import type { SettlementReadRepository } from '../store/settlement-read-repository';

export type { Settlement, SettlementState } from '../store/settlement-read-repository';

/**
 * What merchants read of their settlements (the Settlement API, the dashboard): every read names
 * the merchant, so another merchant's settlement or line is never found.
 */
export function settlementReads(reads: SettlementReadRepository) {
  return {
    /** The lines of one UTR date (Zaakpay's Settlement API). */
    linesOfDate: (merchantIdentifier: string, settlementDate: string) => reads.linesOfDate(merchantIdentifier, settlementDate),
    utrsOf: (merchantIdentifier: string, settlementIds: string[]) => reads.utrsOf(merchantIdentifier, settlementIds),
    latest: (merchantIdentifier: string, limit: number) => reads.latest(merchantIdentifier, limit),
    find: (merchantIdentifier: string, settlementId: string) => reads.find(merchantIdentifier, settlementId),
    /** A cursor over the merchant's lines of a settlement (page or CSV). */
    linesOf: (merchantIdentifier: string, settlementId: string) => reads.linesOf(merchantIdentifier, settlementId),
    settlementOfSale: (merchantIdentifier: string, txnId: string) => reads.settlementOfSale(merchantIdentifier, txnId),
  };
}
