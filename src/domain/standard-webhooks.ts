import { createHmac, randomBytes } from 'node:crypto';

/** A merchant's webhook signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * One Standard Webhooks signature, `v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<raw body>`, under
 * the secret's bytes (the base64 after `whsec_`).
 */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt, signed with every active secret (a rotation's overlap sends two). */
export function standardWebhookHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => standardWebhookSignature(s, id, timestamp, body)).join(' '),
  };
}
