import type { BankAnswer, BankConnector } from '../src/bank/connector';

export interface BankActivityDeps {
  bank: BankConnector;
}

/** Bank calls that are not part of one kind of order's activities (the status inquiry). */
export function createBankActivities({ bank }: BankActivityDeps) {
  return {
    /** The status inquiry of a payment the bank left unanswered: its final answer now, or null. */
    async inquireBankPayment(input: { txnId: string }): Promise<BankAnswer | null> {
      return bank.inquirePayment(input);
    },
  };
}

export type BankActivities = ReturnType<typeof createBankActivities>;
