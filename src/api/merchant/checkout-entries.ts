import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError, ApiErrors } from '../../domain/api-errors';
import {
  answersInJson,
  CHECKOUT_PROCESSING,
  CheckoutRefusal,
  CheckoutRefusals,
  type CheckoutRequest,
} from '../../domain/checkout';
import { signedExpressFields, signedLegacyFields, type FormPairs } from '../../domain/checkout-checksum';
import { ambiguousField, matchKitForm } from '../../domain/legacy-form-reading';
import type { CheckoutEntry } from '../../domain/checkout-return';
import { refusedPlainHttp } from '../../domain/network-address';
import { checksumMatches } from '../../domain/checksum';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import type { Merchant } from '../../domain/merchant';
import { checkoutBankPostData, checkoutIntent, startCheckout } from '../../usecases/start-checkout';
import { checkoutRefusalOf, checkoutRequestFromData, checkoutRequestOfFields } from '../checkout-request';
import { checkoutDeps } from './checkout-operation';
import type { ApiDeps } from '../deps';
import { checkoutFailure, refusalStatus } from '../envelope';
import { sendPage } from '../hosted-page';
import { authenticationFailed } from '../middleware/abuse-limits';
import { readRawBody } from '../middleware/body';
import { jsonObjectOrNull, parseFormPairs } from '../middleware/form-body';
import { checkoutRefusedPage } from '../pages/checkout-page';
import { checkoutDataSchema, type CheckoutData, type CheckoutResponseBody } from '../schemas/checkout';

/**
 * Zaakpay's checkout entries (design.md, Checkout), so merchants' code (and Zaakpay's public
 * kits) take payments by changing only the host:
 *  - `POST|GET /api/paymentTransact/V8` and `/V7`: flat fields, or the same `data` + `checksum`;
 *  - `POST /transact` (also `?v=2`, `?v=3`): flat fields, the legacy quoted checksum.
 * Each authenticates the merchant by its scheme before anything is validated or stored, creates
 * the order through startCheckout, and sends the payer's browser to the hosted page (303) or, for a
 * server's UPI intent or QR request, answers 208 in JSON. A refusal stores nothing: a browser
 * (Accept text/html) gets a page saying why, anyone else the JSON answer with the code.
 */
export function checkoutEntryRoutes(deps: ApiDeps): Router {
  const router = new Router();
  for (const version of ['V8', 'V7'] as const) {
    const handler = (ctx: Context) => answer(ctx, () => expressEntry(deps, ctx, version));
    router.post(`/api/paymentTransact/${version}`, handler);
    // Some apps send the fields as a query string.
    router.get(`/api/paymentTransact/${version}`, handler);
  }
  router.post('/transact', (ctx) => {
    const v = ctx.query.v;
    const entry: CheckoutEntry = v === '2' ? 'transactV2' : v === '3' ? 'transactV3' : 'transact';
    return answer(ctx, async () => {
      if (v !== undefined && entry === 'transact') throw new CheckoutRefusal('fieldInvalid', 'v: must be 2 or 3, or absent');
      const pairs = await readPairs(deps, ctx);
      const fields = Object.fromEntries(pairs);
      const merchant = await signer(deps, fields.merchantIdentifier);
      requireChecksum(fields.checksum);
      const request = await legacyCheckoutRequest(deps, merchant, entry === 'transactV2' ? 'transactV2' : 'transact', pairs);
      return begin(deps, ctx, entry, merchant, request);
    });
  });
  return router;
}

/**
 * A legacy form's order, read only as a kit posts it (legacy-form-reading.ts): the checksum over
 * the fields the kit signs (180), then its names one kit's sequence and its values one reading
 * (109 naming the field, HTTP 200 as Zaakpay answers).
 */
