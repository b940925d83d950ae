import type { IncomingMessage, ServerResponse } from 'node:http';
import { SignatureVerificationError } from '../signature-error';
import { verifyWebhook, type VerifiedWebhook, type WebhookVerifyOptions } from '../webhooks';
import { webhookRawBody } from './raw-body';

/** What the middleware adds to the request. */
export type WebhookRequest = IncomingMessage & { gatewayWebhook: VerifiedWebhook; body?: unknown };

/**
 * Express middleware that verifies a gateway webhook (both signatures, over the raw body however
 * it gets it: see raw-body.ts) and puts the result on `req.gatewayWebhook`. A call that does not
 * verify is answered 400 and never reaches your handler. Your handler answers `SUCCESS`:
 *
 *   app.post('/webhooks/gateway', gatewayWebhookExpress({ secretKey, signingSecret }), (req, res) => {
 *     handle(req.gatewayWebhook.txnData); res.type('text').send('SUCCESS');
 *   });
 */
export function gatewayWebhookExpress(options: WebhookVerifyOptions) {
  return (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void): void => {
    webhookRawBody(req, [req], req.body)
      .then((raw) => {
        if (raw === undefined) throw new SignatureVerificationError('no webhook body');
        (req as WebhookRequest).gatewayWebhook = verifyWebhook(raw, req.headers, options);
        next();
      })
      .catch((e: unknown) => {
        if (!(e instanceof SignatureVerificationError)) return next(e);
        res.statusCode = 400;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end(`webhook refused: ${e.message}`);
      });
  };
}
