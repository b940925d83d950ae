import type { z } from 'zod';
import {
  SANDBOX_PAYEE_VPA,
  bankProblems,
  productionLike,
  strictProblems,
  temporalTlsProblems,
  workerVersioningProblems,
} from './config-checks';
import { configSchema } from './config-schema';
import { sectioned, type Sectioned } from './config-layout';

/**
 * Every environment variable the gateway reads, parsed once at start-up: the schema lives in
 * src/config-schema.ts (by section), the checks across variables in src/config-checks.ts.
 */
export { configSchema } from './config-schema';
export { productionLike, weakSecret } from './config-checks';
export { configLayout, configPathOf } from './config-layout';

export type ConfigInput = z.input<typeof configSchema>;

/** The variables' values after loadConfig's defaults (keyed by variable name; the code reads `Config`). */
type VariableValues = Omit<
  z.infer<typeof configSchema>,
  'MASTER_KEY' | 'OPS_TOKEN' | 'PUBLIC_BASE_URL' | 'SANDBOX_ENABLED' | 'UPI_PAYEE_VPA' | 'WEBHOOK_ALLOW_LOOPBACK'
> & {
  SANDBOX_ENABLED: boolean;
  WEBHOOK_ALLOW_LOOPBACK: boolean;
  UPI_PAYEE_VPA: string;
  MASTER_KEY: string;
  /** Empty only in a process that serves no operator API (the worker, see loadConfig's `needsOpsToken`). */
  OPS_TOKEN: string;
  PUBLIC_BASE_URL: string;
};

/**
 * The typed configuration: `config.env` and one section per concern (`config.http.port`,
 * `config.webhooks.retryScheduleMs`, ...); src/config-layout.ts says which variable each field
 * comes from. A component that needs one section takes `Config['<section>']`.
 */
export type Config = Sectioned<VariableValues> & DerivedSettings;

/** Settings no variable sets: computed once, in loadConfig, from those that do, and read per request. */
interface DerivedSettings {
  readonly http: {
    /** PUBLIC_BASE_URL's origin: what a browser's Origin header says of the gateway's own pages. */
    readonly publicOrigin: string;
    /** PUBLIC_BASE_URL is https: the gateway is reached over TLS even where a proxy it does not trust ends it. */
    readonly publicIsHttps: boolean;
  };
  readonly dashboard: {
    /** Temporal UI, where an order's page links its workflow: TEMPORAL_UI_URL, the dev stack's own UI, or none. */
    readonly temporalUiUrl: string | null;
  };
}

/** The derived settings of a configuration's variables. */
function derivedSettings(
  c: Pick<VariableValues, 'PUBLIC_BASE_URL' | 'TEMPORAL_UI_URL' | 'TEMPORAL_ADDRESS' | 'DEV_TEMPORAL_UI_PORT'>,
) {
  return {
    http: { publicOrigin: new URL(c.PUBLIC_BASE_URL).origin, publicIsHttps: c.PUBLIC_BASE_URL.startsWith('https://') },
    // Without an address of its own, npm start runs Temporal's dev server, whose UI is on this port.
    dashboard: { temporalUiUrl: c.TEMPORAL_UI_URL ?? (c.TEMPORAL_ADDRESS ? null : `http://localhost:${c.DEV_TEMPORAL_UI_PORT}`) },
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Names of all variables the gateway reads. */
export const configKeys = Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[];

/**
 * Parses the environment. Development and test may leave MASTER_KEY and OPS_TOKEN unset only when
 * `generated` supplies them (the dev stack keeps them in DATA_DIR); production must set both. A
 * process without the operator API (the worker) passes needsOpsToken false: it never holds the
 * break-glass token.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  generated: { MASTER_KEY?: string; OPS_TOKEN?: string } = {},
  needsOpsToken = true,
): Config {
  const relevant = Object.fromEntries(configKeys.map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const c = parsed.data;
  const problems: string[] = [];
  const strict = productionLike(c.GATEWAY_ENV);
  const MASTER_KEY = c.MASTER_KEY ?? (strict ? undefined : generated.MASTER_KEY);
  const OPS_TOKEN = c.OPS_TOKEN ?? (strict ? undefined : generated.OPS_TOKEN);
  if (!MASTER_KEY) problems.push('MASTER_KEY: required (64 hexadecimal characters)');
  if (!OPS_TOKEN && needsOpsToken) problems.push(`OPS_TOKEN: required (at least ${strict ? 32 : 24} characters)`);
  if (c.TIME_SKIPPING && strict) problems.push(`TIME_SKIPPING: not allowed in ${c.GATEWAY_ENV}`);
  if (strict) problems.push(...strictProblems(c));
  problems.push(...bankProblems(c));
  problems.push(...temporalTlsProblems(c));
  problems.push(...workerVersioningProblems(c));
  if (problems.length > 0) throw new ConfigError(problems);
  const values: VariableValues = {
    ...c,
    // A time-skipping run's data belongs to that run's test server, so it never mixes with the real clock's.
    MONGODB_DB: c.TIME_SKIPPING ? `${c.MONGODB_DB}_time_skipping` : c.MONGODB_DB,
    SANDBOX_ENABLED: c.SANDBOX_ENABLED ?? c.GATEWAY_ENV !== 'production',
    WEBHOOK_ALLOW_LOOPBACK: c.WEBHOOK_ALLOW_LOOPBACK ?? !strict,
    MASTER_KEY: MASTER_KEY!.toLowerCase(),
    OPS_TOKEN: OPS_TOKEN ?? '',
    UPI_PAYEE_VPA: c.UPI_PAYEE_VPA ?? SANDBOX_PAYEE_VPA,
    PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.API_PORT}`).replace(/\/$/, ''),
  };
  return sectioned(values, derivedSettings(values)) as Config;
}