async function legacyCheckoutRequest(
  deps: ApiDeps,
  merchant: Merchant,
  endpoint: 'transact' | 'transactV2',
  pairs: FormPairs,
): Promise<CheckoutRequest> {
  const match = matchKitForm(endpoint, pairs);
  const checksum = Object.fromEntries(pairs).checksum;
  const verified = await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
    signedLegacyFields(keys, 'kit' in match ? match.signed : pairs, checksum),
  );
  if (!verified) throw new CheckoutRefusal('checksumMismatch');
  const unreadable = (field: string, why: string) => new CheckoutRefusal('legacyFormUnreadable', `${field}: ${why}`);
  if ('quoted' in verified) throw unreadable(verified.quoted, QUOTE_RULE);
  if ('problem' in match) throw unreadable(match.problem.field, match.problem.why);
  const signed = { kit: match.kit, signed: verified.signed };
  const outcome = (f: Record<string, string>) => {
    if (f.merchantIdentifier !== merchant.merchantIdentifier) return null;
    try {
      const r = checkoutRequestOfFields({ ...f, checksum });
      return JSON.stringify([r.orderId, r.amountPaise, r.returnUrl ?? merchant.defaultReturnUrl]);
    } catch {
      return null;
    }
  };
  const ambiguous = ambiguousField(endpoint, signed, outcome);
  if (ambiguous) throw unreadable(ambiguous, AMBIGUOUS_RULE);
  return checkoutRequestOfFields({ ...Object.fromEntries(signed.signed), checksum });
}

const QUOTE_RULE =
  "holds a single quote, so the legacy checksum's 'v1''v2'... text splits more than one way: sign the values as Zaakpay's PHP kits sanitize them";
const AMBIGUOUS_RULE = "these values read as another valid order under another kit's field names";

/** The express checkout: flat fields, or the custom checkout's `data` + `checksum`. */
async function expressEntry(deps: ApiDeps, ctx: Context, entry: 'V8' | 'V7'): Promise<Answer> {
  const pairs = await readPairs(deps, ctx);
  const fields = Object.fromEntries(pairs);
  if (fields.data !== undefined && fields.orderId === undefined) return dataEntry(deps, ctx, entry, fields);
  const merchant = await signer(deps, fields.merchantIdentifier);
  requireChecksum(fields.checksum);
  const signed = await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
    signedExpressFields(keys, pairs, fields.checksum),
  );
  if (!signed) throw new CheckoutRefusal('checksumMismatch');
  return begin(deps, ctx, entry, merchant, checkoutRequestOfFields(Object.fromEntries(signed)));
}

/** `data` (JSON text) and `checksum` = HMAC-SHA256 of those exact characters. */
async function dataEntry(deps: ApiDeps, ctx: Context, entry: CheckoutEntry, fields: Record<string, string>): Promise<Answer> {
  if (!fields.data) throw new CheckoutRefusal('fieldMissing', 'data');
  const unread = jsonObjectOrNull(fields.data);
  if (!unread) throw new CheckoutRefusal('fieldInvalid', 'data: not a JSON object');
  const named = unread.merchantIdentifier;
  const merchant = await signer(deps, typeof named === 'string' ? named : undefined);
  requireChecksum(fields.checksum);
  if (
    !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) =>
      checksumMatches(keys, fields.data, fields.checksum),
    ))
  )
    throw new CheckoutRefusal('checksumMismatch');
  const echo = isRecord(unread.orderDetail) ? unread.orderDetail : null;
  try {
    const checked = checkoutDataSchema.safeParse(unread);
    if (!checked.success) throw checkoutRefusalOf(checked.error.issues, unread);
    const data = checked.data;
    const request = checkoutRequestFromData(data);
    return await begin(deps, ctx, entry, merchant, request, data);
  } catch (e) {
    // Authenticated: a refusal echoes the orderDetail the merchant sent.
    if (e instanceof CheckoutRefusal) e.echo = echo;
    throw e;
  }
}

type Answer = { kind: 'page'; token: string } | { kind: 'json'; body: CheckoutResponseBody };

