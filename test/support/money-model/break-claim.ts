import { TransactionRepository } from '../../../src/store/transaction-repository';

/**
 * A deliberately broken claim, to show the money model catches one: the settlement claim's read
 * of a page of sales (the only read that filters on `successAt` and `saleSettlementId`) loses its
 * last row, as an off-by-one cursor would. The sale stays unclaimed whatever settlement runs, so
 * the liveness invariant must report it.
 *
 * The switch lives in the test support and patches the running process's repository, so no
 * product code or configuration knows it (a production build cannot turn it on). It returns the
 * undoing: a mocha worker runs other files after the plant's in the same process.
 */
export function breakClaim(): () => void {
  const proto = TransactionRepository.prototype;
  const original = proto.findMatching;
  if ((original as { broken?: true }).broken) return () => undefined;
  const broken = async function (this: TransactionRepository, ...args: Parameters<typeof original>) {
    const [filter, , limit] = args;
    const rows = await original.apply(this, args);
    const salesPage = 'successAt' in filter && 'saleSettlementId' in filter && limit > 1;
    return salesPage && rows.length > 0 ? rows.slice(0, -1) : rows;
  };
  proto.findMatching = Object.assign(broken, { broken: true as const });
  return () => {
    proto.findMatching = original;
  };
}

/** MONEY_BREAK_CLAIM=1 (`npm run test:money`): the claim broken for the whole process. */
export function breakClaimIfAsked(): void {
  if (process.env.MONEY_BREAK_CLAIM !== '1') return;
  breakClaim();
  console.error(
    '[money] MONEY_BREAK_CLAIM=1: the settlement claim loses the last sale of each page (a broken claim, on purpose)',
  );
}
