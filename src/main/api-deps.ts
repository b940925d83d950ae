import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ApiDeps } from '../api/deps';
import { perMerchantRateLimit } from '../api/middleware/rate-limit';
import { sharedLimiter } from '../store/rate-limit-counter';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import { registerSettlementMetrics } from './metrics/settlement-metrics';
import { registerWebhookMetrics } from './metrics/webhook-metrics';
import type { Runtime } from './runtime';
import { settlementRepositories } from './use-cases/settlement-deps';
import { buildUseCases } from './use-cases';

/** What the HTTP API gets from one process's runtime: its metrics, its limiter and its use cases. */
export function apiDeps(rt: Runtime): ApiDeps {
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  registerWebhookMetrics(metrics, new WebhookEndpointRepository(rt.store.db));
  registerSettlementMetrics(metrics, { ...rt, ...settlementRepositories(rt.store.db) });
  return {
    config: rt.config,
    logger: rt.logger,
    now: rt.now,
    metrics,
    rateLimit: perMerchantRateLimit(
      (options) => sharedLimiter(rt.store.client, rt.config.store.database, options),
      rt.config.limits.requestsPerSecond,
    ),
    useCases: buildUseCases(rt),
  };
}
