import http from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { ApiErrors, type ApiErrorKind } from '../domain/api-errors';
import { errorBody, refusalStatus } from './envelope';
import { reportedError, type RefusalsOfPath } from './operation-refusals';

/**
 * The HTTP server around the Koa app, used by the API process, the dev stack and the tests alike.
 * Node answers some broken requests before Koa sees them (headers too large, a request not received
 * in time, a malformed request line or chunk); those answers follow the same rules as Koa's (the
 * error middleware): the envelope, code and status line `refusalsOfPath` (the composition's, app.ts)
 * gives the address and its query, so a client of a contract that answers refusals with HTTP 200
 * reads this one too.
 */
const lastPath = new WeakMap<object, string>();

export function createServer(app: Koa, o: { requestTimeoutMs: number; refusalsOfPath: RefusalsOfPath }): http.Server {
  // Node checks the timeouts on this period (30 s by default), so a stall is answered within it.
  const handle = app.callback(); // Koa answers its own errors: the promise it returns never rejects
  const server = http.createServer({ connectionsCheckingInterval: Math.min(2_000, o.requestTimeoutMs / 2) }, (req, res) => {
    void handle(req, res);
  });
  server.requestTimeout = o.requestTimeoutMs;
  server.headersTimeout = Math.min(o.requestTimeoutMs, 20_000);
  // A request whose headers arrived but whose body stalls has no raw packet to read the path from.
  server.on('request', (req: http.IncomingMessage) => lastPath.set(req.socket, req.url ?? '/'));
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && !err.rawPacket)) {
      socket.destroy();
      return;
    }
    const thrown: ApiErrorKind =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'headersTooLarge'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'requestTimeout'
          : 'badRequest';
    const target = /^[A-Z]+ (\/[^ ]*)/.exec(err.rawPacket?.toString('latin1') ?? '')?.[1] ?? lastPath.get(socket) ?? '/';
    const { path, query } = addressOf(target);
    const refusals = o.refusalsOfPath(path, query);
    const { kind } = reportedError(refusals, thrown);
    const answer = errorBody(refusals.envelope, kind);
    const body = answer.type === 'json' ? JSON.stringify(answer.body) : answer.body;
    const type = answer.type === 'json' ? 'application/json; charset=utf-8' : answer.type;
    const status = refusalStatus(refusals.envelope, ApiErrors[kind].http);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** The path and query of a raw request target ("/" for one that is no address). */
function addressOf(target: string): { path: string; query: Record<string, string> } {
  try {
    const url = new URL(`http://raw${target}`); // never read as //host/path
    return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
  } catch {
    return { path: '/', query: {} };
  }
}
