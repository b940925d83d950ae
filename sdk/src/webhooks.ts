import { createHmac, timingSafeEqual } from 'node:crypto';
import { checksumMatches } from './checksum';
import { SignatureVerificationError } from './signature-error';
import type { LateTxn, RealtimeTxn, SettlementProcessed, TxnData } from './types';

/**
 * Webhook verification, as the gateway signs its calls: the contract's `checksum` (HMAC-SHA256 of the exact
 * `txnData` text with the secret key) and, when you give your webhook signing secret, the Standard
 * Webhooks signature (`webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`)
 * with a bounded timestamp, which also refuses replays of old calls.
 */
export interface WebhookVerifyOptions {
  secretKey: string;
  /** Your webhook signing secret(s) (`whsec_...`); during a rotation pass both. Absent: only the checksum is checked. */
  signingSecret?: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Your clock (tests). */
  now?: () => Date;
}

export type Headers = Record<string, string | string[] | undefined>;

export interface VerifiedWebhook {
  /** The parsed `txnData` of a transaction call (for a `settlement.processed` call, read `settlement`). */
  txnData: TxnData;
  /** The parsed `txnData` of a `settlement.processed` call; undefined for a transaction call. */
  settlement: SettlementProcessed | undefined;
  /** The exact `txnData` text the checksum covers. */
  txnDataText: string;
  /** `webhook-id` / `X-Webhook-Id`: the same on every attempt of one delivery; drop a duplicate by it. */
  id: string | undefined;
  /** `X-Webhook-Attempt`. */
  attempt: number | undefined;
  /** Whether the Standard Webhooks signature was checked (a signing secret was given). */
  signedWithStandardWebhooks: boolean;
}

/** What to answer the gateway once a webhook is handled; anything else makes it retry. */
export const WEBHOOK_ACKNOWLEDGEMENT = 'SUCCESS';

/** Whether a parsed `txnData` is a `settlement.processed` event rather than a transaction's. */
export const isSettlementProcessed = (txnData: unknown): txnData is SettlementProcessed =>
  typeof txnData === 'object' && txnData !== null && (txnData as { event?: unknown }).event === 'settlement.processed';

/** A real-time entry (full fields) rather than a non-real-time one (amount, orderid, txnDate). */
export const isRealtimeTxn = (t: RealtimeTxn | LateTxn): t is RealtimeTxn => 'pgTransId' in t;

const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** `txnData` and `checksum` out of the body, JSON or form-encoded (whichever it is, not what it claims). */
function bodyFields(raw: string): { txnData?: unknown; checksum?: unknown } {
  if (raw.trimStart().startsWith('{')) {
    try {
      return JSON.parse(raw) as { txnData?: unknown; checksum?: unknown };
    } catch {
      return {};
    }
  }
  const form = new URLSearchParams(raw);
  return { txnData: form.get('txnData') ?? undefined, checksum: form.get('checksum') ?? undefined };
}

/**
 * Verifies one webhook call over its raw body (as received: a Buffer or the exact text) and its
 * headers, and parses `txnData`. Throws SignatureVerificationError when anything does not verify.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: Headers, options: WebhookVerifyOptions): VerifiedWebhook {
  const raw = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const { txnData, checksum } = bodyFields(raw);
  if (typeof txnData !== 'string') throw new SignatureVerificationError('the body carries no txnData');
  if (!checksumMatches(options.secretKey, txnData, checksum))
    throw new SignatureVerificationError('the checksum does not match txnData');
  const secrets = options.signingSecret === undefined ? [] : [options.signingSecret].flat();
  // A configuration mistake, not a bad call: fail loudly rather than refuse every webhook.
  if (secrets.some((s) => !s)) throw new TypeError('signingSecret is empty: pass the whsec_... secret, or leave it out');
  if (secrets.length) verifyStandardSignature(raw, headers, secrets, options);
  let parsed: TxnData;
  try {
    parsed = JSON.parse(txnData) as TxnData;
  } catch {
    throw new SignatureVerificationError('txnData is not JSON');
  }
  const attempt = header(headers, 'x-webhook-attempt');
  return {
    txnData: parsed,
    settlement: isSettlementProcessed(parsed) ? parsed : undefined,
    txnDataText: txnData,
    id: header(headers, 'webhook-id') ?? header(headers, 'x-webhook-id'),
    attempt: attempt === undefined ? undefined : Number(attempt),
    signedWithStandardWebhooks: secrets.length > 0,
  };
}

/** One Standard Webhooks signature: base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's bytes (no `v1,`). */
export function standardWebhookSignature(secret: string, id: string, timestamp: string | number, body: string): Buffer {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
}

/** The Standard Webhooks check: a fresh timestamp and one `v1,` signature matching one of the secrets. */
function verifyStandardSignature(raw: string, headers: Headers, secrets: readonly string[], options: WebhookVerifyOptions): void {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new SignatureVerificationError('the webhook-id, -timestamp or -signature header is missing');
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new SignatureVerificationError('webhook-timestamp is too old or too new');
  }
  const presented = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const matches = secrets.some((secret) => {
    const expected = standardWebhookSignature(secret, id, timestamp, raw);
    return presented.some((p) => p.length === expected.length && timingSafeEqual(p, expected));
  });
  if (!matches) throw new SignatureVerificationError('webhook-signature does not match');
}
