import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's webhook receiver on loopback that answers 200 SUCCESS at once, counting what it acknowledged. */
export interface LoopbackReceiver {
  url: string;
  /** Acknowledgements per X-Webhook-Id. */
  acked: Map<string, number>;
  close(): Promise<void>;
}

export async function startLoopbackReceiver(): Promise<LoopbackReceiver> {
  const acked = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-webhook-id']);
      acked.set(id, (acked.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    acked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
