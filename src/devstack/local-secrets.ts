import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Development only: the master key and operator token are generated on first run and kept in
 * DATA_DIR (mode 0600), so data encrypted yesterday still decrypts today. Production sets both.
 */
export function localSecrets(dataDir: string): { MASTER_KEY: string; OPS_TOKEN: string } {
  mkdirSync(dataDir, { recursive: true });
  return {
    MASTER_KEY: readOrCreate(path.join(dataDir, 'master.key'), () => randomBytes(32).toString('hex')),
    OPS_TOKEN: readOrCreate(path.join(dataDir, 'ops.token'), () => randomBytes(24).toString('base64url')),
  };
}

function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/** Development only: the secret the gateway and the local bank simulator share, kept in DATA_DIR. */
export function localBankSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return readOrCreate(path.join(dataDir, 'bank.secret'), () => randomBytes(32).toString('hex'));
}

/** Development only: the bank simulator's admin token (its /admin/* routes), kept in DATA_DIR. */
export function localSimulatorAdminToken(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return readOrCreate(path.join(dataDir, 'bank-simulator-admin.token'), () => randomBytes(24).toString('base64url'));
}
