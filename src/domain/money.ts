/** Money is integer paise everywhere inside the gateway; rupees exist only on the wire. */
export type Paise = number;

/** Smallest amount the bank accepts (9 rupees); below it the bank declines with 1021. */
export const MIN_BANK_AMOUNT_PAISE: Paise = 900;

/** Largest single payment the gateway accepts (10 lakh rupees). */
export const MAX_AMOUNT_PAISE: Paise = 100_000_000;

/** Paise as the string the status API and mandates carry. */
export function paiseToWire(paise: Paise): string {
  return String(paise);
}

/**
 * Paise as the rupee number the ledger, bulk and payment link APIs carry. Exact: an integer divided
 * by 100 is the double nearest the true value, and JSON prints the shortest text that reads back as
 * that double, which is the amount with at most two decimals (12345 -> 123.45, 1010 -> 10.1).
 */
export function paiseToRupees(paise: Paise): number {
  return paise / 100;
}

/** `₹12.34`, for memos and logs people read. */
export function formatRupees(paise: Paise): string {
  const rupees = Math.trunc(paise / 100);
  return `₹${rupees}.${String(Math.abs(paise % 100)).padStart(2, '0')}`;
}
