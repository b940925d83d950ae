import { signBankRequest } from './signing';

/**
 * One signed exchange of the bank protocol, either direction: the body is serialised once, those
 * exact bytes are signed and sent, and the call is abandoned after `timeoutMs`. Network failures
 * and timeouts surface as `BankNetworkError`; the caller decides what a status means.
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
}

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
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(o.url, {
      method: o.method,
      headers,
      ...(o.body !== undefined ? { body: raw } : {}),
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    const why = err.name === 'TimeoutError' ? `no answer within ${o.timeoutMs} ms` : (err.cause?.code ?? err.message);
    throw new BankNetworkError(`${o.method} ${o.url}: ${why}`, { cause: e });
  }
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}