/** Creates the order (or finds the same request's) and says how to answer. */
async function begin(
  deps: ApiDeps,
  ctx: Context,
  entry: CheckoutEntry,
  merchant: Merchant,
  request: CheckoutRequest,
  data?: CheckoutData,
): Promise<Answer> {
  // The signed form is public (the payer's browser posts it): posting it again for an order that
  // exists counts against the client's address, so a replaying payer cannot use up the merchant's budget.
  const repeat = await deps.transactions.findByOrder({
    merchantIdentifier: merchant.merchantIdentifier,
    orderId: request.orderId,
  });
  if (repeat) await deps.rateLimit.consumeForClient(ctx, 'checkout');
  else await deps.rateLimit.consume(ctx, 'checkout', merchant.merchantIdentifier);
  const returnUrl = request.returnUrl ?? merchant.defaultReturnUrl;
  if (!returnUrl) throw new CheckoutRefusal('merchantDataIncomplete');
  const plain = refusedPlainHttp(returnUrl, deps.config.GATEWAY_ENV);
  if (plain) throw new CheckoutRefusal('fieldInvalid', `returnUrl: ${plain}`);
  const started = await startCheckout(checkoutDeps(deps), merchant, entry, { ...request, returnUrl }, ctx.ip || null);
  if (started.kind === 'orderIdUsed') throw new CheckoutRefusal('orderIdUsed');
  if (data && answersInJson(request.paymentMode) && !wantsPage(ctx)) {
    const intent = checkoutIntent(deps.config, merchant, started.transaction);
    return {
      kind: 'json',
      body: {
        responseCode: CHECKOUT_PROCESSING.code,
        responseDescription: CHECKOUT_PROCESSING.description,
        doRedirect: 'false',
        orderDetail: data.orderDetail,
        paymentInstrument: data.paymentInstrument ?? null,
        paymentMode: data.paymentInstrument?.paymentMode ?? null,
        bankPostData: await checkoutBankPostData(intent, started.transaction, request.paymentMode === 'UPIQR'),
      },
    };
  }
  return { kind: 'page', token: started.checkout._id };
}

/** The merchant the request names, before its checksum is checked (101 when there is none). */
async function signer(deps: ApiDeps, merchantIdentifier: string | undefined): Promise<Merchant> {
  if (!merchantIdentifier) throw new CheckoutRefusal('fieldMissing', 'merchantIdentifier');
  const merchant = merchantIdentifier.length <= 64 ? await deps.merchants.findById(merchantIdentifier) : null;
  if (!merchant) throw new CheckoutRefusal('merchantNotFound');
  return merchant;
}

function requireChecksum(checksum: string | undefined) {
  if (!checksum) throw new CheckoutRefusal('fieldMissing', 'checksum');
}

/** The form (or, for a GET, the query string) as posted, in order. */
async function readPairs(deps: ApiDeps, ctx: Context): Promise<FormPairs> {
  const raw =
    ctx.method === 'GET'
      ? Buffer.from(ctx.querystring, 'utf8')
      : await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES);
  return parseFormPairs(raw);
}

/** A browser asked (its Accept names HTML): it gets pages, never JSON. */
const wantsPage = (ctx: Context) => /text\/html/i.test(ctx.get('accept'));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Runs an entry and answers: the page (303), the JSON 208, or the refusal as a page or JSON. */
async function answer(ctx: Context, run: () => Promise<Answer>): Promise<void> {
  let result: Answer;
  try {
    result = await run();
  } catch (e) {
    const refusal = asRefusal(e);
    if (!refusal) throw e;
    // An unknown merchant or a wrong checksum is a failed authentication, answered 200 as Zaakpay does.
    if (e instanceof CheckoutRefusal && (e.kind === 'merchantNotFound' || e.kind === 'checksumMismatch'))
      authenticationFailed(ctx);
    ctx.status = refusal.http;
    if (wantsPage(ctx)) return sendPage(ctx, refusal.http, checkoutRefusedPage(refusal.code, refusal.text));
    ctx.body = checkoutFailure(refusal.code, refusal.text, refusal.echo);
    return;
  }
  if (result.kind === 'json') {
    ctx.body = result.body;
    return;
  }
  ctx.status = 303;
  ctx.redirect(`/checkout/${result.token}`);
}

/** A checkout refusal (HTTP 200, as Zaakpay), or a request the body reader refused (413 and 415 keep their status lines). */
function asRefusal(e: unknown): { http: number; code: string; text: string; echo: Record<string, unknown> | null } | null {
  if (e instanceof CheckoutRefusal) {
    return { http: 200, code: e.code, text: e.message, echo: e.echo };
  }
  if (e instanceof ApiError && ['malformedBody', 'unsupportedMediaType', 'bodyTooLarge', 'validationFailed'].includes(e.kind)) {
    const invalid = CheckoutRefusals.fieldInvalid;
    return {
      http: refusalStatus('checkout', ApiErrors[e.kind].http),
      code: invalid.code,
      text: `${invalid.description}: ${e.message}`,
      echo: null,
    };
  }
  return null;
}
