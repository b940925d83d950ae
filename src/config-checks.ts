import type { ParsedConfig } from './config-schema';

// loadConfig's checks across variables: production and staging, the bank connector, mTLS to Temporal.

/** Where development's and tests' QR intents pay: no bank knows it. */
export const SANDBOX_PAYEE_VPA = 'merchantgateway@sandbox';

/** Staging and production: real secrets and addresses (staging differs only in running the sandbox). */
export const productionLike = (env: string | undefined) => env === 'production' || env === 'staging';

/**
 * A secret an operator typed or copied from an example rather than generated: too short, a few
 * characters repeated, or one short pattern over and over. A generated value (openssl rand -hex 32)
 * never is one.
 */
export function weakSecret(value: string, minLength: number): string | null {
  if (value.length < minLength) return `at least ${minLength} characters`;
  if (new Set(value.toLowerCase()).size < 8) return 'too few distinct characters (generate it, e.g. openssl rand -hex 32)';
  for (let period = 1; period <= 16 && period < value.length; period++) {
    if (
      value ===
      value
        .slice(0, period)
        .repeat(Math.ceil(value.length / period))
        .slice(0, value.length)
    ) {
      return 'a short pattern repeated (generate it, e.g. openssl rand -hex 32)';
    }
  }
  return null;
}

export function strictProblems(c: ParsedConfig): string[] {
  const problems: string[] = [];
  if (!c.PUBLIC_BASE_URL) problems.push(`PUBLIC_BASE_URL: required in ${c.GATEWAY_ENV} (the https address payers reach)`);
  else if (!c.PUBLIC_BASE_URL.startsWith('https://')) problems.push(`PUBLIC_BASE_URL: must be https in ${c.GATEWAY_ENV}`);
  if (!c.UPI_PAYEE_VPA) problems.push(`UPI_PAYEE_VPA: required in ${c.GATEWAY_ENV} (the VPA payers' UPI apps pay to)`);
  else if (/@sandbox$/i.test(c.UPI_PAYEE_VPA))
    problems.push(`UPI_PAYEE_VPA: a @sandbox VPA receives no money (${c.GATEWAY_ENV})`);
  const masterKey = c.MASTER_KEY && weakSecret(c.MASTER_KEY, 64);
  if (masterKey) problems.push(`MASTER_KEY: too weak for ${c.GATEWAY_ENV}: ${masterKey}`);
  const opsToken = c.OPS_TOKEN && weakSecret(c.OPS_TOKEN, 32);
  if (opsToken) problems.push(`OPS_TOKEN: too weak for ${c.GATEWAY_ENV}: ${opsToken}`);
  // The API process refuses to start without OPS_PORT here (main/api.ts); the worker serves no HTTP.
  if (c.OPS_PORT === c.API_PORT)
    problems.push('OPS_PORT: must differ from API_PORT (the operator API has a listener of its own)');
  // It signs the bank's callbacks: a guessable one lets anyone mark an order paid.
  const bankSecret = c.BANK_SECRET && weakSecret(c.BANK_SECRET, 32);
  if (bankSecret) problems.push(`BANK_SECRET: too weak for ${c.GATEWAY_ENV}: ${bankSecret}`);
  if (c.DASHBOARD_PASSWORD_COST < 17)
    problems.push(`DASHBOARD_PASSWORD_COST: at least 17 in ${c.GATEWAY_ENV} (OWASP's scrypt guidance)`);
  return problems;
}

/** The bank connector's settings: http needs its address and secret; production never runs the sandbox bank. */
export function bankProblems(c: ParsedConfig): string[] {
  const problems: string[] = [];
  if (c.SANDBOX_ENABLED && c.GATEWAY_ENV === 'production') problems.push('SANDBOX_ENABLED: not allowed in production');
  if (c.BANK_CONNECTOR === 'sandbox' && c.GATEWAY_ENV === 'production') {
    problems.push('BANK_CONNECTOR: the sandbox bank is not allowed in production; set BANK_CONNECTOR=http');
  }
  if (c.BANK_CONNECTOR === 'http') {
    if (!c.BANK_BASE_URL) problems.push('BANK_BASE_URL: required with BANK_CONNECTOR=http');
    if (!c.BANK_SECRET) problems.push('BANK_SECRET: required with BANK_CONNECTOR=http (at least 32 characters)');
    if (c.BANK_BASE_URL && c.GATEWAY_ENV === 'production' && !c.BANK_BASE_URL.startsWith('https://')) {
      problems.push('BANK_BASE_URL: must be https in production');
    }
  }
  return problems;
}

/** Worker Versioning takes a deployment and a build together: half of it would silently run unversioned. */
export function workerVersioningProblems(c: ParsedConfig): string[] {
  if (c.WORKER_DEPLOYMENT_NAME && !c.WORKER_BUILD_ID) return ['WORKER_BUILD_ID: required with WORKER_DEPLOYMENT_NAME'];
  if (c.WORKER_BUILD_ID && !c.WORKER_DEPLOYMENT_NAME) return ['WORKER_DEPLOYMENT_NAME: required with WORKER_BUILD_ID'];
  return [];
}

const TEMPORAL_TLS_FILES = ['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE'] as const;

/**
 * mTLS to Temporal: the CA, certificate and key come together or not at all (half a setting would
 * silently connect in plaintext, or fail in the TLS handshake with a less readable error). Staging
 * and production require it: whoever reaches a plaintext frontend can signal a pending payment.
 */
export function temporalTlsProblems(c: ParsedConfig): string[] {
  const set = TEMPORAL_TLS_FILES.filter((k) => c[k]);
  const missing = TEMPORAL_TLS_FILES.filter((k) => !c[k]);
  if (set.length > 0 && missing.length > 0) {
    return missing.map((k) => `${k}: required with ${set.join(' and ')} (mTLS to Temporal takes the CA, certificate and key)`);
  }
  if (set.length === 0 && c.TEMPORAL_TLS_SERVER_NAME) {
    return ['TEMPORAL_TLS_SERVER_NAME: only with TEMPORAL_TLS_CA_FILE, TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE'];
  }
  if (set.length === 0 && productionLike(c.GATEWAY_ENV)) {
    return TEMPORAL_TLS_FILES.map((k) => `${k}: required in ${c.GATEWAY_ENV} (Temporal over mTLS, never plaintext)`);
  }
  return [];
}
