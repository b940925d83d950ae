import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/*
 * The gateway's one outbound HTTP client: the bank protocol (src/bank/signed-http.ts), webhook
 * attempts and the dashboard's test webhook (src/outbound/webhook-post.ts) all send through it.
 *
 * node:http rather than fetch or undici's own API: cheaper per call than fetch and as fast as
 * undici.request (`npm run bench:outbound`, figures in docs/contributors/benchmarks.md), no
 * dependency, and it takes the address-checking `lookup` per request.
 */

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A hard deadline on the whole exchange (connect, headers and body), not an idle timeout. */
  timeoutMs: number;
  /** Resolves the host (an address-checking lookup for webhooks); default: the system's. */
  lookup?: LookupFunction;
  /** Reuse connections from the module's keep-alive pool (the bank) or Node's global agent (default). */
  keepAlive?: boolean;
  /**
   * Answers larger than this: `fail` ends the exchange with an error (the bank: an answer that large
   * is no answer), `truncate` reads on and keeps only the first bytes (a webhook receiver's answer).
   */
  maxResponseBytes: number;
  oversize: 'fail' | 'truncate';
  /**
   * An idle kept-alive socket the server closed at the same moment fails with ECONNRESET before
   * anything was answered: send again once on a new connection (only for idempotent requests).
   */
  retryStaleSocket?: boolean;
}

export interface OutboundResponse {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** The deadline passed without a complete answer. */
export class OutboundTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
    this.name = 'OutboundTimeoutError';
  }
}

// Idle sockets are closed before a Node server's default 5 s keep-alive timeout closes them.
const keepAliveAgents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 256 }),
};

/** One request and its whole answer; redirects are not followed. Network failures reject with Node's error. */
export async function sendHttp(r: OutboundRequest): Promise<OutboundResponse> {
  try {
    return await exchange(r, r.retryStaleSocket === true);
  } catch (e) {
    if (e instanceof RetryOnNewSocket) return exchange(r, false);
    throw e;
  }
}

class RetryOnNewSocket extends Error {}

function exchange(r: OutboundRequest, mayRetry: boolean): Promise<OutboundResponse> {
  const url = new URL(r.url);
  const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
  const send = protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      finish();
    };
    const deadline = setTimeout(() => {
      settle(() => reject(new OutboundTimeoutError(r.timeoutMs)));
      req.destroy();
    }, r.timeoutMs);
    const req = send(
      url,
      {
        method: r.method,
        headers: r.headers,
        ...(r.keepAlive ? { agent: keepAliveAgents[protocol] } : {}),
        ...(r.lookup ? { lookup: r.lookup } : {}),
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (r.oversize === 'truncate') {
            if (size < r.maxResponseBytes) chunks.push(c);
            size += c.length;
            return;
          }
          size += c.length;
          if (size > r.maxResponseBytes) return req.destroy(new Error(`answer over ${r.maxResponseBytes} bytes`));
          chunks.push(c);
        });
        res.on('end', () =>
          settle(() =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
          ),
        );
        res.on('error', (e) => settle(() => reject(e)));
      },
    );
    req.on('error', (e: Error & { code?: string }) => {
      const stale = mayRetry && !answered && req.reusedSocket && e.code === 'ECONNRESET';
      settle(() => reject(stale ? new RetryOnNewSocket() : e));
    });
    req.end(r.body);
  });
}
