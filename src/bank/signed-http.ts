import http from 'node:http';
import https from 'node:https';
import { BANK_SIGNATURE_HEADER, signBankRequest } from './signing';

/**
 * One signed exchange of the bank protocol, either direction: the body is serialised once, those
 * exact bytes are signed and sent, and the call is abandoned after `timeoutMs`. Network failures
 * and timeouts surface as `BankNetworkError`; the caller decides what a status means.
 *
 * node:http with keep-alive agents rather than fetch: on these machines fetch costs several
 * milliseconds a call on loopback, node:http about one. An idle kept-alive socket the bank closed
 * at the same moment fails with ECONNRESET before anything was answered: that one is sent again at
 * once on a new connection (every request of the protocol is idempotent by its id).
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
// Idle sockets are closed before a Node server's default 5 s keep-alive timeout closes them.
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 256 }),
};

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
  const signal = AbortSignal.timeout(o.timeoutMs);
  let result: Exchanged;
  try {
    result = await exchange(o.method, o.url, headers, raw, signal).catch((e: RetryOnNewSocket) => {
      if (e instanceof RetryOnNewSocket) return exchange(o.method, o.url, headers, raw, signal, false);
      throw e;
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    const why = signal.aborted ? `no answer within ${o.timeoutMs} ms` : (err.code ?? err.message);
    throw new BankNetworkError(`${o.method} ${o.url}: ${why}`, { cause: e });
  }
  let json: unknown = undefined;
  try {
    json = result.text ? JSON.parse(result.text) : undefined;
  } catch {
    json = undefined;
  }
  return { ...result, json, requestSignature: headers[BANK_SIGNATURE_HEADER]! };
}

class RetryOnNewSocket extends Error {}

type Exchanged = { status: number; text: string; headers: http.IncomingHttpHeaders };

function exchange(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  mayRetry = true,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const protocol = u.protocol === 'https:' ? 'https:' : 'http:';
    const send = protocol === 'https:' ? https.request : http.request;
    let answered = false;
    const req = send(u, { method, headers, agent: agents[protocol], signal }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) return req.destroy(new Error(`answer over ${MAX_RESPONSE_BYTES} bytes`));
        chunks.push(c);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
      );
      res.on('error', reject);
    });
    req.on('error', (e: Error & { code?: string }) => {
      if (mayRetry && !answered && req.reusedSocket && e.code === 'ECONNRESET' && !signal.aborted) reject(new RetryOnNewSocket());
      else reject(e);
    });
    req.end(body);
  });
}
