import { formatIstDateTime, istWallClockToInstant } from './ist-time';
import { rupeesText, type Paise } from './money';
import type { SettlementAction, SettlementLine } from './settlement';

/**
 * Zaakpay's Settlement API (`POST /api/v2/getSettlementReport`, design.md, Settlements and split
 * payments): the checksum string, the utr_date format and the report line's fields and formats.
 */

/** The exact string the request's checksum is the HMAC-SHA256 of: `merchantIdentifier,utr_date`. */
export const settlementReportChecksumString = (merchantIdentifier: string, utrDate: string) => `${merchantIdentifier},${utrDate}`;

/** `dd-MM-yyyy` (as Zaakpay's sample, zero-padded) to the settlement date `yyyy-MM-dd`, or null when no such date. */
export function parseUtrDate(text: string): string | null {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 2000 || !istWallClockToInstant(y, mo, d)) return null;
  return `${m[3]}-${m[2]}-${m[1]}`;
}

/** A report line exactly as Zaakpay's sample orders and formats it. */
export interface SettlementReportLine {
  partner_transaction_id: string;
  client_transaction_id: string;
  txn_date: string;
  amount: string;
  settlement_date: string;
  settlement_action: SettlementAction;
  transaction_utr: string;
  partner_service_fee: string;
  partner_service_tax: string;
  settlement_amount: string;
  rrn: string;
  arn: string;
}

/** The report's fields in Zaakpay's order: the CSV download's columns too. */
export const SETTLEMENT_REPORT_COLUMNS = [
  'partner_transaction_id',
  'client_transaction_id',
  'txn_date',
  'amount',
  'settlement_date',
  'settlement_action',
  'transaction_utr',
  'partner_service_fee',
  'partner_service_tax',
  'settlement_amount',
  'rrn',
  'arn',
] as const satisfies readonly (keyof SettlementReportLine)[];

/**
 * A line of Zaakpay's Settlement API, as its sample shows it: every money field positive, the
 * direction in `settlement_action` (SALE and CHARGEBACK_REVERSAL add `settlement_amount`, REFUND and
 * CHARGEBACK deduct it), and `settlement_amount` = `amount` - fee - tax on every line (a refund that
 * returns the sale's fee deducts the amount less the fee returned). The stored lines keep their signs.
 */
export const toReportLine = (l: SettlementLine, utr: string | null): SettlementReportLine =>
  reportLine(l, utr, (p) => rupeesText(Math.abs(p)));

/** The same line with the stored signs (deductions negative), for the dashboard's CSV, whose columns then sum to the net. */
export const toSignedReportLine = (l: SettlementLine, utr: string | null): SettlementReportLine => reportLine(l, utr, rupeesText);

/** `utr`: the UTR of the line's settlement (kept on the settlement only; null until it is paid). */
function reportLine(l: SettlementLine, utr: string | null, money: (paise: Paise) => string): SettlementReportLine {
  return {
    partner_transaction_id: l.txnId,
    client_transaction_id: l.orderId,
    txn_date: formatIstDateTime(l.txnDate),
    amount: money(l.amountPaise),
    settlement_date: l.settlementDate,
    settlement_action: l.action,
    transaction_utr: utr ?? '',
    partner_service_fee: money(l.feePaise),
    partner_service_tax: money(l.taxPaise),
    settlement_amount: money(l.settlementAmountPaise),
    rrn: l.rrn ?? '',
    arn: l.arn ?? '',
  };
}

/**
 * The answers and their codes (Zaakpay's where it has one, 2029 for its "API limit exhausted").
 * Refusals are HTTP 200 with the code, as Zaakpay answers; past the hourly limit the answer is a
 * rate limit like any other, 429 with Retry-After, carrying 2029 in this shape.
 */
export const SettlementReportCodes = {
  ok: { code: '100', description: 'Successful', http: 200 },
  merchantUnknown: { code: '101', description: 'Merchant identifier is not valid', http: 200 },
  dateInvalid: { code: '109', description: 'utr_date is not a valid date (dd-MM-yyyy)', http: 200 },
  checksumMismatch: { code: '180', description: 'Checksum received with request is not equal to what we calculated', http: 200 },
  limitExhausted: { code: '2029', description: 'API limit exhausted: at most 2 calls an hour', http: 429 },
} as const;
export type SettlementReportCode = keyof typeof SettlementReportCodes;
