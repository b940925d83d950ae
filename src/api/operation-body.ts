import type { Context } from 'koa';
import type { Config } from '../config';
import { ApiError } from '../domain/api-errors';
import { parseJsonBody, readRawBody, validate } from './middleware/body';
import { parseFormBody, parseFormPairs } from './middleware/form-body';
import type { BrowserFormBody, FormFields, OperationBody, SignedDataForm } from './operation';

/**
 * Reads the exact bytes (415, 413); a flat form sent to a GET operation is its query string; null
 * where there are none to read: an operation without a body, or an optional body not sent.
 */
export async function readBody(ctx: Context, body: OperationBody<unknown>, http: Config['http']): Promise<Buffer | null> {
  if (body.contentType === 'none') return null;
  if (isBrowserForm(body)) return readBrowserForm(ctx, maxBodyBytes(body, http));
  if ('fields' in body && ctx.method === 'GET') return Buffer.from(ctx.querystring, 'utf8');
  if (body.contentType === 'application/json' && body.optional && !ctx.request.length && !ctx.get('transfer-encoding'))
    return null;
  return readRawBody(ctx, body.contentType, maxBodyBytes(body, http));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the bytes strictly: the JSON body (`{}` for an optional one not sent), a text file's text,
 * a signed form's fields (its `data` still text) checked with its `form`, or a flat form's fields as
 * posted, in order.
 */
export function parseBody(body: OperationBody<unknown>, raw: Buffer | null): unknown {
  if (body.contentType === 'none') return undefined;
  if (isBrowserForm(body)) return raw === null ? null : browserFormFields(raw);
  if (raw === null) return {};
  if (body.contentType === 'application/json') return parseJsonBody(raw);
  if (body.contentType === 'text/csv') return textOf(raw);
  return 'form' in body ? validate(body.form, parseFormBody(raw)) : parseFormPairs(raw);
}

function textOf(raw: Buffer): string {
  try {
    return strictUtf8.decode(raw);
  } catch {
    throw new ApiError('malformedBody', 'the file is not valid UTF-8');
  }
}

/**
 * What the body's schema validates: a JSON body or a text as parsed; a signed form's `data`, parsed
 * as strictly (or as its readData reads it); a flat form's fields.
 */
export function contentOf(body: OperationBody<unknown>, parsed: unknown): unknown {
  if (body.contentType !== 'application/x-www-form-urlencoded' || isBrowserForm(body)) return parsed;
  if (!('form' in body)) return Object.fromEntries(parsed as FormFields);
  const { data } = parsed as SignedDataForm;
  return body.readData ? body.readData(data) : parseJsonBody(Buffer.from(data, 'utf8'));
}

const isBrowserForm = (body: OperationBody<unknown>): body is BrowserFormBody => 'fields' in body && body.fields === 'browser';

/** A browser's form as bytes, or null where they cannot be read (the page answers that itself). */
async function readBrowserForm(ctx: Context, maxBytes: number): Promise<Buffer | null> {
  try {
    return await readRawBody(ctx, 'application/x-www-form-urlencoded', maxBytes);
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** Its fields, strictly, or null where they cannot be read. */
function browserFormFields(raw: Buffer): Record<string, string> | null {
  try {
    return parseFormBody(raw);
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** The bytes its body may have under the http section's limits. */
const maxBodyBytes = (body: OperationBody<unknown>, http: Config['http']): number =>
  body.contentType === 'none' ? 0 : http[body.maxBytes ?? 'maxBodyBytes'];
