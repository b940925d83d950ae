import type { Paise } from './money';

/**
 * The UPI intent a payer's app scans (NPCI's `upi://pay` deep link), each value percent-encoded:
 * pa payee VPA, pn payee name, am amount in rupees with 2 decimals, tr the gateway's transaction
 * reference, tn the note, cu currency, mc merchant category code.
 */
export function upiIntentUrl(p: {
  payeeVpa: string;
  payeeName: string;
  amountPaise: Paise;
  txnId: string;
  note: string;
  merchantCategoryCode: string;
}): string {
  const params: [string, string][] = [
    ['pa', p.payeeVpa],
    ['pn', p.payeeName],
    ['am', rupeesWithTwoDecimals(p.amountPaise)],
    ['tr', p.txnId],
    ['tn', p.note],
    ['cu', 'INR'],
    ['mc', p.merchantCategoryCode],
  ];
  return `upi://pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

/** `12345` paise -> `123.45`, by integer arithmetic. */
export function rupeesWithTwoDecimals(paise: Paise): string {
  return `${Math.trunc(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}
