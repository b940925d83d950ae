import { rupeesText, type Paise } from './money';

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
    ['am', rupeesText(p.amountPaise)],
    ['tr', p.txnId],
    ['tn', p.note],
    ['cu', 'INR'],
    ['mc', p.merchantCategoryCode],
  ];
  return `upi://pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The UPI apps whose iOS links a checkout's UPI intent answer carries (`<app>IntentIosUrl`), and their schemes. */
export const IOS_PAY_APPS = [
  { field: 'gpayIntentIosUrl', scheme: 'gpay://upi/pay' },
  { field: 'phonepeIntentIosUrl', scheme: 'phonepe://pay' },
  { field: 'paytmIntentIosUrl', scheme: 'paytmmp://pay' },
  { field: 'mbkIntentIosUrl', scheme: 'mobikwik://upi/pay' },
] as const;

/** The Android intent (`upi://pay?...`) and the same query under each iOS app's own scheme. */
export function paymentIntentUrls(
  intent: string,
): { androidIntentUrl: string } & Record<(typeof IOS_PAY_APPS)[number]['field'], string> {
  const query = intent.slice(intent.indexOf('?'));
  const ios = Object.fromEntries(IOS_PAY_APPS.map((a) => [a.field, `${a.scheme}${query}`]));
  return { androidIntentUrl: intent, ...(ios as Record<(typeof IOS_PAY_APPS)[number]['field'], string>) };
}
