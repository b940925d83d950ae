import { ApiErrors, type ApiError } from '../../domain/api-errors';
import {
  answersInJson,
  CHECKOUT_PROCESSING,
  CheckoutRefusal,
  CheckoutRefusals,
  type CheckoutRequest,
} from '../../domain/checkout';
import type { CheckoutEntry } from '../../domain/checkout-return';
import type { Merchant } from '../../domain/merchant';
import { refusedPlainHttp } from '../../domain/network-address';
import { checkoutRefusalOf, checkoutRequestFromData, checkoutRequestFromFields } from '../checkout-request';
import type { ApiDeps } from '../deps';
import { checkoutFailure, refusalStatus } from '../envelope';
import type { Issue } from '../middleware/body';
import { HtmlPage, Redirect, Refusal, type FlatFormBody, type OperationLimit, type RefusalContext } from '../operation';
import { checkoutRefusedPage } from '../pages/checkout-page';
import type { CheckoutData, CheckoutFields } from '../schemas/checkout';

/**
 * What Zaakpay's checkout entries (design.md, Checkout) share as declared operations: their
 * refusals (HTTP 200 with the code, as Zaakpay answers; a page to a browser, JSON to anyone else),
 * their limit, and what each does once the merchant is authenticated and the order valid: create
 * it through startCheckout and send the payer's browser to the hosted page (303), or answer a
 * server's UPI intent or QR request 208 in JSON. A refusal stores nothing.
 */

/** An order as an entry reads it: the custom checkout's `data`, or the flat fields. */
export type CheckoutBody = CheckoutData | CheckoutFields;

const isData = (body: CheckoutBody): body is CheckoutData => 'orderDetail' in body;

/** A checkout refusal in the operation's terms: an unknown merchant or a wrong checksum is a failed authentication. */
export function checkoutRefusal(e: CheckoutRefusal): Refusal {
  return new Refusal(e.code, e.message, 200, e.kind === 'merchantNotFound' || e.kind === 'checksumMismatch');
}

/** A browser asked (its Accept names HTML): it gets pages, never JSON. */
const wantsPage = (accept: string) => /text\/html/i.test(accept);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The refusal as a page to a browser, else JSON echoing the orderDetail of `data` once it is authenticated. */
function refusalAnswer(refusal: Refusal, _parsed: unknown, seen: RefusalContext): object {
  if (wantsPage(seen.accept)) return new HtmlPage(refusal.http, checkoutRefusedPage(refusal.code, refusal.text));
  const orderDetail = isRecord(seen.content) ? seen.content.orderDetail : undefined;
  return checkoutFailure(refusal.code, refusal.text, isRecord(orderDetail) ? orderDetail : null);
}

/** A request the body reader refused: 109, its status line kept for 413 and 415 (others go to the error middleware). */
function caughtAsRefusal(e: ApiError): Refusal | null {
  if (!['malformedBody', 'unsupportedMediaType', 'bodyTooLarge', 'validationFailed'].includes(e.kind)) return null;
  const invalid = CheckoutRefusals.fieldInvalid;
  return new Refusal(invalid.code, `${invalid.description}: ${e.message}`, refusalStatus('checkout', ApiErrors[e.kind].http));
}

/**
 * The signed form is public (the payer's browser posts it): posting it again for an order that
 * exists counts against the client's address, so a replaying payer cannot use up the merchant's budget.
 */
const checkoutLimit: OperationLimit = {
  counted: 'validated',
  build: (deps) => async (ctx, merchantIdentifier, body) => {
    const orderId = isData(body as CheckoutBody) ? (body as CheckoutData).orderDetail.orderId : (body as CheckoutFields).orderId;
    const repeat = await deps.useCases.merchant.findTransaction({ merchantIdentifier, orderId });
    if (repeat) await deps.rateLimit.consumeForClient(ctx, 'checkout');
    else await deps.rateLimit.consume(ctx, 'checkout', merchantIdentifier);
    return null;
  },
};

/** The operation's parts every checkout entry shares; `schema` is what its scheme's reading is validated with by default. */
export function checkoutParts<B extends CheckoutBody>(schema: FlatFormBody<B>['schema']) {
  return {
    envelope: 'checkout' as const,
    body: {
      contentType: 'application/x-www-form-urlencoded' as const,
      fields: 'flat' as const,
      schema,
      // 108 for a field missing or blank, 109 for one not valid, naming it.
      invalid: (issues: readonly Issue[], _parsed: unknown, content: unknown) =>
        checkoutRefusal(checkoutRefusalOf(issues, content)),
    },
    limit: checkoutLimit,
    refusalBody: refusalAnswer,
    caught: caughtAsRefusal,
  };
}

interface Begin {
  caller: Merchant;
  body: CheckoutBody;
  ip: string | null;
  accept: string;
}

/** Creates the order (or finds the same request's): the hosted page, the JSON 208 for a server's UPI intent or QR, or the refusal. */
export async function beginCheckout(deps: ApiDeps, entry: CheckoutEntry, r: Begin): Promise<Redirect | object | Refusal> {
  try {
    return await begin(deps, entry, r);
  } catch (e) {
    if (e instanceof CheckoutRefusal) return checkoutRefusal(e);
    throw e;
  }
}

async function begin(deps: ApiDeps, entry: CheckoutEntry, { caller: merchant, body, ip, accept }: Begin) {
  const request: CheckoutRequest = isData(body) ? checkoutRequestFromData(body) : checkoutRequestFromFields(body);
  const returnUrl = request.returnUrl ?? merchant.defaultReturnUrl;
  if (!returnUrl) throw new CheckoutRefusal('merchantDataIncomplete');
  const plain = refusedPlainHttp(returnUrl, deps.config.env);
  if (plain) throw new CheckoutRefusal('fieldInvalid', `returnUrl: ${plain}`);
  const started = await deps.useCases.merchant.startCheckout(merchant, entry, { ...request, returnUrl }, ip);
  if (started.kind === 'orderIdUsed') throw new CheckoutRefusal('orderIdUsed');
  if (isData(body) && answersInJson(request.paymentMode) && !wantsPage(accept)) {
    return {
      responseCode: CHECKOUT_PROCESSING.code,
      responseDescription: CHECKOUT_PROCESSING.description,
      doRedirect: 'false',
      orderDetail: body.orderDetail,
      paymentInstrument: body.paymentInstrument ?? null,
      paymentMode: body.paymentInstrument?.paymentMode ?? null,
      bankPostData: await deps.useCases.merchant.checkoutBankPostData(
        merchant,
        started.transaction,
        request.paymentMode === 'UPIQR',
      ),
    };
  }
  return new Redirect(`/checkout/${started.checkout._id}`);
}
