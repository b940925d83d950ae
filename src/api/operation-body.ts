import type { Context } from 'koa';
import type { Config } from '../config';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody, parseFormPairs } from './middleware/form-body';
import { maxBodyBytes, type FormFields, type OperationBody, type SignedDataForm } from './operation';

/**
 * Reads the exact bytes (415, 413); a flat form sent to a GET operation is its query string; an
 * operation of the query string reads none.
 */
export function readBody(ctx: Context, body: OperationBody<unknown>, config: Config): Promise<Buffer> {
  if (body.contentType === 'query') return Promise.resolve(Buffer.alloc(0));
  if ('fields' in body && ctx.method === 'GET') return Promise.resolve(Buffer.from(ctx.querystring, 'utf8'));
  return readRawBody(ctx, body.contentType, maxBodyBytes(body, config));
}

/**
 * Parses the bytes strictly: the JSON body, a signed form's fields (its `data` still text) checked
 * with its `form`, or a flat form's fields as posted, in order; or, without a body, the query string
 * as its operation reads it.
 */
export function parseBody(ctx: Context, body: OperationBody<unknown>, raw: Buffer): unknown {
  if (body.contentType === 'query') return body.read(ctx.querystring);
  if (body.contentType === 'application/json') return parseJsonBody(raw);
  return 'form' in body ? validate(body.form, parseFormBody(raw)) : parseFormPairs(raw);
}

/**
 * What the body's schema validates: a JSON body (or a query operation's) as parsed; a signed form's
 * `data`, parsed as strictly (or as its readData reads it); a flat form's fields.
 */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType === 'application/json' || body.contentType === 'query') return parsed;
  if (!('form' in body)) return Object.fromEntries(parsed as FormFields);
  const { data } = parsed as SignedDataForm;
  return body.readData ? body.readData(data) : parseJsonBody(Buffer.from(data, 'utf8'));
}
