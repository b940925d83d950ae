import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import Koa from 'koa';
import { Registry } from 'prom-client';
import { loggedPath, observe } from '../../src/api/middleware/observe';
import { createLogger } from '../../src/logger';

/** A logger writing into an array, as the gateway's (same redaction). */
function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', 'test', sink as never), text: () => lines.join('') };
}

describe('logs: no tokens, cookies, authorization or checksums', () => {
  it('redacts credentials and checksums wherever a logged object carries them', () => {
    const { logger, text } = capturedLogger();
    logger.info(
      {
        token: 'one-time-token-1',
        invitationUrl: 'https://pay.example.in/dashboard/invitations/one-time-token-2',
        headers: { authorization: 'Bearer ops-token-3', cookie: 'gw_dashboard=session-4', 'x-api-key': 'api-key-5' },
        req: { headers: { 'x-bank-signature': 'sig-6', 'webhook-signature': 'sig-7' } },
        body: { checksum: 'checksum-8', secretKey: 'secret-9', password: 'password-10' },
        orderId: 'still-visible',
      },
      'event',
    );
    for (let i = 1; i <= 10; i++) assert.doesNotMatch(text(), new RegExp(`-${i}\\b`), `secret ${i} logged: ${text()}`);
    assert.match(text(), /still-visible/);
    assert.match(text(), /\[redacted\]/);
  });

  it("the access log writes an invitation's, a link's or a checkout's path without its token", async () => {
    assert.equal(loggedPath('/dashboard/invitations/abcDEF123'), '/dashboard/invitations/[token]');
    const { logger, text } = capturedLogger();
    const app = new Koa();
    app.use(observe(logger, new Registry()));
    const router = new Router();
    router.get('/dashboard/invitations/:token', (ctx) => {
      ctx.body = 'ok';
    });
    app.use(router.routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/dashboard/invitations/invitation-token-secret`, {
        headers: { cookie: 'gw_form=cookie-secret', authorization: 'Bearer bearer-secret' },
      });
      assert.equal(res.status, 200);
    } finally {
      server.close();
    }
    assert.match(text(), /"path":"\/dashboard\/invitations\/\[token\]"/);
    assert.doesNotMatch(text(), /invitation-token-secret|cookie-secret|bearer-secret/);
  });
});
