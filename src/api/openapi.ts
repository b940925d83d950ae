import { sandboxTimePaths } from './docs/sandbox-time';
import { EXAMPLE_NOTE, exampleStatusRequest } from './docs/examples';
import { callbackOperation } from '../bank/openapi';
import { GATEWAY_CALLBACK_PATH } from '../bank/protocol';
import { z } from 'zod';
import { ApiErrors } from '../domain/api-errors';
import { ledgerPaths } from './docs/ledger';
import { legacyXmlPaths } from './docs/legacy-xml';
import { paymentLinkPaths } from './docs/payment-links';
import { qrPaths } from './docs/qr';
import { opsPaths } from './docs/ops';
import { keyPaths } from './docs/keys';
import { webhookPaths } from './docs/webhooks';
import { refundPaths } from './docs/refunds';
import { mandatePaths } from './docs/mandates';
import { checkoutPaths } from './docs/checkout';
import { webhookCallbacks, webhookComponentSchemas } from './docs/webhook-callbacks';
import { formDataComponentSchemas } from './docs/form-data-schemas';
import { createMerchantSchema, merchantCredentialsResponseSchema } from './schemas/ops';
import { sandboxPaymentResponseSchema, sandboxPaymentSchema } from './schemas/sandbox';
import { statusRequestSchema, statusResponseSchema } from './schemas/status';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with, so the
 * reference cannot drift from the code. Served at GET /openapi.json.
 */
export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/**
 * Requests say what happens to fields a schema does not know (DECISIONS.md, Unknown fields): a
 * `z.strictObject` (APIs of our own) refuses them, `additionalProperties: false`; a `z.object`
 * (the contract's and Zaakpay-shaped APIs) ignores them, stripped before use and never echoed,
 * which zod's input schema leaves unsaid: `additionalProperties: true` at every level, and for a
 * form, whose fields are text given once each, a string.
 */
function statingUnknownFields<T>(node: T, unknown: true | { type: 'string' }): T {
  if (Array.isArray(node)) return node.map((n) => statingUnknownFields(n, unknown)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, statingUnknownFields(v, unknown)]));
  if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) {
    out.additionalProperties = unknown;
  }
  return out as T;
}

const statusError = z.object({ status: z.literal(false), message: z.object({ code: z.number().int(), text: z.string() }) });
export const successError = z.object({ success: z.literal(false), message: z.object({ code: z.string(), text: z.string() }) });

