import { callbackOperation } from '../../bank/openapi';
import { GATEWAY_CALLBACK_PATH } from '../../bank/protocol';
import type { AudienceModule } from '../audience';
import { apiDocsRoutes } from './api-docs';
import { bankRoutes } from './bank';
import { healthRoutes, metricsRoutes } from './health';
import { openApiRoutes } from './openapi';

/**
 * What the gateway serves for machines and the people running it: health, readiness and metrics,
 * the API reference (/openapi.json, /docs), and the acquirer's side (its protocol document, its
 * callbacks and the payer's return from the bank, BANK_CONNECTOR=http).
 */
export const platformModule: AudienceModule = {
  name: 'platform',
  listeners: ['public', 'ops'],
  // /metrics is the operator's (the ops listener); probes answer on both listeners.
  routers: (deps, api) => [
    healthRoutes(deps),
    ...(api.listener === 'public' ? [] : [metricsRoutes(deps)]),
    ...(api.listener === 'ops' ? [] : [openApiRoutes(api.openApiDocument), apiDocsRoutes(deps), bankRoutes(deps)]),
  ],
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
