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

/**
 * A rupee amount as sent (a JSON number) in paise, or null when it is not a finite amount with at
 * most two decimals (12.345 is refused, 12.3 is 1230 paise).
 */
export function rupeesToPaise(rupees: number): Paise | null {
  if (!Number.isFinite(rupees)) return null;
  const paise = Math.round(rupees * 100);
  // rupees * 100 carries binary rounding (1.1 * 100 = 110.00000000000001): compare with a tolerance.
  return Math.abs(paise - rupees * 100) < 1e-6 ? paise : null;
}

/** `₹12.34`, for memos and logs people read. */
export function formatRupees(paise: Paise): string {
  const rupees = Math.trunc(paise / 100);
  return `₹${rupees}.${String(Math.abs(paise % 100)).padStart(2, '0')}`;
}
