/**
 * A merchant's settlement bank account (issue 34): where its settlements are paid. IFSC as the
 * RBI writes it (4 letters for the bank, a 0, 6 letters or digits for the branch); account number
 * 9 to 18 digits. Only the last four digits are ever shown once it is stored.
 */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const ACCOUNT_NUMBER_PATTERN = /^\d{9,18}$/;

export interface SettlementAccountInput {
  ifsc: string;
  accountNumber: string;
  holderName: string;
}

/** What anyone but the bank connector sees of a stored account. */
export interface MaskedSettlementAccount {
  ifsc: string;
  accountLast4: string;
  /** `XXXXXX1234`: as many X as the hidden digits. */
  accountNumberMasked: string;
  holderName: string;
  updatedAt: Date;
}

export function maskAccountNumber(accountNumber: string): string {
  return `${'X'.repeat(Math.max(0, accountNumber.length - 4))}${accountNumber.slice(-4)}`;
}
