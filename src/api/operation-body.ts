import type { Context } from 'koa';
import type { Config } from '../config';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody } from './middleware/form-body';
import { maxBodyBytes, type OperationBody, type SignedDataForm } from './operation';

/** Reads the exact bytes (415, 413); an operation of the query string reads none. */
export function readBody(ctx: Context, body: OperationBody<unknown>, config: Config): Promise<Buffer> {
  if (body.contentType === 'query') return Promise.resolve(Buffer.alloc(0));
  return readRawBody(ctx, body.contentType, maxBodyBytes(body, config));
}

/**
 * Parses the bytes strictly: the JSON body, or a signed form's fields (its `data` still text) checked
 * with its `form`; or, without a body, the query string as its operation reads it.
 */
export function parseBody(ctx: Context, body: OperationBody<unknown>, raw: Buffer): unknown {
  if (body.contentType === 'query') return body.read(ctx.querystring);
  return body.contentType === 'application/json' ? parseJsonBody(raw) : validate(body.form, parseFormBody(raw));
}

/** What the body's schema validates: a JSON body as parsed; a signed form's `data`, parsed as strictly (or as its readData reads it). */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType !== 'application/x-www-form-urlencoded') return parsed;
  const { data } = parsed as SignedDataForm;
  return body.readData ? body.readData(data) : parseJsonBody(Buffer.from(data, 'utf8'));
}
