import type { MandateFrequency } from './mandate';
import { rupeesText, type Paise } from './money';

/** The UPI apps whose iOS deep links a mandate intent response carries (`<app>IntentIosUrl`). */
export const IOS_UPI_APPS = [
  { field: 'gpayIntentIosUrl', scheme: 'gpay://upi/mandate' },
  { field: 'phonepeIntentIosUrl', scheme: 'phonepe://mandate' },
  { field: 'paytmIntentIosUrl', scheme: 'paytmmp://mandate' },
  { field: 'bhimIntentIosUrl', scheme: 'bhim://mandate' },
] as const;

/** NPCI's `recur` values for the UPI AutoPay frequencies (Adhoc is ASPRESENTED). */
const RECUR: Record<MandateFrequency, string> = {
  OneTime: 'ONETIME',
  Daily: 'DAILY',
  Weekly: 'WEEKLY',
  Fortnightly: 'FORTNIGHTLY',
  Monthly: 'MONTHLY',
  BiMonthly: 'BIMONTHLY',
  Quarterly: 'QUARTERLY',
  HalfYearly: 'HALFYEARLY',
  Yearly: 'YEARLY',
  Adhoc: 'ASPRESENTED',
};

export interface MandateIntent {
  payeeVpa: string;
  payeeName: string;
  maxAmountPaise: Paise;
  txnId: string;
  note: string;
  frequency: MandateFrequency;
  /** `ddMMyyyy`, as NPCI's mandate intent carries validity dates. */
  validityStart: string;
  validityEnd: string;
}

/**
 * The query of NPCI's mandate deep link (`upi://mandate?...`): pa payee, pn name, tr reference,
 * am and mam the most one debit may take (amrule MAX), recur the frequency, validity dates.
 */
function mandateQuery(m: MandateIntent): string {
  const params: [string, string][] = [
    ['pa', m.payeeVpa],
    ['pn', m.payeeName],
    ['tr', m.txnId],
    ['am', rupeesText(m.maxAmountPaise)],
    ['mam', rupeesText(m.maxAmountPaise)],
    ['amrule', 'MAX'],
    ['cu', 'INR'],
    ['tn', m.note],
    ['recur', RECUR[m.frequency]],
    ['validitystart', m.validityStart],
    ['validityend', m.validityEnd],
    ['txnType', 'CREATE'],
    ['mode', '04'],
    ['purpose', '14'],
  ];
  return params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

/** The Android intent and the four iOS app links of one mandate. */
export function mandateIntentUrls(
  m: MandateIntent,
): { androidIntentUrl: string } & Record<(typeof IOS_UPI_APPS)[number]['field'], string> {
  const query = mandateQuery(m);
  const ios = Object.fromEntries(IOS_UPI_APPS.map((a) => [a.field, `${a.scheme}?${query}`]));
  return { androidIntentUrl: `upi://mandate?${query}`, ...(ios as Record<(typeof IOS_UPI_APPS)[number]['field'], string>) };
}
