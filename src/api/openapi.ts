import { ApiErrors } from '../domain/api-errors';
import type { AudienceModule, ReferenceOptions } from './audience';
import { AUDIENCES } from './audiences';
import { operationPaths } from './operation-reference';
import { EXAMPLE_NOTE } from './reference/examples';
import { switchedOn } from './operation';

const errorTable = Object.values(ApiErrors)
  .map((e) => `| ${e.http} | ${e.code} | ${e.text} |`)
  .join('\n');

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with, so the
 * reference cannot drift from the code. Served at GET /openapi.json. It only assembles what the
 * audience modules declare (src/api/<audience>/index.ts; each writes its operations with
 * reference/operation.ts).
 */
export function buildOpenApiDocument(baseUrl: string, sandboxEnabled: boolean, timeSkipping = false, bankCallbacks = false) {
  return assembleOpenApiDocument(AUDIENCES, baseUrl, { sandboxEnabled, timeSkipping, bankCallbacks });
}

export function assembleOpenApiDocument(modules: readonly AudienceModule[], baseUrl: string, o: ReferenceOptions) {
  const declared: Record<string, object> = {};
  for (const m of modules) {
    const items = [...Object.entries(m.paths?.(o) ?? {}), ...Object.entries(operationPaths(switchedOn(m.operations ?? [], o)))];
    for (const [path, item] of items) {
      if (Object.hasOwn(declared, path)) throw new Error(`${path} is documented twice (the ${m.name} module's is the second)`);
      declared[path] = item;
    }
  }
  // Sorted, so that the document (and the SDK's types generated from it) does not reorder when a
  // module or an operation is added: a new path lands at its place.
  const paths = Object.fromEntries(Object.entries(declared).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const webhooks = Object.assign({}, ...modules.map((m) => m.webhooks?.() ?? {})) as Record<string, object>;
  const componentSchemas = Object.assign({}, ...modules.map((m) => m.componentSchemas?.() ?? {})) as Record<string, object>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant payment gateway',
      version: '0.1.0',
      description: `The acquirer protocol (how the gateway talks to a bank, BANK_CONNECTOR=http) is documented beside this one at GET /bank/openapi.json.\n\n${EXAMPLE_NOTE}\n\nFields a request schema does not know are ignored (stripped, never echoed) by the contract's and the Zaakpay-shaped APIs (status, QR, ledger, bulk, payment links, /transactU at every level of \`data\`, /updateTxn, the checkout entries, /checkTxn), so merchants' existing code that sends extras keeps working, and refused with 400 (code 2002) by the gateway's own APIs (ops, sandbox, time travel); each request schema says which with additionalProperties. Checksums cover the exact bytes received, extras included. Errors use the envelope of their API family. Catalogue:\n\n| HTTP | code | text |\n|---|---|---|\n${errorTable}`,
    },
    servers: [{ url: baseUrl }],
    webhooks,
    components: {
      schemas: componentSchemas,
      securitySchemes: {
        statusChecksum: {
          type: 'apiKey',
          in: 'header',
          name: 'checksum',
          description: 'HMAC-SHA256 of the raw body with the secret key',
        },
        zaakChecksum: {
          type: 'apiKey',
          in: 'header',
          name: 'zaakchecksum',
          description: "HMAC-SHA256 of the raw body with the master merchant's secret key (Split Payment API)",
        },
        operatorToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "an operator token whose scopes include the operation's job (read, metrics, codec, merchant-admin, money, tokens; docs/operators/production.md); served on the ops listener only",
        },
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
          description:
            'HMAC-SHA256 (hex) of the label `mgw:qr-image:v1:` + mid + width + height + data (data exactly as in the address), with the secret key',
        },
      },
    },
    paths,
  };
}
