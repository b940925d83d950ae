import { TransactionRepository } from '../../../src/store/transaction-repository';

/**
 * A deliberately broken claim, to show the money model catches one: with MONEY_BREAK_CLAIM=1 the
 * settlement claim's read of a page of sales (the only read that filters on `successAt` and
 * `saleSettlementId`) loses its last row, as an off-by-one cursor would. The sale stays unclaimed
 * whatever settlement runs, so the liveness invariant must report it.
 *
 * The switch lives in the test support and patches the running process's repository, so no
 * product code or configuration knows it (a production build cannot turn it on).
 */
export function breakClaimIfAsked(): void {
  if (process.env.MONEY_BREAK_CLAIM !== '1') return;
  const proto = TransactionRepository.prototype;
  if ((proto as { broken?: true }).broken) return;
  const original = proto.findMatching;
  proto.findMatching = async function (this: TransactionRepository, filter, sort, limit) {
    const rows = await original.call(this, filter, sort, limit);
    const salesPage = 'successAt' in filter && 'saleSettlementId' in filter && limit > 1;
    return salesPage && rows.length > 0 ? rows.slice(0, -1) : rows;
  };
  (proto as { broken?: true }).broken = true;
  console.error(
    '[money] MONEY_BREAK_CLAIM=1: the settlement claim loses the last sale of each page (a broken claim, on purpose)',
  );
}
