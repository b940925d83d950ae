import { startStackProcess as startSharedStackProcess, type StackProcess } from '../../test/support/stack-process';

/** Each PROD_STACK_* port the bench's stack listens on (src/devstack/production/settings.ts), unless the caller set it. */
const BENCH_PORTS: Record<string, number> = {
  PROD_STACK_HTTPS_PORT: 18443,
  PROD_STACK_HTTP_PORT: 18080,
  PROD_STACK_API1_PORT: 23001,
  PROD_STACK_API2_PORT: 23002,
  PROD_STACK_OPS1_PORT: 23101,
  PROD_STACK_OPS2_PORT: 23102,
  PROD_STACK_BANK_SIMULATOR_PORT: 24100,
  PROD_STACK_ACQUIRER_PORT: 24443,
  PROD_STACK_MERCHANT_SITE_PORT: 24444,
  PROD_STACK_MERCHANT_RECEIVER_PORT: 24200,
  PROD_STACK_CODEC_PORT: 28234,
  PROD_STACK_POSTGRESQL_PORT: 25432,
  PROD_STACK_STORE_PORT: 27017,
  PROD_STACK_TEMPORAL_BASE_PORT: 27230,
};

export const benchStackEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(BENCH_PORTS).map(([k, v]) => [k, String(v)])),
  ...process.env,
});

/**
 * `npm run stack:production` as a child process, started as test/production-stack/run.ts starts
 * it (test/support/stack-process.ts), on ports of its own: a stack or its test already running
 * here keeps the default ones. `cluster`: `npm run
 * stack:cluster`'s topology (the Temporal server as five processes, 16 history shards).
 */
export function startStackProcess(dataDir: string, cluster: boolean, say: (line: string) => void): StackProcess {
  return startSharedStackProcess({ dataDir, cluster, env: benchStackEnv(), say: (chunk) => say(chunk.trimEnd()) });
}
