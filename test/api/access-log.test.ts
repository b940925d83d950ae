import { strict as assert } from 'node:assert';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { Registry } from 'prom-client';
import { readRawBody } from '../../src/api/middleware/body';
import { refusalsOfPath } from '../../src/api/app';
import { errorEnvelope } from '../../src/api/middleware/errors';
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

/** A request its client abandons is no error of ours: logged as 499, never as a failed request (500). */
describe('Access log: a request the client abandoned', () => {
  it('logs 499 and no error when the body is cut off by the client going away', async () => {
    const lines: { level: string; o: Record<string, unknown>; msg: string }[] = [];
    const record = (level: string) => (o: Record<string, unknown>, msg: string) => lines.push({ level, o, msg });
    const logger = { info: record('info'), warn: record('warn'), error: record('error') } as unknown as Logger;
    const router = new Router();
    router.post('/api/payments/v1/status', async (ctx) => {
      await readRawBody(ctx, 'application/json', 10_000);
      ctx.body = { success: true };
    });
    const app = new Koa().use(observe(logger, new Registry())).use(errorEnvelope(logger, refusalsOfPath)).use(router.routes());
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      // Half the announced body, then the client is gone.
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write(
        'POST /api/payments/v1/status HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"orderId":',
      );
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
      for (let i = 0; i < 50 && !lines.some((l) => l.msg === 'request'); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      server.close();
    }
    assert.deepEqual(
      lines.filter((l) => l.level === 'error'),
      [],
      'no error logged',
    );
    const access = lines.find((l) => l.msg === 'request');
    assert.equal(access?.o.status, '499');
    assert.ok(lines.some((l) => l.msg === 'client closed the request'));
  });
});
