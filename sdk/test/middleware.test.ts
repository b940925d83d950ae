import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Koa from 'koa';
import { gatewayWebhookExpress, type WebhookRequest } from '../src/middleware/express';
import { gatewayWebhookKoa, type KoaLikeContext } from '../src/middleware/koa';
import { captureRawBody } from '../src/middleware/raw-body';
import { fakeRealtimeTxn, signFakeWebhook } from '../src/testing';
import { isRealtimeTxn, type VerifiedWebhook, type WebhookVerifyOptions } from '../src/webhooks';
import { deliveryResult } from '../../test/support/deliveries';
import { newOrderId, paymentFinished, sandboxPay } from '../../test/support/payments';
import { startTestGateway, webhooksTo, type TestGateway } from './gateway';

type Received = VerifiedWebhook[];
type App = (options: WebhookVerifyOptions, received: Received) => http.RequestListener;

/** Express with JSON and urlencoded parsers mounted before the middleware: the classic trap. */
const expressParsersFirst: App = (options, received) => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.post('/hooks', gatewayWebhookExpress(options), (req, res) => {
    received.push((req as unknown as WebhookRequest).gatewayWebhook);
    res.type('text').send('SUCCESS');
  });
  return app;
};
/** Express whose parsers keep the raw bytes with the SDK's verify hook. */
const expressVerifyHook: App = (options, received) => {
  const app = express();
  app.use(express.json({ verify: captureRawBody }));
  app.use(express.urlencoded({ extended: false, verify: captureRawBody }));
  app.post('/hooks', gatewayWebhookExpress(options), (req, res) => {
    received.push((req as unknown as WebhookRequest).gatewayWebhook);
    res.type('text').send('SUCCESS');
  });
  return app;
};
/** Koa with @koa/bodyparser (JSON and form) mounted before the middleware. */
const koaParserFirst: App = (options, received) => koaApp(options, received, true);
/** Koa with no parser: the middleware reads the stream itself. */
const koaNoParser: App = (options, received) => koaApp(options, received, false);

function koaApp(options: WebhookVerifyOptions, received: Received, parser: boolean): http.RequestListener {
  const app = new Koa();
  if (parser) app.use(bodyParser({ enableTypes: ['json', 'form'] }));
  const verify = gatewayWebhookKoa(options);
  app.use(async (ctx, next) => {
    if (ctx.path !== '/hooks') return next();
    await verify(ctx as unknown as KoaLikeContext, async () => {
      received.push(ctx.state.gatewayWebhook as VerifiedWebhook);
      ctx.body = 'SUCCESS';
    });
  });
  return app.callback();
}

async function listen(listener: http.RequestListener) {
  const server = http.createServer(listener).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => server.close() };
}

describe('SDK webhook middleware under Express and Koa, body parsers mounted before it', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms' });
  });
  after(() => gw?.stop());

  const apps = { expressParsersFirst, expressVerifyHook, koaParserFirst, koaNoParser };
  for (const [name, app] of Object.entries(apps)) {
    for (const format of ['form', 'json'] as const) {
      it(`${name}, ${format} body: a real gateway webhook verifies (checksum and Standard signature) and is acknowledged; a tampered one is refused`, async () => {
        const merchant = await gw.newMerchant('Hook Shop');
        const received: Received = [];
        const options: WebhookVerifyOptions = { secretKey: merchant.secretKey };
        const site = await listen(app(options, received));
        try {
          options.signingSecret = await webhooksTo(gw, merchant.merchantIdentifier, site.url, format);
          const orderId = newOrderId('hook');
          await sandboxPay(gw, {
            merchantIdentifier: merchant.merchantIdentifier,
            orderId,
            amount: 90_000,
            payerVpa: 'success@sandbox',
          });
          await paymentFinished(gw, merchant.merchantIdentifier, orderId);
          const delivery = await deliveryResult(gw, `rt:${merchant.merchantIdentifier}:${orderId}`);
          assert.equal(delivery.state, 'delivered', 'the gateway got SUCCESS');
          assert.equal(received.length, 1);
          const hook = received[0]!;
          assert.equal(hook.signedWithStandardWebhooks, true);
          const txn = hook.txnData.txns[0]!;
          assert.ok(isRealtimeTxn(txn));
          assert.equal(txn.orderId, orderId);
          assert.equal(txn.amount, '90000');
          assert.equal(txn.responseCode, '100');

          // The same call with the amount changed: refused with 400, the handler never runs.
          const call = signFakeWebhook(
            {
              merchantIdentifier: merchant.merchantIdentifier,
              txns: [fakeRealtimeTxn({ orderId, amount: '90000' })],
              refunds: [],
            },
            { secretKey: merchant.secretKey, signingSecret: options.signingSecret, format },
          );
          const honest = await fetch(site.url, { method: 'POST', headers: call.headers, body: call.body });
          assert.equal(honest.status, 200);
          assert.equal(await honest.text(), 'SUCCESS');
          const tampered = await fetch(site.url, {
            method: 'POST',
            headers: call.headers,
            body: call.body.replace('90000', '10000'),
          });
          assert.equal(tampered.status, 400);
          assert.match(await tampered.text(), /refused/);
          assert.equal(received.length, 2, 'only the honest calls reached the handler');
        } finally {
          site.close();
        }
      });
    }
  }
});
