import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { Registry } from 'prom-client';
import { observe } from '../../src/api/middleware/observe';
import type { Logger } from '../../src/logger';

/** The access log over real HTTP: a link's token (whoever holds it can pay) never reaches it. */
describe('Access log: payment link tokens redacted', () => {
  it('logs /pl/[token] and /pl/[token]/pay, keeps other paths as they are', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = { info: (o: Record<string, unknown>) => lines.push(o) } as unknown as Logger;
    const router = new Router();
    router.get('/pl/:token', (ctx) => (ctx.body = 'page'));
    router.post('/pl/:token/pay', (ctx) => (ctx.status = 303));
    router.post('/pl/api/v1/create', (ctx) => (ctx.body = 'created'));
    const app = new Koa().use(observe(logger, new Registry())).use(router.routes());
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const token = 'AbCdEfGhIjKlMnOpQrStUv_-';
    try {
      await fetch(`${base}/pl/${token}`);
      await fetch(`${base}/pl/${token}/pay`, { method: 'POST', redirect: 'manual' });
      await fetch(`${base}/pl/api/v1/create`, { method: 'POST' });
      await fetch(`${base}/pl/${token}?x=1`);
      await fetch(`${base}/checkout/${token}`);
    } finally {
      server.close();
    }
    assert.deepEqual(
      lines.map((l) => l.path),
      ['/pl/[token]', '/pl/[token]/pay', '/pl/api/v1/create', '/pl/[token]', '/checkout/[token]'],
    );
    assert.ok(!JSON.stringify(lines).includes(token), 'the token is nowhere in the log');
  });
});
