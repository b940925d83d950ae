import { z } from 'zod';
import { limitSettings } from './config-schema-limits';
import { paymentSettings } from './config-schema-payments';
import { runtimeSettings } from './config-schema-runtime';
import { settlementSettings } from './config-schema-settlements';

/**
 * Every environment variable the gateway reads, parsed once at start-up. Each key carries one
 * description (docs/operators/configuration.md's table mirrors them), and the deployment test checks that
 * docker-compose sets nothing that is not listed here.
 */
export const configSchema = z.object({
  ...runtimeSettings.shape,
  ...paymentSettings.shape,
  ...settlementSettings.shape,
  ...limitSettings.shape,
});

/** The environment as the schema parses it, before loadConfig's defaults and checks. */
export type ParsedConfig = z.infer<typeof configSchema>;
