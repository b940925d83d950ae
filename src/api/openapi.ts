import { sandboxTimePaths } from './sandbox/sandbox-time-openapi';
import { EXAMPLE_NOTE } from './reference/examples';
import { callbackOperation } from '../bank/openapi';
import { GATEWAY_CALLBACK_PATH } from '../bank/protocol';
import { ApiErrors } from '../domain/api-errors';
import { ledgerPaths } from './merchant/ledger-openapi';
import { legacyXmlPaths } from './merchant/legacy-xml-openapi';
import { paymentLinkPaths } from './merchant/payment-links-openapi';
import { qrPaths } from './merchant/qr-openapi';
import { opsPaths } from './ops/ops-openapi';
import { keyPaths } from './ops/keys-openapi';
import { webhookPaths } from './ops/webhooks-openapi';
import { refundPaths } from './merchant/refunds-openapi';
import { mandatePaths } from './merchant/mandates-openapi';
import { checkoutPaths } from './merchant/checkout-openapi';
import { webhookCallbacks, webhookComponentSchemas } from './merchant/webhook-callbacks-openapi';
import { formDataComponentSchemas } from './merchant/form-data-schemas-openapi';
import { statusPaths } from './merchant/status-openapi';
import { provisioningPaths } from './ops/provisioning-openapi';
import { sandboxPaths } from './sandbox/sandbox-openapi';

const errorTable = Object.values(ApiErrors)
  .map((e) => `| ${e.http} | ${e.code} | ${e.text} |`)
  .join('\n');

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with, so the
 * reference cannot drift from the code. Served at GET /openapi.json. It only assembles what the
 * modules of docs/ declare (each writes its operations with docs/operation.ts).
 */
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
    ...statusPaths(),
    ...provisioningPaths(),
    ...(sandboxEnabled ? sandboxPaths() : {}),
  };
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
          description:
            'HMAC-SHA256 (hex) of the label `mgw:qr-image:v1:` + mid + width + height + data (data exactly as in the address), with the secret key',
        },
      },
    },
    paths,
  };
}
