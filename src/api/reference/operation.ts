import { z } from 'zod';

/*
 * How one operation of the API reference is written: the builder every docs module uses (each
 * declares its paths with it; openapi.ts only assembles them), and the error envelopes.
 */

/** A zod schema as JSON Schema, without the `$schema` line (the document says its dialect once). */
export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/**
 * Requests say what happens to fields a schema does not know (design.md, Unknown fields): a
 * `z.strictObject` (APIs of our own) refuses them, `additionalProperties: false`; a `z.object`
 * (the contract's and Zaakpay-shaped APIs) ignores them, stripped before use and never echoed,
 * which zod's input schema leaves unsaid: `additionalProperties: true` at every level, and for a
 * form, whose fields are text given once each, a string.
 */
function statingUnknownFields<T>(node: T, unknown: true | { type: 'string' }): T {
  if (Array.isArray(node)) return (node as unknown[]).map((n) => statingUnknownFields(n, unknown)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, statingUnknownFields(v, unknown)]));
  if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) {
    out.additionalProperties = unknown;
  }
  return out as T;
}

/** The error envelopes: the Status API's (numeric code), and every other API's. */
export const statusError = z.object({
  status: z.literal(false),
  message: z.object({ code: z.number().int(), text: z.string() }),
});
export const successError = z.object({ success: z.literal(false), message: z.object({ code: z.string(), text: z.string() }) });

/** What any request may get before its route runs: Node's own limits, and the rate limit. */
const EVERY_OPERATION_ERRORS = [408, 429, 431];

const REQUEST_MEDIA_TYPE = { body: 'application/json', form: 'application/x-www-form-urlencoded', csv: 'text/csv', query: '' };

type QueryShape = { properties?: Record<string, object>; required?: string[] };

export function operation(o: {
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  /**
   * Signatures OpenAPI cannot express as a security scheme (a checksum inside the body): named in
   * the `x-gateway-auth` extension, and explained in the description: `qrChecksum`, `formChecksum`
   * (over a form's `data` field), `expressChecksum` and `legacyChecksum` (the checkout's flat forms).
   */
  bodySignature?:
    | 'qrChecksum'
    | 'formChecksum'
    | 'expressChecksum'
    | 'legacyChecksum'
    /** Zaakpay's Settlement API: `checksum` over `merchantIdentifier,utr_date`. */
    | 'settlementReportChecksum'
    /** Zaakpay's Split Payment API: the `zaakchecksum` header over the exact body. */
    | 'zaakchecksumHeader';
  /** A JSON request body, or (with `in: 'query'`) the query parameters, each a string property. */
  request: z.ZodType;
  in?: 'body' | 'form' | 'csv' | 'query';
  /** Query parameters of an operation that also has a body (each a string property). */
  query?: z.ZodType;
  /**
   * Each response's body: `schema` (JSON unless `mediaType` says otherwise) and/or `html` (a hosted
   * page); neither is a redirect, its `Location` header stated.
   */
  responses: Record<number, { description: string; schema?: z.ZodType; mediaType?: string; html?: true }>;
  errors: number[];
  errorEnvelope: z.ZodType;
  /** The errors' media type when not JSON (the legacy XML APIs answer every refusal in their XML). */
  errorMediaType?: string;
  /** Errors a browser (Accept text/html) gets as a page instead of JSON. */
  errorPages?: boolean;
  /** The route also takes a request without a body. */
  bodyOptional?: boolean;
  /**
   * A request a reader can send as it stands (checksums aside, which need their secret): the JSON
   * body, the form's fields, the CSV text, or the query parameters. Parsed with `request` here, so
   * an example the route would refuse stops the document from being built.
   */
  example: unknown;
  /** The query parameters' example of an operation that also has a body. */
  queryExample?: Record<string, string>;
}) {
  o.request.parse(o.example);
  if (o.query) o.query.parse(o.queryExample ?? {});
  const request = statingUnknownFields(jsonSchema(o.request, 'input'), o.in === 'form' ? { type: 'string' } : true) as QueryShape;
  const queryParameters = (q: QueryShape, example: Record<string, unknown> = {}) =>
    Object.entries(q.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: q.required?.includes(name) ?? false,
      schema,
      ...(example[name] !== undefined ? { example: example[name] } : {}),
    }));
  return {
    summary: o.summary,
    description: o.description,
    ...(o.security ? { security: o.security } : {}),
    ...(o.bodySignature ? { 'x-gateway-auth': o.bodySignature } : {}),
    ...(o.in === 'query'
      ? { parameters: queryParameters(request, o.example as Record<string, unknown>) }
      : {
          ...(o.query ? { parameters: queryParameters(jsonSchema(o.query, 'input'), o.queryExample) } : {}),
          requestBody: {
            required: !o.bodyOptional,
            content: { [REQUEST_MEDIA_TYPE[o.in ?? 'body']]: { schema: request, example: o.example } },
          },
        }),
    responses: {
      ...Object.fromEntries(
        Object.entries(o.responses).map(([code, r]) => [
          code,
          r.schema || r.html
            ? {
                description: r.description,
                content: {
                  ...(r.schema ? { [r.mediaType ?? 'application/json']: { schema: jsonSchema(r.schema, 'output') } } : {}),
                  ...(r.html ? HTML_CONTENT : {}),
                },
              }
            : { description: r.description, headers: { Location: { schema: { type: 'string' } } } },
        ]),
      ),
      ...Object.fromEntries(
        [...new Set([...o.errors, ...EVERY_OPERATION_ERRORS, ...(operatorTokenIn(o.security) ? [403] : [])])]
          .sort()
          .map((code) => [
            code,
            {
              description: 'see the error catalogue',
              content: {
                [o.errorMediaType ?? 'application/json']: { schema: jsonSchema(o.errorEnvelope, 'output') },
                ...(o.errorPages && PAGE_ERRORS.includes(code) ? HTML_CONTENT : {}),
              },
            },
          ]),
      ),
    },
  };
}

/** An operator token may lack the operation's scope: 403, code 2019. */
const operatorTokenIn = (security: Record<string, string[]>[] | undefined) => !!security?.some((s) => 'operatorToken' in s);

/** A hosted page (HTML) as a response body. */
const HTML_CONTENT = { 'text/html': { schema: { type: 'string', description: 'a hosted page (HTML)' } } };
/** The errors a checkout entry shows a browser as a page (the rest come from before the route runs). */
const PAGE_ERRORS = [400, 401, 413, 415];
