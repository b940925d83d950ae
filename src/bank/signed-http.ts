import type http from 'node:http';
import { OutboundTimeoutError, sendHttp } from '../outbound/http-client';
import { BANK_SIGNATURE_HEADER, signBankRequest } from './signing';

/**
 * One signed exchange of the bank protocol, either direction: the body is serialised once, those
 * exact bytes are signed and sent, and the call is abandoned after `timeoutMs`. Network failures
 * and timeouts surface as `BankNetworkError`; the caller decides what a status means.
 *
 * Sent through the outbound client (src/outbound/http-client.ts) on kept-alive connections; an idle
 * one the bank closed at the same moment is sent again at once on a new connection (every request
 * of the protocol is idempotent by its id).
 */
export class BankNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BankNetworkError';
  }
}

export interface SignedResponse {
  status: number;
  text: string;
  json: unknown;
  headers: http.IncomingHttpHeaders;
  /** The X-Bank-Signature the request carried: the bank's answer is signed over it (verifyBankAnswer). */
  requestSignature: string;
}

const MAX_RESPONSE_BYTES = 1_048_576;

export async function signedCall(o: {
  secret: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  timeoutMs: number;
}): Promise<SignedResponse> {
  const raw = o.body === undefined ? '' : JSON.stringify(o.body);
  // Signatures are transport, not business time: the wall clock, also when the gateway runs on a skipped clock.
  const headers: Record<string, string> = { ...signBankRequest(o.secret, raw, new Date()), accept: 'application/json' };
  if (o.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(raw));
  }
  let result: { status: number; text: string; headers: http.IncomingHttpHeaders };
  try {
    result = await sendHttp({
      method: o.method,
      url: o.url,
      headers,
      body: raw,
      timeoutMs: o.timeoutMs,
      keepAlive: true,
      retryStaleSocket: true,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      oversize: 'fail',
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    const why = e instanceof OutboundTimeoutError ? `no answer within ${o.timeoutMs} ms` : (err.code ?? err.message);
    throw new BankNetworkError(`${o.method} ${o.url}: ${why}`, { cause: e });
  }
  let json: unknown = undefined;
  try {
    json = result.text ? JSON.parse(result.text) : undefined;
  } catch {
    json = undefined;
  }
  return { ...result, json, requestSignature: headers[BANK_SIGNATURE_HEADER] };
}
