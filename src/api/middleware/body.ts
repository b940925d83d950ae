import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { ApiError, type ApiErrorKind } from '../../domain/api-errors';
import { duplicateJsonKey } from './json-duplicates';

type MediaType = 'application/json' | 'application/x-www-form-urlencoded' | 'text/csv';

/**
 * The request body as the exact bytes received: checksums are computed over these, never over
 * re-serialised JSON. Refuses other media types (415) and bodies over `maxBytes` (413).
 */
export async function readRawBody(ctx: Context, type: MediaType, maxBytes: number): Promise<Buffer> {
  if (!isMediaType(ctx, type)) throw new ApiError('unsupportedMediaType', `expected Content-Type ${type}`);
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

/**
 * Koa's `ctx.is(type)`: a body is sent, of that media type. The header exactly as the type is
 * named (what clients send) with a Content-Length is answered without parsing it, which costs a
 * small request as much as reading its body; any other spelling goes through ctx.is as before.
 */
function isMediaType(ctx: Context, type: MediaType): boolean {
  const { headers } = ctx.req;
  if (headers['content-type'] === type && /^\d+$/.test(headers['content-length'] ?? '')) return true;
  return Boolean(ctx.is(type));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as JSON, strictly: valid UTF-8 (never silently replaced), no key twice in one object.
 * Error texts say where, never echo the bytes received.
 */
export function parseJsonBody(raw: Buffer): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw new ApiError('malformedJson', 'the body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const position = /position (\d+)/.exec((e as Error).message)?.[1];
    throw new ApiError('malformedJson', position ? `syntax error at position ${position}` : 'syntax error');
  }
  const duplicate = duplicateJsonKey(text);
  if (duplicate !== null)
    throw new ApiError('malformedJson', `a key is given twice in one object (${JSON.stringify(duplicate.slice(0, 40))})`);
  return value;
}

/** Validates with a zod schema; the error names every offending field. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  /** The error a failure is reported as, for APIs whose contract has a code per field (the ledger's). */
  kindOf: (issues: readonly Issue[], value: unknown) => ApiErrorKind = () => 'validationFailed',
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError(kindOf(parsed.error.issues, value), describeIssues(parsed.error.issues));
  }
  return parsed.data;
}

export type Issue = z.core.$ZodIssue;

/** Each problem with its field; for a body of several accepted shapes, the problems of the nearest one. */
export function describeIssues(issues: readonly Issue[]): string {
  return issues
    .map((i) => {
      if (i.code === 'invalid_union' && i.errors.length > 0) {
        const nearest = [...i.errors].sort((a, b) => a.length - b.length)[0];
        // The inner issues' paths are relative to the union: name the field the union sits at.
        const located = nearest.map((e) => ({ ...e, path: [...i.path, ...e.path] }));
        return `${describeIssues(located)} (or another of the accepted shapes)`;
      }
      return i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message;
    })
    .join('; ');
}

export async function readJson<S extends z.ZodType>(
  ctx: Context,
  schema: S,
  maxBytes: number,
): Promise<{ raw: Buffer; body: z.infer<S> }> {
  const raw = await readRawBody(ctx, 'application/json', maxBytes);
  return { raw, body: validate(schema, parseJsonBody(raw)) };
}
