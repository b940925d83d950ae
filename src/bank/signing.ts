import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Both directions of the bank protocol are signed the same way (design.md, Environments and the bank protocol): `X-Bank-Timestamp`
 * (Unix seconds) and `X-Bank-Signature` = lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`
 * with the shared bank secret. A GET signs an empty body. A timestamp more than five minutes away
 * from the receiver's clock is refused, so a captured request cannot be replayed later.
 *
 * The bank's answers to our requests are signed too, over `<timestamp>.<the request's
 * X-Bank-Signature>.<raw answer body>`: an answer is bound to the one request it answers, so an
 * answer captured from another exchange is refused, and its text never reads as a request's or a
 * callback's (a body never starts with 64 hex digits and a dot).
 */
export const BANK_TIMESTAMP_HEADER = 'x-bank-timestamp';
export const BANK_SIGNATURE_HEADER = 'x-bank-signature';
export const BANK_SIGNATURE_WINDOW_SECONDS = 300;

export function bankSignature(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The two headers for a body sent now. */
export function signBankRequest(secret: string, rawBody: Buffer | string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return { [BANK_TIMESTAMP_HEADER]: timestamp, [BANK_SIGNATURE_HEADER]: bankSignature(secret, timestamp, rawBody) };
}

export type BankSignatureCheck = { ok: true } | { ok: false; problem: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/** Checks the headers of a received request against its exact bytes, in constant time. */
export function verifyBankSignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer | string,
  now: Date,
): BankSignatureCheck {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return { ok: false, problem: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-fA-F]{64}$/.test(signature)) return { ok: false, problem: 'malformed' };
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > BANK_SIGNATURE_WINDOW_SECONDS) return { ok: false, problem: 'stale' };
  const expected = Buffer.from(bankSignature(secret, timestamp, rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, problem: 'mismatch' };
}

const answerText = (requestSignature: string, rawBody: Buffer | string) =>
  Buffer.concat([Buffer.from(`${requestSignature}.`), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody)]);

/** The two headers of the bank's answer (`rawBody`) to the request signed `requestSignature`. */
export function signBankAnswer(
  secret: string,
  requestSignature: string,
  rawBody: Buffer | string,
  now: Date,
): Record<string, string> {
  return signBankRequest(secret, answerText(requestSignature, rawBody), now);
}

/** Checks the headers of the bank's answer to the request signed `requestSignature` (see signBankAnswer). */
export function verifyBankAnswer(
  secret: string,
  requestSignature: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer | string,
  now: Date,
): BankSignatureCheck {
  return verifyBankSignature(secret, headers, answerText(requestSignature, rawBody), now);
}
