import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { RateLimit } from './middleware/rate-limit';
import type { UseCases } from './use-cases';

/**
 * Everything the HTTP API needs, built once per process (src/main/api-deps.ts) so tests build the
 * same app against their servers: configuration, logger, metrics, the clock, the limiter, and the
 * use cases. Never a repository, the database handle or the Temporal client: a route asks a use case.
 */
export interface ApiDeps {
  config: Config;
  logger: Logger;
  metrics: Registry;
  now: () => Date;
  rateLimit: RateLimit;
  useCases: UseCases;
}
