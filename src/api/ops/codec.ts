import Router from '@koa/router';
import type { Payload } from '@temporalio/common';
import { ApiError } from '../../domain/api-errors';
import { AesGcmPayloadCodec, codecKeysOf } from '../../temporal/payload-codec';
import type { ApiDeps } from '../deps';
import { codecPayloadsSchema } from '../schemas/codec';
import { corsFor } from '../middleware/cors';
import { operatorAuth } from '../middleware/operator-auth';
import { readJson } from '../middleware/body';

/**
 * Temporal's codec-server protocol behind a codec-scoped operator token: POST /ops/v1/codec/decode (and
 * /encode) with `{payloads: [{metadata, data}]}`, base64 values, as Temporal UI and the CLI send
 * with `--codec-endpoint .../ops/v1/codec --codec-auth "Bearer <codec token>"`. A payload that does
 * not decrypt (tampered, or an unknown key) is a 400, never a 500. Decodes under MASTER_KEY and
 * PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS; browsers on CODEC_CORS_ORIGINS (Temporal UI) may call it.
 */
export function codecRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/codec' });
  // Temporal UI's browser calls cross-origin: the CORS preflight comes before the operator token.
  router.use(corsFor(deps.config.CODEC_CORS_ORIGINS, 'POST'));
  router.use(operatorAuth(deps, 'codec'));
  // Temporal UI shows what it is given: a payload in clear is shown as it is, never refused here.
  const codec = new AesGcmPayloadCodec(
    codecKeysOf(deps.config.MASTER_KEY, deps.config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS),
    () => true,
  );
  for (const direction of ['encode', 'decode'] as const) {
    router.options(`/${direction}`, () => undefined); // answered by corsFor
    router.post(`/${direction}`, async (ctx) => {
      const { body } = await readJson(ctx, codecPayloadsSchema, deps.config.PAYMENT_LINK_MAX_BODY_BYTES);
      const payloads: Payload[] = body.payloads.map((p) => ({
        metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
        data: Buffer.from(p.data ?? '', 'base64'),
      }));
      let out: Payload[];
      try {
        out = await codec[direction](payloads);
      } catch (e) {
        throw new ApiError('validationFailed', `payloads: ${(e as Error).message}`);
      }
      ctx.body = {
        payloads: out.map((p) => ({
          metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(p.data ?? []).toString('base64'),
        })),
      };
    });
  }
  return router;
}