const errorTable = Object.values(ApiErrors)
  .map((e) => `| ${e.http} | ${e.code} | ${e.text} |`)
  .join('\n');

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
  bodySignature?: 'qrChecksum' | 'formChecksum' | 'expressChecksum' | 'legacyChecksum';
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
          ...(o.query ? { parameters: queryParameters(jsonSchema(o.query, 'input') as QueryShape, o.queryExample) } : {}),
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
        [...new Set([...o.errors, ...EVERY_OPERATION_ERRORS])].sort().map((code) => [
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

/** A hosted page (HTML) as a response body. */
const HTML_CONTENT = { 'text/html': { schema: { type: 'string', description: 'a hosted page (HTML)' } } };
/** The errors a checkout entry shows a browser as a page (the rest come from before the route runs). */
const PAGE_ERRORS = [400, 401, 413, 415];

export function buildOpenApiDocument(baseUrl: string, sandboxEnabled: boolean, timeSkipping = false, bankCallbacks = false) {
  const paths: Record<string, object> = {
    ...qrPaths(sandboxEnabled),
    ...refundPaths(),
    ...mandatePaths(sandboxEnabled),
    ...checkoutPaths(sandboxEnabled),
    ...ledgerPaths(),
    ...legacyXmlPaths(),
    ...paymentLinkPaths(),
    ...opsPaths(),
    ...keyPaths(),
    ...webhookPaths(),
    ...(timeSkipping ? sandboxTimePaths() : {}),
    // The acquirer protocol itself is its own document, GET /bank/openapi.json; its callbacks land here.
    ...(bankCallbacks ? { [GATEWAY_CALLBACK_PATH]: { post: callbackOperation() } } : {}),
    '/api/payments/v1/status': {
      post: operation({
        summary: 'Status of one order and its refunds',
        description:
          'Header `checksum`: HMAC-SHA256 (lowercase hex) of the exact request body with the secret key. An unknown order is a business result: HTTP 200, `status: false`, code 2020.',
        security: [{ statusChecksum: [] }],
        request: statusRequestSchema,
        example: exampleStatusRequest,
        responses: { 200: { description: 'found (message code 100) or not found (2020)', schema: statusResponseSchema } },
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: statusError,
      }),
    },
    '/ops/v1/merchants': {
      post: operation({
        summary: 'Provision a merchant, or import one with its own merchantIdentifier and secretKey (operator)',
        description:
          'Returns the credentials once; the API key and secret are not shown again. A merchant moving from another Zaakpay-compatible gateway sends the merchantIdentifier (6-64 letters and digits) and secretKey (16-128 printable ASCII characters) it already uses, so its code changes only the host; without them both are generated (32 lowercase hex). A taken merchantIdentifier: 409, code 2047, nothing stored.',
        security: [{ operatorToken: [] }],
        request: createMerchantSchema,
        example: { name: 'Meera Textiles', webhookUrl: 'https://meera.example/zaakpay/webhooks' },
        responses: { 201: { description: 'provisioned', schema: merchantCredentialsResponseSchema } },
        errors: [400, 401, 409, 413, 415, 503],
        errorEnvelope: successError,
      }),
    },
  };
  if (sandboxEnabled) {
    paths['/sandbox/v1/payments'] = {
      post: operation({
        summary: 'Create and pay an order as a sandbox payer',
        description:
          'Exactly one of `payerVpa` (success@sandbox, failure@sandbox, noanswer@sandbox), `cardNumber` (4012001037141112 pays, 4000000000000002 is declined) or `bankCode` (SBIN, FAIL). Amount in integer paise; below 900 the bank declines with 1021. 202 when the order is new, 200 for a repeat; the same orderId with other details, or an orderId another kind of order holds (one namespace per merchant: QR orders, payment links, mandates and their debits), is `success: false`, code 2030.',
        request: sandboxPaymentSchema,
        example: {
          merchantIdentifier: exampleStatusRequest.merchantIdentifier,
          orderId: exampleStatusRequest.orderId,
          amount: 10000,
          productDescription: 'Tea',
          payerVpa: 'success@sandbox',
        },
        responses: {
          202: {
            description: 'order created; the outcome follows from its payment workflow',
            schema: sandboxPaymentResponseSchema,
          },
          200: { description: 'the order already existed', schema: sandboxPaymentResponseSchema },
        },
        errors: [400, 401, 413, 415, 503],
        errorEnvelope: successError,
      }),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant payment gateway',
      version: '0.1.0',
      description: `The acquirer protocol (how the gateway talks to a bank, BANK_CONNECTOR=http) is documented beside this one at GET /bank/openapi.json.\n\n${EXAMPLE_NOTE}\n\nFields a request schema does not know are ignored (stripped, never echoed) by the contract's and the Zaakpay-shaped APIs (status, QR, ledger, bulk, payment links, /transactU at every level of \`data\`, /updateTxn, the checkout entries, /checkTxn), so merchants' existing code that sends extras keeps working, and refused with 400 (code 2002) by the gateway's own APIs (ops, sandbox, time travel); each request schema says which with additionalProperties. Checksums cover the exact bytes received, extras included. Errors use the envelope of their API family. Catalogue:\n\n| HTTP | code | text |\n|---|---|---|\n${errorTable}`,
    },
    servers: [{ url: baseUrl }],
    webhooks: webhookCallbacks(),
    components: {
      schemas: { ...webhookComponentSchemas(), ...formDataComponentSchemas() },
      securitySchemes: {
        statusChecksum: {
          type: 'apiKey',
          in: 'header',
          name: 'checksum',
          description: 'HMAC-SHA256 of the raw body with the secret key',
        },
        operatorToken: { type: 'http', scheme: 'bearer' },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: "the merchant's API key (ledger, bulk, payment links)",
        },
        qrImageSignature: {
          type: 'apiKey',
          in: 'query',
          name: 'checksum',
          description: 'HMAC-SHA256 (hex) of mid + width + height + data (data exactly as in the address), with the secret key',
        },
      },
    },
    paths,
  };
}
