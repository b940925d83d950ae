import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The production stack's secrets, generated on its first start and kept in its data directory
 * (mode 0600) so that a restart still reads yesterday's sealed data. Each has the strength the
 * configuration requires of production; none is shared between two roles.
 */
export interface StackSecrets {
  MASTER_KEY: string;
  /** The break-glass operator token (every scope): the probes' operator, nobody's daily token. */
  OPS_TOKEN: string;
  /** Caddy's codec site's operator token (codec scope only). */
  CODEC_TOKEN: string;
  /** /metrics' operator token (metrics scope only), as a Prometheus would hold it. */
  METRICS_TOKEN: string;
  /** The bank simulator's own (BANK_SIMULATOR_SECRET), the gateway's BANK_SECRET in this sandbox-profile stack; never a real acquirer's. */
  BANK_SIMULATOR_SECRET: string;
  /** The simulator's /admin/* routes (BANK_SIMULATOR_ADMIN_TOKEN). */
  BANK_SIMULATOR_ADMIN_TOKEN: string;
  /** PostgreSQL's superuser (setup only). */
  POSTGRES_SUPERUSER_PASSWORD: string;
  /** Temporal's PostgreSQL user (POSTGRES_PWD). */
  POSTGRES_PASSWORD: string;
  /** The gateway's store user (FerretDB authenticates it against PostgreSQL). */
  STORE_PASSWORD: string;
}

const GENERATE: Record<keyof StackSecrets, () => string> = {
  MASTER_KEY: () => randomBytes(32).toString('hex'),
  OPS_TOKEN: () => randomBytes(24).toString('hex'),
  CODEC_TOKEN: () => `mgwop_${randomBytes(32).toString('base64url')}`,
  METRICS_TOKEN: () => `mgwop_${randomBytes(32).toString('base64url')}`,
  BANK_SIMULATOR_SECRET: () => randomBytes(32).toString('hex'),
  BANK_SIMULATOR_ADMIN_TOKEN: () => randomBytes(24).toString('hex'),
  POSTGRES_SUPERUSER_PASSWORD: () => randomBytes(16).toString('hex'),
  POSTGRES_PASSWORD: () => randomBytes(16).toString('hex'),
  STORE_PASSWORD: () => randomBytes(16).toString('hex'),
};

export function stackSecrets(dataDir: string): StackSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secrets.json');
  const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<StackSecrets>) : {};
  const secrets = Object.fromEntries(
    (Object.keys(GENERATE) as (keyof StackSecrets)[]).map((k) => [k, known[k] ?? GENERATE[k]()]),
  ) as unknown as StackSecrets;
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
