import Router from '@koa/router';
import type { Payload } from '@temporalio/common';
import { z } from 'zod';
import { ApiError } from '../../domain/api-errors';
import { AesGcmPayloadCodec, codecKeyOf } from '../../temporal/payload-codec';
import type { ApiDeps } from '../deps';
import { operatorAuth } from '../middleware/authenticate';
import { readJson } from '../middleware/body';

const base64 = z
  .string()
  .max(4 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const payloadsSchema = z
  .object({
    payloads: z
      .array(z.object({ metadata: z.record(z.string().max(256), base64).optional(), data: base64.optional() }).strict())
      .max(1000),
  })
  .strict();

/**
 * Temporal's codec-server protocol behind the operator token: POST /ops/v1/codec/decode (and
 * /encode) with `{payloads: [{metadata, data}]}`, base64 values, as Temporal UI and the CLI send
 * with `--codec-endpoint .../ops/v1/codec --codec-auth "Bearer $OPS_TOKEN"`. A payload that does
 * not decrypt (tampered, or an unknown key) is a 400, never a 500.
 */
export function codecRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/ops/v1/codec' });
  router.use(operatorAuth(deps.config.OPS_TOKEN));
  const codec = new AesGcmPayloadCodec([codecKeyOf(deps.config.MASTER_KEY)]);
  for (const direction of ['encode', 'decode'] as const) {
    router.post(`/${direction}`, async (ctx) => {
      const { body } = await readJson(ctx, payloadsSchema, deps.config.PAYMENT_LINK_MAX_BODY_BYTES);
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
