import type { Context } from 'koa';
import type { Config } from '../config';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody } from './middleware/form-body';
import { maxBodyBytes, type OperationBody, type SignedDataForm } from './operation';

/** Reads the exact bytes (415, 413). */
export function readBody(ctx: Context, body: OperationBody<unknown>, config: Config): Promise<Buffer> {
  return readRawBody(ctx, body.contentType, maxBodyBytes(body, config));
}

/** Parses the bytes strictly: the JSON body, or a signed form's fields (its `data` still text) checked with its `form`. */
export function parseBody(body: OperationBody<unknown>, raw: Buffer): unknown {
  return body.contentType === 'application/json' ? parseJsonBody(raw) : validate(body.form, parseFormBody(raw));
}

/** What the body's schema validates: a JSON body as parsed; a signed form's `data`, parsed as strictly. */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType === 'application/json') return parsed;
  return parseJsonBody(Buffer.from((parsed as SignedDataForm).data, 'utf8'));
}
