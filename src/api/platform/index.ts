import { callbackOperation } from '../../bank/openapi';
import { GATEWAY_CALLBACK_PATH } from '../../bank/protocol';
import type { AudienceModule } from '../audience';
import { apiDocsAssetRoutes, apiDocsOperation } from './api-docs';
import { bankCallbackOperation, bankProtocolOperation, bankReturnOperation } from './bank';
import { healthOperation, metricsOperation, readyOperation } from './health';
import { openApiRoutes } from './openapi';

/**
 * What the gateway serves for machines and the people running it: health, readiness and metrics,
 * the API reference (/openapi.json, /docs), and the acquirer's side (its protocol document, its
 * callbacks and the payer's return from the bank, BANK_CONNECTOR=http).
 */
export const platformModule: AudienceModule = {
  name: 'platform',
  listeners: ['public', 'ops'],
  // /metrics is the operator's (the ops listener); probes answer on both listeners (each operation's listeners).
  operations: [
    healthOperation,
    readyOperation,
    metricsOperation,
    apiDocsOperation,
    bankProtocolOperation,
    bankCallbackOperation,
    bankReturnOperation,
  ],
  // Not declared: GET /openapi.json answers the document app.ts assembles from every module (which no
  // operation's handler is given, and which the platform module cannot build without importing every
  // module, itself included); Swagger UI's assets answer gzip or not by the request's Accept-Encoding.
  routers: (deps, api) => (api.listener === 'ops' ? [] : [openApiRoutes(api.openApiDocument), apiDocsAssetRoutes(deps)]),
  // The acquirer protocol itself is its own document, GET /bank/openapi.json; its callbacks land here.
  paths: (o): Record<string, object> => (o.bankCallbacks ? { [GATEWAY_CALLBACK_PATH]: { post: callbackOperation() } } : {}),
  undocumented: [
    '/health',
    '/ready',
    '/metrics',
    '/openapi.json',
    '/docs',
    '/docs/assets/:file',
    '/bank/openapi.json',
    '/bank/v1/return/:merchantIdentifier/:orderId/:txnId',
  ],
};
