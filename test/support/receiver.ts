import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  url: string;
  /** When the call arrived (Date.now()). */
  receivedAt: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with the n-th call: answer it, or hold it open without a word. */
export type ReceiverAnswer = { status: number; body: string; headers?: Record<string, string> } | 'hang';

/**
 * A merchant's webhook receiver on loopback: records every call and answers with what `answer`
 * says for the n-th call (default: 200 SUCCESS); an answer given as a promise holds the call open
 * until it settles (a test acts while an attempt is in flight). `received` resolves once n calls
 * have arrived.
 */
export async function startReceiver(
  answer: (n: number) => ReceiverAnswer | Promise<ReceiverAnswer> = () => ({ status: 200, body: 'SUCCESS' }),
  /** A fixed port (a TLS site in front of it expects it there); any free one by default. */
  port = 0,
) {
  const calls: ReceivedCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({
        url: req.url ?? '',
        receivedAt: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const given = answer(calls.length);
      waiters.filter((w) => w.n <= calls.length).forEach((w) => w.resolve());
      void Promise.resolve(given).then((a) => {
        if (a !== 'hang') res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end(a.body);
      });
    });
  });
  const waiters: { n: number; resolve: () => void }[] = [];
  server.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payments`,
    calls,
    received: (n: number) =>
      calls.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
