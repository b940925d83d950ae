import type { z } from 'zod';
import { checkoutPaymentMode, CheckoutRefusal, type CheckoutRequest } from '../domain/checkout';
import { checkoutFieldsSchema, type CheckoutData, type CheckoutFields } from './schemas/checkout';

/**
 * The checkout entries' requests in the gateway's terms, validated by their schemas; a refusal
 * names the field: 108 when it is missing or blank, 109 when it is there but not valid.
 */

/** The `data` of `/transactU?v=8` (also accepted by the express entries), validated. */
export function checkoutRequestFromData(data: CheckoutData): CheckoutRequest {
  const o = data.orderDetail;
  return {
    merchantIdentifier: data.merchantIdentifier,
    orderId: o.orderId,
    amountPaise: Number(o.amount),
    productDescription: o.productDescription ?? '',
    ...products(o),
    buyerName: name(o.firstName, o.lastName),
    buyerEmail: o.email || null,
    returnUrl: data.returnUrl ?? null,
    paymentMode: checkoutPaymentMode(data.paymentInstrument?.paymentMode),
    bankid: data.paymentInstrument?.netbanking?.bankid || null,
  };
}

/** The flat fields of the express and legacy entries, validated. */
export function checkoutRequestFromFields(f: CheckoutFields): CheckoutRequest {
  return {
    merchantIdentifier: f.merchantIdentifier,
    orderId: f.orderId,
    amountPaise: Number(f.amount),
    productDescription: f.productDescription ?? '',
    ...products(f),
    buyerName: name(f.buyerFirstName, f.buyerLastName),
    buyerEmail: f.buyerEmail || null,
    returnUrl: f.returnUrl || null,
    paymentMode: checkoutPaymentMode(f.paymentMode || f.debitorcredit),
    bankid: f.bankid || null,
  };
}

/** Flat fields as an order, or the refusal naming the first field that fails. */
export function checkoutRequestOfFields(raw: Record<string, string>): CheckoutRequest {
  const parsed = checkoutFieldsSchema.safeParse(raw);
  if (parsed.success) return checkoutRequestFromFields(parsed.data);
  throw checkoutRefusalOf(parsed.error.issues, raw);
}

type Products = Partial<
  Record<'product1Description' | 'product2Description' | 'product3Description' | 'product4Description', string>
>;
/** The further product descriptions that carry text (an empty field counts as not sent). */
function products(from: Products): Products {
  const keys = ['product1Description', 'product2Description', 'product3Description', 'product4Description'] as const;
  return Object.fromEntries(keys.filter((k) => from[k]).map((k) => [k, from[k]!]));
}

function name(first: string | undefined, last: string | undefined): string | null {
  return [first, last].filter(Boolean).join(' ').trim() || null;
}

/** The first problem, as Zaakpay reports it: 108 for a field missing or blank, 109 for one not valid. */
export function checkoutRefusalOf(issues: readonly z.core.$ZodIssue[], raw: unknown): CheckoutRefusal {
  const issue = issues[0];
  const field = issue.path.join('.');
  const value = issue.path.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    raw,
  );
  if (value === undefined || value === null || value === '') return new CheckoutRefusal('fieldMissing', field || 'data');
  return new CheckoutRefusal('fieldInvalid', field ? `${field}: ${issue.message}` : issue.message);
}
