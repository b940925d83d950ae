import type { IncomingMessage } from 'node:http';
import { SignatureVerificationError } from '../signature-error';
import { verifyWebhook, type VerifiedWebhook, type WebhookVerifyOptions } from '../webhooks';
import { webhookRawBody } from './raw-body';

/** The part of a Koa context the middleware uses (so the SDK needs no Koa types). */
export interface KoaLikeContext {
  req: IncomingMessage;
  request: { body?: unknown; rawBody?: unknown };
  state: Record<string, unknown> & { gatewayWebhook?: VerifiedWebhook };
  status: number;
  body: unknown;
  type: string;
}

/**
 * Koa middleware that verifies a gateway webhook (both signatures, over the raw body however it
 * gets it: see raw-body.ts) and puts the result on `ctx.state.gatewayWebhook`. A call that does not
 * verify is answered 400 and the next middleware does not run. Your handler sets `ctx.body = 'SUCCESS'`.
 */
export function gatewayWebhookKoa(options: WebhookVerifyOptions) {
  return async (ctx: KoaLikeContext, next: () => Promise<unknown>): Promise<void> => {
    let verified: VerifiedWebhook;
    try {
      const raw = await webhookRawBody(ctx.req, [ctx.request, ctx.req], ctx.request.body);
      if (raw === undefined) throw new SignatureVerificationError('no webhook body');
      verified = verifyWebhook(raw, ctx.req.headers, options);
    } catch (e) {
      if (!(e instanceof SignatureVerificationError)) throw e;
      ctx.status = 400;
      ctx.type = 'text/plain';
      ctx.body = `webhook refused: ${e.message}`;
      return;
    }
    ctx.state.gatewayWebhook = verified;
    await next();
  };
}
