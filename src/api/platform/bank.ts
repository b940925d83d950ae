import Router from '@koa/router';
import type { Context } from 'koa';
import { buildBankOpenApiDocument } from '../../bank/openapi';
import { bankCallbackSchema, GATEWAY_CALLBACK_PATH } from '../../bank/protocol';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, verifyBankSignature } from '../../bank/signing';
import { ApiError } from '../../domain/api-errors';
import { ORDER_ID_PATTERN } from '../../domain/identifiers';
import { formatRupees } from '../../domain/money';
import type { ApiDeps } from '../deps';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { html } from '../pages/html';

/**
 * The gateway's side of the bank boundary:
 * - GET /bank/openapi.json: the acquirer protocol (always served: it is documentation);
 * - POST /bank/v1/callbacks: a bank's signed final answers (BANK_CONNECTOR=http only);
 * - GET /bank/v1/return/:merchantIdentifier/:orderId/:txnId: where a bank's page sends the payer's
 *   browser back (http only); the order is read by its key, and shown only when the txnId is its own
 *   (a hosted checkout's payer is sent on to its page, which returns the result to the merchant).
 */
export function bankRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const protocolDocument = buildBankOpenApiDocument(deps.config.BANK_BASE_URL ?? 'https://acquirer.example');
  router.get('/bank/openapi.json', (ctx) => {
    ctx.body = protocolDocument;
  });
  if (deps.config.BANK_CONNECTOR !== 'http') return router;
  const secret = deps.config.BANK_SECRET!;

  router.post(GATEWAY_CALLBACK_PATH, async (ctx) => {
    const raw = await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES);
    // Transport time, not business time: the wall clock, also when the gateway runs on a skipped clock.
    const check = verifyBankSignature(
      secret,
      { timestamp: ctx.get(BANK_TIMESTAMP_HEADER) || undefined, signature: ctx.get(BANK_SIGNATURE_HEADER) || undefined },
      raw,
      new Date(),
    );
    if (!check.ok) {
      deps.logger.warn({ problem: check.problem, ip: ctx.ip }, 'bank callback refused: signature');
      throw new ApiError('bankSignatureInvalid', check.problem);
    }
    const callback = validate(bankCallbackSchema, parseJsonBody(raw));
    const result = await deps.useCases.platform.handleBankCallback(callback);
    deps.logger.info({ eventId: callback.eventId, type: callback.type, result }, 'bank callback');
    ctx.body = { success: true, data: { result } };
  });

  router.get('/bank/v1/return/:merchantIdentifier/:orderId/:txnId', async (ctx) => {
    const { merchantIdentifier, orderId, txnId } = ctx.params;
    const found = ORDER_ID_PATTERN.test(orderId)
      ? await deps.useCases.platform.findTransaction({ merchantIdentifier: merchantIdentifier, orderId: orderId })
      : null;
    const t = found && found.txnId === txnId ? found : null;
    if (!t) return page(ctx, 404, 'Payment not found', 'Check the address, or ask the merchant.');
    // A hosted checkout's payer goes back to its page, which returns the result to the merchant.
    const checkout = await deps.useCases.platform.checkoutOfOrder(t);
    if (checkout) {
      ctx.status = 303;
      return ctx.redirect(`/checkout/${checkout._id}`);
    }
    const merchant = await deps.useCases.platform.findMerchant(t.merchantIdentifier);
    const amount = formatRupees(t.amountPaise);
    const to = merchant ? ` to ${merchant.name}` : '';
    if (t.status === 'Pending') {
      ctx.set('Refresh', '2');
      return page(
        ctx,
        200,
        'Payment in progress',
        `Your payment of ${amount}${to} is being confirmed by the bank. This page refreshes by itself.`,
      );
    }
    if (t.status === 'Failure') return page(ctx, 200, 'Payment declined', `${t.responseDescription} Reference ${t.txnId}.`);
    return page(
      ctx,
      200,
      'Payment received',
      `Your payment of ${amount}${to} was received. Reference ${t.txnId}. You may close this page.`,
    );
  });
  return router;
}

function page(ctx: Context, status: number, title: string, detail: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  ctx.body =
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}</style></head><body><h1>${title}</h1><p>${detail}</p></body></html>`.text;
}
