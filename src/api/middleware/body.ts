import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { ApiError } from '../../domain/api-errors';

type MediaType = 'application/json' | 'application/x-www-form-urlencoded' | 'text/csv';

/**
 * The request body as the exact bytes received: checksums are computed over these, never over
 * re-serialised JSON. Refuses other media types (415) and bodies over `maxBytes` (413).
 */
export async function readRawBody(ctx: Context, type: MediaType, maxBytes: number): Promise<Buffer> {
  if (!ctx.is(type)) throw new ApiError('unsupportedMediaType', `expected Content-Type ${type}`);
  try {
    return await getRawBody(ctx.req, { limit: maxBytes, length: ctx.request.length });
  } catch (e) {
    const type = (e as { type?: string }).type;
    if (type === 'entity.too.large') throw new ApiError('bodyTooLarge', `limit is ${maxBytes} bytes`);
    if (type === 'request.size.invalid') throw new ApiError('validationFailed', 'body length does not match Content-Length');
    if (type === 'encoding.unsupported') throw new ApiError('unsupportedMediaType', 'unsupported content encoding');
    throw e;
  }
}

export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('malformedJson', (e as Error).message);
  }
}

/** Validates with a zod schema; the error names every offending field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    throw new ApiError('validationFailed', detail);
  }
  return parsed.data;
}

export async function readJson<S extends z.ZodType>(
  ctx: Context,
  schema: S,
  maxBytes: number,
): Promise<{ raw: Buffer; body: z.infer<S> }> {
  const raw = await readRawBody(ctx, 'application/json', maxBytes);
  return { raw, body: validate(schema, parseJsonBody(raw)) };
}
