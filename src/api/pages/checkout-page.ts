import type { CheckoutChoice } from '../../domain/checkout';
import { errorNote, layout, payerForms, qrSection, resultSection, summary, type OrderView, type Outcome } from './layout';
import { html } from './html';

/** The hosted checkout, in the hosted pages' one layout (layout.ts). */

export interface OpenCheckoutView extends OrderView {
  choices: CheckoutChoice[];
  qrDataUri: string;
  appLink: string;
  timeLeft: string;
  expiresAt: string;
  /** Reloaded when the checkout expires, so its failure goes back to the merchant without a click. */
  secondsLeft: number;
  payPath: string;
  cancelPath: string;
  csrf: string;
  /** The sandbox's test instruments (UPI ID, card, net banking) are offered only while it is on. */
  sandbox: boolean;
  /** BANK_CONNECTOR=http: the card is typed on the bank's page, never on this one. */
  cardAtBank: boolean;
  upiId?: string;
  bankCode?: string;
  error?: string;
}

/** The payer's choices the merchant left open, and a cancel that returns to the merchant (102). */
export function checkoutOpenPage(v: OpenCheckoutView): string {
  const offers = (c: CheckoutChoice) => v.choices.includes(c);
  const forms = payerForms({
    amountText: v.amountText,
    payPath: v.payPath,
    csrf: v.csrf,
    ...(v.sandbox && offers('upiId') ? { upiId: { ...(v.upiId ? { value: v.upiId } : {}) } } : {}),
    ...(offers('card') && (v.sandbox || v.cardAtBank) ? { card: { atBank: v.cardAtBank } } : {}),
    ...(v.sandbox && offers('netbanking') ? { netbanking: { ...(v.bankCode ? { selected: v.bankCode } : {}) } } : {}),
  });
  const qr = offers('upiApp') || !v.sandbox ? qrSection(v) : '';
  return layout(
    `Pay ${v.merchantName}`,
    html`${summary(v)}
${errorNote(v.error)}
${qr}
${forms}
<section class="card" aria-label="Cancel">
  ${qr ? '' : html`<p class="muted">Time left: <strong id="time-left">${v.timeLeft}</strong> (until ${v.expiresAt} IST)</p>`}
  <form method="post" action="${v.cancelPath}"><input type="hidden" name="csrf" value="${v.csrf}">
    <button type="submit" class="secondary" id="cancel">Cancel and return to ${v.merchantName}</button>
  </form>
</section>`,
    { refreshSeconds: Math.max(1, v.secondsLeft + 1) },
  );
}

const HEADINGS: Record<Outcome, string> = {
  paid: 'Payment successful',
  declined: 'Payment declined',
  expired: 'This checkout has expired',
  cancelled: 'Payment cancelled',
};

/**
 * The result, and the return to the merchant: a form posting the signed fields to returnUrl,
 * with a visible button, submitted by the nonce's script the first time the result is shown.
 */
export function checkoutResultPage(
  v: OrderView & {
    outcome: Outcome;
    detail: string;
    reference: string;
    returnUrl: string;
    returnFields: [string, string][];
    autoSubmitNonce?: string;
  },
): string {
  const heading = HEADINGS[v.outcome];
  const fields = v.returnFields.map(([k, value]) => html`<input type="hidden" name="${k}" value="${value}">`);
  const script = v.autoSubmitNonce
    ? html`<script nonce="${v.autoSubmitNonce}">document.getElementById('return').submit();</script>`
    : '';
  return layout(
    heading,
    html`${summary(v, `Payment to ${v.merchantName}`)}
${resultSection({ ...v, heading })}
<section class="card" aria-label="Return to the merchant">
  <form method="post" action="${v.returnUrl}" id="return">
    ${fields}
    <button type="submit" id="return-button">Return to ${v.merchantName}</button>
  </form>
</section>
${script}`,
  );
}

/** A checkout request the gateway refused: the code and what is wrong, for the payer (and the merchant's developer). */
export function checkoutRefusedPage(code: string, text: string): string {
  return layout(
    'Payment request refused',
    html`<section class="card" role="alert"><h1>Payment request refused</h1>
  <p>The merchant's payment request could not be accepted. Please go back to the merchant and try again.</p>
  <p class="muted">Code <span id="code">${code}</span>: <span id="reason">${text}</span></p>
</section>`,
  );
}
