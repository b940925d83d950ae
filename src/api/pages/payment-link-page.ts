import {
  bankFormPage,
  errorNote,
  layout,
  messagePage,
  payerForms,
  processingPage,
  qrSection,
  resultSection,
  summary,
  type OrderView,
} from './layout';
import { html } from './html';

/** The hosted page of a payment link, in the hosted pages' one layout (layout.ts). */
export type LinkView = OrderView & { invoiceNumber: string | null };

/** The open link: the UPI QR, the time left and a form per instrument of the sandbox payer. */
export function openPage(
  v: LinkView & {
    qrDataUri: string;
    timeLeft: string;
    expiresAt: string;
    payPath: string;
    csrf: string;
    error?: string;
    /** BANK_CONNECTOR=http: the card is typed on the bank's page, never on this one. */
    cardAtBank?: boolean;
    /** The sandbox runs: the test instruments are offered. Elsewhere a real UPI ID, and a card at the bank. */
    sandbox?: boolean;
  },
): string {
  const sandbox = v.sandbox ?? true;
  return layout(
    `Pay ${v.merchantName}`,
    html`${summary(v)}
${errorNote(v.error)}
${qrSection(v)}
${payerForms({
  ...v,
  upiId: {},
  ...(sandbox || v.cardAtBank ? { card: { atBank: v.cardAtBank ?? false } } : {}),
  ...(sandbox ? { netbanking: {} } : {}),
  sandbox,
})}`,
  );
}

export { bankFormPage, messagePage, processingPage };

export function resultPage(
  v: LinkView & { outcome: 'paid' | 'declined' | 'expired'; detail: string; reference?: string },
): string {
  const heading = { paid: 'Payment successful', declined: 'Payment declined', expired: 'This payment link has expired' }[
    v.outcome
  ];
  return layout(heading, html`${summary(v, `Payment to ${v.merchantName}`)}\n${resultSection({ ...v, heading })}`);
}
