import { z } from 'zod';
import { dashboardSettings } from './config-schema-dashboard';
import { limitSettings } from './config-schema-limits';
import { paymentSettings } from './config-schema-payments';
import { runtimeSettings } from './config-schema-runtime';
import { secretSettings } from './config-schema-secrets';
import { settlementSettings } from './config-schema-settlements';
import { webhookSettings } from './config-schema-webhooks';

/**
 * Every environment variable the gateway reads, parsed once at start-up, one file per group of
 * configuration sections (config-layout.ts; test/unit/config-layout.test.ts checks that each file
 * holds exactly its sections' variables). Each key carries one description
 * (docs/operators/configuration.md's table mirrors them), and the deployment test checks that
 * docker-compose sets nothing that is not listed here.
 */
export const configSchema = z.object({
  ...runtimeSettings.shape,
  ...secretSettings.shape,
  ...paymentSettings.shape,
  ...settlementSettings.shape,
  ...limitSettings.shape,
  ...dashboardSettings.shape,
  ...webhookSettings.shape,
});

/** The environment as the schema parses it, before loadConfig's defaults and checks. */
export type ParsedConfig = z.infer<typeof configSchema>;
