import { runtimeSettings } from './config-schema-runtime';

/**
 * The settings of the programs beside the gateway: `npm run setup`, the bank simulator, tracing's
 * start and the dev stack's error output. Like the gateway's own (src/config.ts), each is read from
 * the environment here, once, and handed on typed; an entry point passes the environment whole.
 */

/** `npm run setup`: FerretDB is installed unless MONGODB_URI points at a MongoDB of the operator's. */
export const setupSettings = (env: NodeJS.ProcessEnv) => ({ installFerretDb: !env.MONGODB_URI });

/** Whether a failed entry point prints its stack as well as its one-line reason (LOG_LEVEL=debug). */
export const printsStacks = (env: NodeJS.ProcessEnv): boolean => env.LOG_LEVEL === 'debug';

/**
 * Where traces go (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), read before the rest of the configuration
 * loads (src/main/tracing-first.ts): undefined when unset or invalid, which the entry point's
 * configuration check then reports.
 */
export function tracingEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  const endpoint = runtimeSettings.shape.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT.safeParse(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  return endpoint.success && endpoint.data ? endpoint.data : undefined;
}

/** The bank simulator's settings (src/main/bank-simulator.ts); its flags override the port and data directory. */
export const bankSimulatorSettings = (env: NodeJS.ProcessEnv) => ({
  /** The simulator refuses to start where GATEWAY_ENV says production. */
  inProduction: env.GATEWAY_ENV === 'production',
  port: env.BANK_SIMULATOR_PORT ?? '4100',
  dataDir: env.DATA_DIR || '.data',
  /** Unset: a secret kept in the data directory (src/devstack/local-secrets.ts). */
  secret: env.BANK_SIMULATOR_SECRET || undefined,
  adminToken: env.BANK_SIMULATOR_ADMIN_TOKEN || undefined,
});

/** The log level the production stack gives the gateway's processes (LOG_LEVEL, else info). */
export const productionStackLogLevel = (env: NodeJS.ProcessEnv): string => env.LOG_LEVEL || 'info';
