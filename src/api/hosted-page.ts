import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { BankRedirect } from '../bank/connector';
import { cardAtBank } from '../bank/card-at-bank';
import type { Config } from '../config';
import type { PaymentInstrument } from '../domain/instrument';
import { liveInstrument } from '../domain/live-instrument';
import { sandboxInstrument, type SandboxInstrumentInput } from '../domain/sandbox-bank';

/**
 * What the hosted pages' routes (payment links, checkout) share: how a page is sent, and how their
 * forms are protected.
 */

export interface PagePolicy {
  /** Where the page's forms may post besides the gateway itself (the merchant's return, a bank). */
  formAction?: string[];
  /** A script the page carries (the checkout's self-submitting return) is allowed by this nonce only. */
  scriptNonce?: string;
}

/** A page, never cached or framed; its Content-Security-Policy allows no script but a nonce's. */
export function sendPage(ctx: Context, status: number, page: string, policy: PagePolicy = {}): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  const formAction = ["'self'", ...(policy.formAction ?? [])].join(' ');
  const script = policy.scriptNonce ? `; script-src 'nonce-${policy.scriptNonce}'` : '';
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'${script}`,
  );
  ctx.body = page;
}

/**
 * A fresh CSRF token for a page's forms, and the SameSite=Strict cookie scoped to the page that
 * carries it (a declared operation's answer sets it: operation-browser.ts's WithCookies).
 */
export function newFormToken(cookie: string, path: string) {
  const token = randomBytes(18).toString('base64url');
  return { token, cookie: { name: cookie, value: token, path, sameSite: 'strict' as const, httpOnly: true } };
}

/** A declared operation's form came from our page: no other origin posted it, and it echoes the page's Strict cookie. */
export function formFromPage(
  browser: { fromOurOrigin(): boolean; cookie(name: string): string | undefined },
  cookie: string,
  echoed: string | undefined,
): boolean {
  return browser.fromOurOrigin() && sameToken(browser.cookie(cookie), echoed);
}

/**
 * No other origin posted it: an Origin header, when sent, is ours (`publicOrigin`, PUBLIC_BASE_URL's,
 * or the address the request came to); 'null', an opaque origin, never is.
 */
export function fromOurOrigin(ctx: Context, publicOrigin: string): boolean {
  const origin = ctx.get('origin');
  return !origin || origin === publicOrigin || origin === `${ctx.protocol}://${ctx.host}`;
}

/** Two tokens are the same, compared in constant time (either missing: not the same). */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Which instrument a page's pay form carries (one form per instrument). */
export function payerChoice(form: Record<string, string>): SandboxInstrumentInput {
  if (form.payerVpa !== undefined) return { payerVpa: form.payerVpa.trim() };
  if (form.cardNumber !== undefined) return { cardNumber: form.cardNumber.replace(/\s+/g, '') };
  if (form.bankCode !== undefined) return { bankCode: form.bankCode };
  return {};
}

/**
 * How the hosted pages take a payer's card: typed on our page from the sandbox's test cards, or
 * (BANK_CONNECTOR=http) on the bank's own page, the payer sent there and back; never both.
 */
export interface PagePayment {
  cardAtBank: boolean;
  /** The bank's origin, where a pay form may lead on to (browsers apply form-action to redirects). */
  bankOrigin: string | null;
  /** Test instruments exist only where the sandbox runs (never in production). */
  sandbox: boolean;
}

export function pagePayment(config: {
  bank: Pick<Config['bank'], 'connector' | 'baseUrl'>;
  sandbox: Pick<Config['sandbox'], 'enabled'>;
}): PagePayment {
  const cardAtBank = config.bank.connector === 'http';
  return {
    cardAtBank,
    bankOrigin: cardAtBank && config.bank.baseUrl ? new URL(config.bank.baseUrl).origin : null,
    sandbox: config.sandbox.enabled,
  };
}

/** The payer's instrument from a page's pay form, or why it is not accepted. */
export function pagePayerInstrument(
  form: Record<string, string>,
  pp: PagePayment,
  cardIdOf: (pan: string) => string,
): { ok: true; instrument: PaymentInstrument } | { ok: false; problem: string } {
  if (pp.cardAtBank && form.cardNumber !== undefined)
    return { ok: false, problem: "card numbers are entered on your bank's page" };
  if (pp.cardAtBank && form.cardAtBank !== undefined) return { ok: true, instrument: cardAtBank() };
  // Without the sandbox: a real UPI ID (its collect request goes to the bank); test instruments refused.
  return pp.sandbox ? sandboxInstrument(payerChoice(form), cardIdOf) : liveInstrument(payerChoice(form));
}

/** The bank's page as one address: a GET redirect's fields go in its query (the protocol's banks use GET pages). */
export function redirectUrl(r: BankRedirect): string {
  const url = new URL(r.url);
  for (const [k, v] of Object.entries(r.fields)) url.searchParams.set(k, v);
  return url.toString();
}
