import { buildBankOpenApiDocument } from '../../bank/openapi';
import { bankCallbackSchema, GATEWAY_CALLBACK_PATH } from '../../bank/protocol';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, verifyBankSignature } from '../../bank/signing';
import { ApiError } from '../../domain/api-errors';
import { ORDER_ID_PATTERN } from '../../domain/identifiers';
import { formatRupees } from '../../domain/money';
import { defineOperation, HttpAnswer, perApp, Redirect, type HeadersAuthScheme } from '../operation';
import { html } from '../pages/html';
import { anyone } from './callers';

/*
 * The gateway's side of the bank boundary:
 * - GET /bank/openapi.json: the acquirer protocol (always served: it is documentation);
 * - POST /bank/v1/callbacks: a bank's signed final answers (BANK_CONNECTOR=http only);
 * - GET /bank/v1/return/:merchantIdentifier/:orderId/:txnId: where a bank's page sends the payer's
 *   browser back (http only); the order is read by its key, and shown only when the txnId is its own
 *   (a hosted checkout's payer is sent on to its page, which returns the result to the merchant).
 */

const protocolDocument = perApp((deps) => buildBankOpenApiDocument(deps.config.bank.baseUrl ?? 'https://acquirer.example'));

export const bankProtocolOperation = defineOperation({
  method: 'get',
  path: '/bank/openapi.json',
  listeners: ['public'],
  envelope: 'success',
  auth: anyone,
  body: { contentType: 'none' },
  reference: 'elsewhere',
  handle: (_request, deps) => Promise.resolve(protocolDocument(deps)),
});

/** The bank proves itself by its signature over the exact bytes, checked before they are parsed. */
const bankSigned: HeadersAuthScheme<null> = {
  from: 'headers',
  authenticate: () => Promise.resolve(null),
  verifyBody(ctx, deps, _bank, raw) {
    // Transport time, not business time: the wall clock, also when the gateway runs on a skipped clock.
    const check = verifyBankSignature(
      deps.config.bank.secret!,
      { timestamp: ctx.get(BANK_TIMESTAMP_HEADER) || undefined, signature: ctx.get(BANK_SIGNATURE_HEADER) || undefined },
      raw,
      new Date(),
    );
    if (!check.ok) {
      deps.logger.warn({ problem: check.problem, ip: ctx.ip }, 'bank callback refused: signature');
      throw new ApiError('bankSignatureInvalid', check.problem);
    }
    return Promise.resolve(null);
  },
  limitKey: () => 'the bank has no limit',
};

/** POST /bank/v1/callbacks (documented by the module's paths, from the acquirer protocol). */
export const bankCallbackOperation = defineOperation({
  method: 'post',
  path: GATEWAY_CALLBACK_PATH,
  onlyWhere: 'bankCallbacks',
  listeners: ['public'],
  envelope: 'success',
  auth: bankSigned,
  body: { contentType: 'application/json', schema: bankCallbackSchema },
  reference: 'elsewhere',
  async handle({ body: callback }, deps) {
    const result = await deps.useCases.platform.handleBankCallback(callback);
    deps.logger.info({ eventId: callback.eventId, type: callback.type, result }, 'bank callback');
    return { success: true, data: { result } };
  },
});

export const bankReturnOperation = defineOperation({
  method: 'get',
  path: '/bank/v1/return/:merchantIdentifier/:orderId/:txnId',
  onlyWhere: 'bankCallbacks',
  listeners: ['public'],
  envelope: 'success',
  auth: anyone,
  body: { contentType: 'none' },
  reference: 'elsewhere',
  async handle({ params }, deps) {
    const { merchantIdentifier, orderId, txnId } = params;
    const platform = deps.useCases.platform;
    const found = ORDER_ID_PATTERN.test(orderId) ? await platform.findTransaction({ merchantIdentifier, orderId }) : null;
    const t = found && found.txnId === txnId ? found : null;
    if (!t) return page(404, 'Payment not found', 'Check the address, or ask the merchant.');
    // A hosted checkout's payer goes back to its page, which returns the result to the merchant.
    const checkout = await platform.checkoutOfOrder(t);
    if (checkout) return new Redirect(`/checkout/${checkout._id}`);
    const merchant = await deps.useCases.shared.findMerchant(t.merchantIdentifier);
    const amount = formatRupees(t.amountPaise);
    const to = merchant ? ` to ${merchant.name}` : '';
    if (t.status === 'Pending') {
      const detail = `Your payment of ${amount}${to} is being confirmed by the bank. This page refreshes by itself.`;
      return page(200, 'Payment in progress', detail, { Refresh: '2' });
    }
    if (t.status === 'Failure') return page(200, 'Payment declined', `${t.responseDescription} Reference ${t.txnId}.`);
    return page(
      200,
      'Payment received',
      `Your payment of ${amount}${to} was received. Reference ${t.txnId}. You may close this page.`,
    );
  },
});

function page(status: number, title: string, detail: string, extra: Record<string, string> = {}): HttpAnswer {
  return new HttpAnswer(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}</style></head><body><h1>${title}</h1><p>${detail}</p></body></html>`
      .text,
    {
      status,
      type: 'text/html; charset=utf-8',
      headers: {
        ...extra,
        'Cache-Control': 'no-store',
        'X-Frame-Options': 'DENY',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      },
    },
  );
}
