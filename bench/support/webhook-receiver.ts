import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's webhook receiver on loopback that answers 200 SUCCESS at once, counting what it acknowledged. */
export interface LoopbackReceiver {
  url: string;
  /** Acknowledgements per X-Webhook-Id. */
  acked: Map<string, number>;
  /** Resolves once a call of this X-Webhook-Id has been acknowledged. */
  acknowledged(id: string): Promise<void>;
  close(): Promise<void>;
}

/** `port`: a fixed one (a TLS site in front of the receiver expects it there); any free one by default. */
export async function startLoopbackReceiver(port = 0): Promise<LoopbackReceiver> {
  const acked = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-webhook-id']);
      acked.set(id, (acked.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
      waiters.get(id)?.();
      waiters.delete(id);
    });
  });
  server.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    acked,
    acknowledged: (id) => (acked.has(id) ? Promise.resolve() : new Promise((resolve) => waiters.set(id, resolve))),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
