import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What Temporal UI's browser sends that the API's codec route reads (its token is added here). */
const FORWARDED_HEADERS = [
  'content-type',
  'content-length',
  'origin',
  'x-namespace',
  'access-control-request-method',
  'access-control-request-headers',
];

/**
 * `npm start`'s codec site for Temporal UI (compose's loopback Caddy site, in Node): on loopback
 * only, POST and OPTIONS of /encode and /decode go to the API's /ops/v1/codec with the operator
 * token, so the UI decodes the payload codec's payloads without holding the token; anything else
 * is 404 and never reaches the API. CORS stays the API's (CODEC_CORS_ORIGINS).
 */
export async function startCodecSite(o: {
  port: number;
  /** The API, e.g. http://127.0.0.1:3000. */
  apiBaseUrl: string;
  opsToken: string;
}): Promise<{ url: string; close(): Promise<void> }> {
  const api = new URL(o.apiBaseUrl);
  const server = http.createServer((req, res) => {
    const direction = /^\/(encode|decode)$/.exec(new URL(req.url ?? '/', 'http://codec').pathname)?.[1];
    if (!direction || (req.method !== 'POST' && req.method !== 'OPTIONS')) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"only POST/OPTIONS /encode and /decode"}');
      return;
    }
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${o.opsToken}` };
    for (const h of FORWARDED_HEADERS) if (req.headers[h] !== undefined) headers[h] = req.headers[h];
    const upstream = http.request(
      { host: api.hostname, port: api.port, method: req.method, path: `/ops/v1/codec/${direction}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `the API is not reachable: ${e.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
