import { SANDBOX_CARDS, SANDBOX_NETBANKING, SANDBOX_VPAS } from '../../domain/sandbox-bank';
import { html, type Html } from './html';

/**
 * The one layout of the hosted pages (payment links, checkout), server-rendered: plain HTML and
 * CSS, readable on a phone, labelled fields in reading order, text contrast above 7:1. Everything
 * the merchant or payer sent is escaped (the `html` template of html.ts); nothing needs script, so every page works with
 * JavaScript off (a page may carry one script with the response's nonce, as an extra).
 */

export interface PageOptions {
  /** Reload the page after this many seconds (a meta refresh: works without script). */
  refreshSeconds?: number;
  /** Before the main content: the dashboard's skip link and navigation. */
  header?: Html;
  /** A wider column, for the dashboard's tables (still one column on a phone). */
  wide?: boolean;
}

export function layout(title: string, body: Html, options: PageOptions = {}): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : ''}
<title>${title}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #111; line-height: 1.5; }
  main { max-width: 30rem; margin: 0 auto; padding: 1rem; }
  .card { background: #fff; border-radius: .75rem; padding: 1.25rem; margin-bottom: 1rem; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  .amount { font-size: 2rem; font-weight: 700; margin: .25rem 0; }
  .muted { color: #333; }
  .qr { display: block; margin: .5rem auto; width: 220px; height: 220px; }
  label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
  input, select { width: 100%; box-sizing: border-box; font-size: 1rem; padding: .6rem; border: 1px solid #555; border-radius: .4rem; }
  button { width: 100%; margin-top: .75rem; font-size: 1rem; padding: .7rem; border: 0; border-radius: .4rem; background: #0b4ea2; color: #fff; font-weight: 600; cursor: pointer; }
  button.secondary { background: #fff; color: #8a0000; border: 1px solid #8a0000; }
  button:focus, input:focus, select:focus, a:focus { outline: 3px solid #f5a300; outline-offset: 2px; }
  .error { background: #fde8e8; color: #8a0000; border-radius: .4rem; padding: .6rem; }
  .result { font-size: 1.5rem; font-weight: 700; }
  .ok { color: #0a6b2b; } .bad { color: #8a0000; }
  a { color: #0b4ea2; }
  main.wide { max-width: 64rem; } main.wide h1, main.wide h2, main.wide p, header.bar { overflow-wrap: anywhere; } td { overflow-wrap: break-word; }
  .skip, .sr-only { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
  header.bar { background: #0b2e59; color: #fff; padding: .5rem 1rem; }
  header.bar a, header.bar .who { color: #fff; }
  header.bar nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
  header.bar nav a { display: inline-block; padding: .5rem .25rem; }
  header.bar nav a[aria-current="page"] { font-weight: 700; text-decoration: underline 3px; }
  header.bar .who { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; justify-content: space-between; }
  header.bar form { display: inline; } header.bar button { width: auto; margin: 0; padding: .35rem .7rem; background: #fff; color: #0b2e59; }
  button.inline { width: auto; margin: .25rem 0; }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #ccc; vertical-align: top; }
  code, .secret { font-family: ui-monospace, monospace; word-break: break-all; }
  .notice { background: #e6f4ea; color: #0a4d1f; border-radius: .4rem; padding: .6rem; }
</style>
</head>
<body>${options.header ?? ''}<main${options.wide ? html` class="wide" id="main"` : ''}>
${body}
</main></body>
</html>`;
  return page.text;
}

/** What every hosted page shows of the order. */
export interface OrderView {
  merchantName: string;
  productDescription: string;
  invoiceNumber?: string | null;
  amountText: string;
}

export function summary(v: OrderView, heading = `Pay ${v.merchantName}`) {
  return html`<section class="card" aria-labelledby="what">
  <h1 id="what">${heading}</h1>
  <p class="amount" id="amount">${v.amountText}</p>
  ${v.productDescription ? html`<p>${v.productDescription}</p>` : ''}
  ${v.invoiceNumber ? html`<p class="muted">Invoice <span id="invoice">${v.invoiceNumber}</span></p>` : ''}
</section>`;
}

export const errorNote = (error: string | undefined) =>
  error ? html`<p class="error" role="alert" id="error">${error}</p>` : '';

/** The order's UPI QR (and, for a phone, the same intent as a link to open a UPI app), with the time left. */
export function qrSection(v: OrderView & { qrDataUri: string; timeLeft: string; expiresAt: string; appLink?: string }) {
  return html`<section class="card" aria-labelledby="scan">
  <h2 id="scan">Scan with any UPI app</h2>
  <img class="qr" src="${v.qrDataUri}" alt="UPI QR code for ${v.amountText} to ${v.merchantName}">
  ${v.appLink ? html`<p><a id="upi-app" href="${v.appLink}">Pay in a UPI app on this phone</a></p>` : ''}
  <p class="muted">Time left: <strong id="time-left">${v.timeLeft}</strong> (until ${v.expiresAt} IST)</p>
</section>`;
}

/** The payer's instruments a page offers as forms: UPI ID, card, net banking (each may be left out). */
export interface PayerForms {
  amountText: string;
  payPath: string;
  csrf: string;
  upiId?: { value?: string };
  /** `atBank` (BANK_CONNECTOR=http): the card is typed on the bank's page, never on this one. */
  card?: { atBank?: boolean };
  netbanking?: { selected?: string };
  /** Off (production): no test VPA as the placeholder, and the heading does not say sandbox. */
  sandbox?: boolean;
}

/** A form per instrument of the sandbox payer; each posts to `payPath` with the page's CSRF token. */
export function payerForms(v: PayerForms) {
  const hidden = html`<input type="hidden" name="csrf" value="${v.csrf}">`;
  const option = (value: string) =>
    html`<option value="${value}"${value === v.netbanking?.selected ? ' selected' : ''}>${value}</option>`;
  const forms = [
    v.upiId &&
      html`<form method="post" action="${v.payPath}">${hidden}
    <label for="payerVpa">UPI ID</label>
    <input id="payerVpa" name="payerVpa" autocomplete="off" placeholder="${v.sandbox === false ? 'name@bank' : Object.keys(SANDBOX_VPAS)[0]}"${v.upiId.value ? html` value="${v.upiId.value}"` : ''} required>
    <button type="submit">Pay ${v.amountText} by UPI</button>
  </form>`,
    v.card?.atBank &&
      html`<form method="post" action="${v.payPath}">${hidden}<input type="hidden" name="cardAtBank" value="1">
    <p class="muted">Card: you enter your card on your bank's secure page.</p>
    <button type="submit">Pay ${v.amountText} by card</button>
  </form>`,
    v.card &&
      !v.card.atBank &&
      html`<form method="post" action="${v.payPath}">${hidden}
    <label for="cardNumber">Card number</label>
    <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="off" placeholder="${Object.keys(SANDBOX_CARDS)[0]}" required>
    <button type="submit">Pay ${v.amountText} by card</button>
  </form>`,
    v.netbanking &&
      html`<form method="post" action="${v.payPath}">${hidden}
    <label for="bankCode">Net banking</label>
    <select id="bankCode" name="bankCode">${Object.keys(SANDBOX_NETBANKING).map(option)}</select>
    <button type="submit">Pay ${v.amountText} by net banking</button>
  </form>`,
  ].filter(Boolean);
  return forms.length === 0
    ? ''
    : html`<section class="card" aria-labelledby="pay">
  <h2 id="pay">${v.sandbox === false ? 'Or pay here' : 'Or pay here (sandbox)'}</h2>
  ${forms}
</section>`;
}

/**
 * The payment is with the bank: the page refreshes itself, and says how to check by hand; or the
 * bank waits for the payer on its own page (card and net banking over http), linked from here (the
 * page then refreshes only when asked to: `refreshSeconds`).
 */
export function processingPage(v: OrderView & { selfPath: string; bankUrl?: string; refreshSeconds?: number }): string {
  const atBank = v.bankUrl
    ? html`<p>Your bank is waiting for you to confirm: <a id="bank-link" href="${v.bankUrl}">continue at your bank</a>.</p>`
    : '';
  return layout(
    'Payment in progress',
    html`${summary(v)}
<section class="card" role="status">
  <p class="result">Payment in progress…</p>
  ${atBank}
  <p>This page refreshes by itself. <a href="${v.selfPath}">Check again</a></p>
</section>`,
    v.refreshSeconds !== undefined ? { refreshSeconds: v.refreshSeconds } : v.bankUrl ? {} : { refreshSeconds: 2 },
  );
}

/** A bank that wants its page reached by POST: a form the payer sends on (no script: one button). */
export function bankFormPage(r: { url: string; fields: Record<string, string> }): string {
  const fields = Object.entries(r.fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return layout(
    'Continue at your bank',
    html`<section class="card" role="status"><h1>Continue at your bank</h1><p>Your bank asks you to confirm this payment on its own page.</p>
<form method="post" action="${r.url}">${fields}<button type="submit" id="to-bank">Continue to your bank</button></form></section>`,
  );
}

export type Outcome = 'paid' | 'declined' | 'expired' | 'cancelled';

/** The final result of an order, as the payer reads it. */
export function resultSection(v: { heading: string; outcome: Outcome; detail: string; reference?: string }) {
  return html`<section class="card" role="status">
  <p class="result ${v.outcome === 'paid' ? 'ok' : 'bad'}" id="result">${v.heading}</p>
  <p>${v.detail}</p>
  ${v.reference ? html`<p class="muted">Reference <span id="reference">${v.reference}</span></p>` : ''}
</section>`;
}

export function messagePage(title: string, text: string): string {
  return layout(title, html`<section class="card" role="status"><h1>${title}</h1><p>${text}</p></section>`);
}
