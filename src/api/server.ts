import http from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { ApiErrors, type ApiErrorKind } from '../domain/api-errors';
import { errorBody } from './envelope';
import { envelopeForPath } from './envelope-of';

/**
 * The HTTP server around the Koa app, used by the API process, the dev stack and the tests alike.
 * Node answers some broken requests before Koa sees them (headers too large, a request not received
 * in time, a malformed request line or chunk); those answers speak the JSON envelope of the path's
 * API family too.
 */
const lastPath = new WeakMap<object, string>();

export function createServer(app: Koa, o: { requestTimeoutMs: number }): http.Server {
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
    const kind: ApiErrorKind =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'headersTooLarge'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'requestTimeout'
          : 'badRequest';
    const path =
      /^[A-Z]+ (\/[^ ?]*)/.exec(err.rawPacket?.toString('latin1') ?? '')?.[1] ?? lastPath.get(socket)?.split('?')[0] ?? '/';
    const body = JSON.stringify(errorBody(envelopeForPath(path), kind));
    const { http: status } = ApiErrors[kind];
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
