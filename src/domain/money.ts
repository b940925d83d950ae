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

/**
 * Paise to text is here only, and integer arithmetic only: the sign, whole rupees and the two paise
 * digits come from the integer's remainder by 100 (no float rounding: what is divided is a multiple of
 * 100), so every amount up to Number.MAX_SAFE_INTEGER prints exactly.
 */
function rupeeParts(paise: Paise): { sign: '' | '-'; rupees: string; paise: string } {
  const abs = Math.abs(paise);
  const rest = abs % 100;
  return { sign: paise < 0 ? '-' : '', rupees: String((abs - rest) / 100), paise: String(rest).padStart(2, '0') };
}

/**
 * Rupees with exactly two decimals and no symbol or grouping (`12345` -> `123.45`, `-5` -> `-0.05`):
 * the text the settlement report and webhook carry, and UPI intents' `am`.
 */
export function rupeesText(paise: Paise): string {
  const p = rupeeParts(paise);
  return `${p.sign}${p.rupees}.${p.paise}`;
}

/** `₹1234.50` (`-₹0.50` when negative), ungrouped: for memos, logs and the dashboard and bank pages. */
export function formatRupees(paise: Paise): string {
  const p = rupeeParts(paise);
  return `${p.sign}₹${p.rupees}.${p.paise}`;
}

/**
 * `₹1,23,456.78` (`-₹0.50` when negative), grouped the Indian way (the last three digits, then pairs):
 * what the payer's checkout and payment link pages show, as Intl's en-IN INR currency format does.
 */
export function formatRupeesGrouped(paise: Paise): string {
  const p = rupeeParts(paise);
  const head = p.rupees.slice(0, -3);
  const grouped = head ? `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${p.rupees.slice(-3)}` : p.rupees;
  return `${p.sign}₹${grouped}.${p.paise}`;
}
