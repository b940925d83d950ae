import { strict as assert } from 'node:assert';
import dns from 'node:dns';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { postWebhook } from '../../src/outbound/webhook-post';

/**
 * A webhook attempt's timeout is a deadline on the whole exchange: a receiver that keeps the
 * connection busy with a byte now and then (headers or body) is cut off at it, so no receiver can
 * hold a worker's socket for ever. Real loopback receivers, the attempt's own HTTP code.
 */
describe('Webhook attempt deadline: a trickling receiver is cut off', function () {
  this.timeout(20_000);
  const closers: (() => void)[] = [];
  after(() => closers.forEach((c) => c()));

  async function listen(server: net.Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  const attempt = (url: string, timeoutMs: number) =>
    postWebhook({ deliveryId: 'd1', attempt: 1, url, contentType: 'text/plain', body: 'x' }, {}, dns.lookup, timeoutMs);

  async function timed(p: Promise<unknown>): Promise<{ ms: number; error: Error | null }> {
    const started = Date.now();
    // Guard: today's idle timeout never fires against a trickle; fail instead of hanging the run.
    const guard = new Promise((_, reject) => setTimeout(() => reject(new Error('still waiting after 5 s')), 5_000).unref());
    try {
      await Promise.race([p, guard]);
      return { ms: Date.now() - started, error: null };
    } catch (e) {
      return { ms: Date.now() - started, error: e as Error };
    }
  }

  it('a body trickled a byte every 100 ms: cut at the 800 ms deadline', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('S'), 100);
      res.on('close', () => clearInterval(t));
    });
    const url = await listen(server);
    const { ms, error } = await timed(attempt(url, 800));
    assert.match(String(error?.message), /no answer within 0.8 s/);
    assert.ok(ms >= 750 && ms < 2_000, `cut after ${ms} ms`);
  });

  it('headers trickled a line every 100 ms: cut at the deadline', async () => {
    const server = net.createServer((socket) => {
      socket.on('data', () => undefined);
      socket.write('HTTP/1.1 200 OK\r\n');
      const t = setInterval(() => socket.write(`x-slow-${Date.now()}: 1\r\n`), 100);
      socket.on('close', () => clearInterval(t));
      socket.on('error', () => clearInterval(t));
    });
    const url = await listen(server);
    const { ms, error } = await timed(attempt(url, 800));
    assert.match(String(error?.message), /no answer within 0.8 s/);
    assert.ok(ms < 2_000, `cut after ${ms} ms`);
  });

  it('a prompt receiver still answers within the deadline', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('SUCCESS'));
    });
    const url = await listen(server);
    const answer = await attempt(url, 800);
    assert.deepEqual([answer.status, answer.text], [200, 'SUCCESS']);
  });
});
