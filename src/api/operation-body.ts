import type { Context } from 'koa';
import type { Config } from '../config';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody, parseFormPairs } from './middleware/form-body';
import { maxBodyBytes, type FormFields, type OperationBody, type SignedDataForm } from './operation';

/** Reads the exact bytes (415, 413); a flat form sent to a GET operation is its query string. */
export function readBody(ctx: Context, body: OperationBody<unknown>, config: Config): Promise<Buffer> {
  if ('fields' in body && ctx.method === 'GET') return Promise.resolve(Buffer.from(ctx.querystring, 'utf8'));
  return readRawBody(ctx, body.contentType, maxBodyBytes(body, config));
}

/**
 * Parses the bytes strictly: the JSON body, a signed form's fields (its `data` still text) checked
 * with its `form`, or a flat form's fields as posted, in order.
 */
export function parseBody(body: OperationBody<unknown>, raw: Buffer): unknown {
  if (body.contentType === 'application/json') return parseJsonBody(raw);
  return 'form' in body ? validate(body.form, parseFormBody(raw)) : parseFormPairs(raw);
}

/** What the body's schema validates: a JSON body as parsed; a signed form's `data`, parsed as strictly; a flat form's fields. */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType === 'application/json') return parsed;
  if (!('form' in body)) return Object.fromEntries(parsed as FormFields);
  return parseJsonBody(Buffer.from((parsed as SignedDataForm).data, 'utf8'));
}
