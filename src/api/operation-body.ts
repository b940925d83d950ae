import type { Context } from 'koa';
import type { Config } from '../config';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody } from './middleware/form-body';
import { maxBodyBytes, type OperationBody, type SignedDataForm } from './operation';

/** A body as the pipeline reads it before authentication: its exact bytes, and what they parse to. */
export interface ReadBody {
  raw: Buffer;
  /** The JSON body; a signed form's fields (its `data` still text). */
  parsed: unknown;
}

/** Reads the exact bytes (415, 413) and parses them strictly: JSON, or a form's fields checked with its `form`. */
export async function readBody(ctx: Context, body: OperationBody<unknown>, config: Config): Promise<ReadBody> {
  const raw = await readRawBody(ctx, body.contentType, maxBodyBytes(body, config));
  const parsed = body.contentType === 'application/json' ? parseJsonBody(raw) : validate(body.form, parseFormBody(raw));
  return { raw, parsed };
}

/** What the body's schema validates: a JSON body as parsed; a signed form's `data`, parsed as strictly. */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType === 'application/json') return parsed;
  return parseJsonBody(Buffer.from((parsed as SignedDataForm).data, 'utf8'));
}
