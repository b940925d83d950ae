import { ApiError } from '../../domain/api-errors';
import type { CodecPayload } from '../../domain/codec-payload';
import { operatorToken } from '../middleware/operator-auth';
import { defineOperation } from '../operation';
import { codecPayloadsSchema } from '../schemas/codec';
import { codecReference } from './ops-openapi';

/**
 * Temporal's codec-server protocol behind a codec-scoped operator token: POST /ops/v1/codec/decode (and
 * /encode) with `{payloads: [{metadata, data}]}`, base64 values, as Temporal UI and the CLI send
 * with `--codec-endpoint .../ops/v1/codec --codec-auth "Bearer <codec token>"`. A payload that does
 * not decrypt (tampered, or an unknown key) is a 400, never a 500. Decodes under MASTER_KEY and
 * PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS; browsers on CODEC_CORS_ORIGINS (Temporal UI) may call it, their
 * preflight answered before the operator token is asked for.
 */
const codecOperation = (direction: 'encode' | 'decode') =>
  defineOperation({
    method: 'post',
    path: `/ops/v1/codec/${direction}`,
    envelope: 'success',
    auth: operatorToken('codec'),
    body: { contentType: 'application/json', schema: codecPayloadsSchema, maxBytes: 'paymentLinkMaxBodyBytes' },
    cors: (config) => config.payloadCodec.corsOrigins,
    reference: codecReference(direction),
    async handle({ body }, deps) {
      const payloads: CodecPayload[] = body.payloads.map((p) => ({
        metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
        data: Buffer.from(p.data ?? '', 'base64'),
      }));
      let out: CodecPayload[];
      try {
        const { ops } = deps.useCases;
        out = await (direction === 'encode' ? ops.encodePayloads(payloads) : ops.decodePayloads(payloads));
      } catch (e) {
        throw new ApiError('validationFailed', `payloads: ${(e as Error).message}`);
      }
      return {
        payloads: out.map((p) => ({
          metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(p.data ?? []).toString('base64'),
        })),
      };
    },
  });

export const codecEncodeOperation = codecOperation('encode');
export const codecDecodeOperation = codecOperation('decode');
