import { createHmac } from 'node:crypto';
import type { CheckoutEntry } from './checkout-return';
import { derivedKey } from './secrets';
import type { Transaction } from './transaction';

/**
 * Zaakpay's hosted checkout (design.md, Checkout): what every entry's request comes down to, the
 * payer's choices it may narrow the page to, and the codes its refusals carry.
 */

/** How the merchant asks the payer to pay (`paymentMode`, matched without regard to case). */
export const CHECKOUT_PAYMENT_MODES = ['UPIAPP', 'UPI', 'UPIQR', 'CARD', 'NETBANKING', 'WALLET'] as const;
export type CheckoutPaymentMode = (typeof CHECKOUT_PAYMENT_MODES)[number];

/** The express form's `debitorcredit` words for a payment mode (any other value leaves every choice open). */
const MODE_ALIASES: Record<string, CheckoutPaymentMode> = {
  CREDIT: 'CARD',
  DEBIT: 'CARD',
  CC: 'CARD',
  DC: 'CARD',
  NB: 'NETBANKING',
};

/** `upiqr`, `Card`, `netbanking`... as the mode they name; null for none or one we do not know. */
export function checkoutPaymentMode(sent: string | undefined | null): CheckoutPaymentMode | null {
  const upper = (sent ?? '').trim().toUpperCase();
  if ((CHECKOUT_PAYMENT_MODES as readonly string[]).includes(upper)) return upper as CheckoutPaymentMode;
  return MODE_ALIASES[upper] ?? null;
}

/** The sections of the hosted page a payment mode offers; every one when the merchant chose none. */
export type CheckoutChoice = 'upiId' | 'upiApp' | 'card' | 'netbanking';
export function checkoutChoices(mode: CheckoutPaymentMode | null): CheckoutChoice[] {
  switch (mode) {
    case 'UPIAPP':
    case 'UPIQR':
      return ['upiApp'];
    case 'UPI':
      return ['upiId'];
    case 'CARD':
      return ['card'];
    case 'NETBANKING':
      return ['netbanking'];
    default:
      // No wallet is offered: a wallet checkout gets every other choice, as one without a mode.
      return ['upiId', 'upiApp', 'card', 'netbanking'];
  }
}

/** A server's request for a UPI intent or QR is answered in JSON (code 208), not with the page. */
export const answersInJson = (mode: CheckoutPaymentMode | null) => mode === 'UPIAPP' || mode === 'UPIQR';

/**
 * Every entry's request in the gateway's terms, after authentication and validation. Its order
 * fields are the stored transaction's; `productDescription` is '' when the merchant sent none
 * (Zaakpay's kits leave it optional).
 */
export interface CheckoutRequest extends Pick<
  Transaction,
  | 'merchantIdentifier'
  | 'orderId'
  | 'amountPaise'
  | 'productDescription'
  | 'product1Description'
  | 'product2Description'
  | 'product3Description'
  | 'product4Description'
  | 'buyerName'
  | 'buyerEmail'
> {
  /** The request's returnUrl; the merchant's default return URL stands in when it is absent. */
  returnUrl: string | null;
  paymentMode: CheckoutPaymentMode | null;
  /** A bank code for net banking, or the payer's VPA for UPI collect. */
  bankid: string | null;
}

/**
 * The checkout's refusals, Zaakpay's codes; the text names the field for 108 and 109. Every one is
 * answered with HTTP 200 and the code in the body, as Zaakpay answers: its merchants' clients throw
 * on any other status before they read the code (docs/merchants/errors.md).
 */
export const CheckoutRefusals = {
  merchantNotFound: { code: '101', description: 'Merchant not found. Please check your merchantIdentifier field.' },
  fieldMissing: { code: '108', description: 'Mandatory field missing or blank' },
  fieldInvalid: { code: '109', description: 'Validation failed' },
  /** A signed legacy form whose names or values cannot be read one way only. */
  legacyFormUnreadable: { code: '109', description: 'Validation failed' },
  /** A business result like the QR's 128: Zaakpay's exact text. */
  orderIdUsed: { code: '128', description: 'Order Id Already Processed with this Merchant.' },
  checksumMismatch: { code: '180', description: 'Checksum received with request is not equal to what we calculated.' },
  merchantDataIncomplete: {
    code: '182',
    description: 'Merchant Data not complete in our database: send returnUrl or set a default return URL.',
  },
} as const;
export type CheckoutRefusalKind = keyof typeof CheckoutRefusals;

/** A checkout request refused before anything was stored. */
export class CheckoutRefusal extends Error {
  /** The request's orderDetail, echoed by a JSON refusal once the request is authenticated. */
  echo: Record<string, unknown> | null = null;
  constructor(
    readonly kind: CheckoutRefusalKind,
    readonly detail?: string,
  ) {
    super(detail ? `${CheckoutRefusals[kind].description}: ${detail}` : CheckoutRefusals[kind].description);
    this.name = 'CheckoutRefusal';
  }
  get code(): string {
    return CheckoutRefusals[this.kind].code;
  }
}

/** The code of a checkout answered in JSON while its payer pays in a UPI app (Zaakpay's 208). */
export const CHECKOUT_PROCESSING = { code: '208', description: 'Transaction is in processing state.' } as const;

/**
 * The hosted page's address token of an order: unguessable without the master key, and the same
 * for every request of that order, so a repeated request lands on the same page. Keyed by the
 * `checkout-token` key derived from MASTER_KEY (HKDF with its own label), never the master key itself.
 */
export function checkoutToken(masterKeyHex: string, merchantIdentifier: string, orderId: string): string {
  return tokenUnder(derivedKey(masterKeyHex, 'checkout-token'), merchantIdentifier, orderId);
}

/**
 * The token of checkouts made before the derived key: keyed by MASTER_KEY's text itself. Only
 * looked up, for checkouts still within their life (findCheckoutOfOrder); never made any more.
 */
export function legacyCheckoutToken(masterKeyHex: string, merchantIdentifier: string, orderId: string): string {
  return tokenUnder(masterKeyHex, merchantIdentifier, orderId);
}

function tokenUnder(key: Buffer | string, merchantIdentifier: string, orderId: string): string {
  return createHmac('sha256', key).update(`checkout:${merchantIdentifier}:${orderId}`).digest('base64url').slice(0, 32);
}
export const CHECKOUT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/**
 * A hosted checkout: found by its page token (`_id`), the capability the payer's browser holds. The
 * order itself is the transaction of its orderId; this keeps what the page and the return need.
 */
/** What starting a checkout answers: the open checkout and its order, or the orderId is another order's. */
export type StartCheckoutResult = { kind: 'open'; checkout: Checkout; transaction: Transaction } | { kind: 'orderIdUsed' };

export interface Checkout {
  _id: string;
  merchantIdentifier: string;
  orderId: string;
  /** Which entry it came from: decides the fields of the return. */
  entry: CheckoutEntry;
  /** Where the payer's browser is sent back (the request's, or the merchant's default at the time). */
  returnUrl: string;
  paymentMode: CheckoutPaymentMode | null;
  bankid: string | null;
  createdAt: Date;
  /** When the final result was first shown with its self-submitting return form (it is submitted once). */
  returnOfferedAt?: Date;
}
