import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../src/devstack/process';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { awaitResultPage, payOnCheckoutPage, postTransactU, v8Data } from '../support/checkout';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { gatewayProcessEnv, startEntryPoint, startWorkerProcess } from '../support/worker-process';

/** One span as OTLP/HTTP JSON carries it, with the service that sent it. */
interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const SERVER = 2;
const CLIENT = 3;

/** An OTLP/HTTP trace collector on loopback: keeps every span posted to /v1/traces. */
async function startCollector() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: Span['attributes'] };
          scopeSpans: { spans: Omit<Span, 'service'>[] }[];
        }[];
      };
      for (const r of body.resourceSpans) {
        const service = String(r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue);
        for (const s of r.scopeSpans) for (const span of s.spans) spans.push({ ...span, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Tracing over real processes: the API (src/main/api.ts) and a worker (src/main/worker.ts), each with
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set to a collector in this test, the bank simulator over the
 * http connector and a merchant's webhook receiver. A payer's pay request on the hosted page must
 * give one whole trace to the webhook, with nothing of the payer in it.
 */
describe('Tracing: one payment, one trace from the request to the webhook (OTLP)', function () {
  this.timeout(180_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const children: ChildProcess[] = [];
  let apiUrl: string;

  before(async () => {
    gw = await startTestGateway({}, { bank: 'simulator' });
    collector = await startCollector();
    receiver = await startReceiver();
    merchant = await gw.newMerchant('Traced');
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
    const taskQueue = `traced-${randomBytes(4).toString('hex')}`;
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const c = gw.rt.config;
    const shared = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url,
      BANK_CONNECTOR: 'http',
      BANK_BASE_URL: c.bank.baseUrl!,
      BANK_SECRET: c.bank.secret!,
      PUBLIC_BASE_URL: apiUrl,
    };
    children.push(await startWorkerProcess(gw, taskQueue, shared));
    children.push(
      await startEntryPoint('src/main/api.ts', 'API listening', {
        ...gatewayProcessEnv(gw, taskQueue),
        ...shared,
        API_PORT: String(port),
      }),
    );
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    await collector?.close();
    await gw?.stop();
  });

  it('the checkout request, the workflow start, the workflow, its activities, the bank call and the webhook share one trace, with no payer data', async () => {
    const api = { ...gw, baseUrl: apiUrl };
    const orderId = newOrderId('traced');
    const payerEmail = `payer.${orderId}@example.com`;
    // A caller's own trace context and baggage: the gateway starts its own trace and carries neither.
    const callersTrace = 'abababababababababababababababab';
    const posted = await postTransactU(
      api,
      merchant.secretKey,
      v8Data(merchant, orderId, { orderDetail: { orderId, email: payerEmail } }),
      {
        browser: true,
        headers: { traceparent: `00-${callersTrace}-cdcdcdcdcdcdcdcd-01`, baggage: 'payer=chosen-text' },
      },
    );
    assert.equal(posted.status, 303, posted.text);
    const location = posted.location!;
    await payOnCheckoutPage(api, location, [['payerVpa', 'success@sandbox']]);
    await awaitResultPage(api, location);
    await receiver.received(1);

    // The checkout's request starts the payment's workflow: its trace is the payment's.
    const checkout = await waitFor(() => collector.spans.find((s) => s.kind === SERVER && s.name === 'POST /transactU'));
    assert.equal(checkout.parentSpanId ?? '', '', "the request's span starts the trace");
    assert.notEqual(checkout.traceId, callersTrace);
    const hook = receiver.calls[0]!.headers;
    assert.equal(hook.baggage, undefined, "no caller's baggage reaches the merchant");
    assert.ok(!String(hook.traceparent ?? '').includes(callersTrace));
    const inTrace = () => collector.spans.filter((s) => s.traceId === checkout.traceId);
    const named = (service: string, name: string) => inTrace().find((s) => s.service === service && s.name === name);
    const story = () =>
      inTrace()
        .map((s) => `${s.service} ${s.name}`)
        .join('\n');
    // The workflow's own span is sent when the workflow ends; the rest as each step ends.
    const run = await waitFor(() => named('gateway-worker', 'RunWorkflow:paymentWorkflow'));
    const start = named('gateway-api', 'StartWorkflow:paymentWorkflow');
    const bank = named('gateway-worker', 'RunActivity:requestBankPayment');
    const recorded = named('gateway-worker', 'RunActivity:recordPaymentOutcome');
    assert.ok(start && bank && recorded, story());
    assert.equal(start.parentSpanId, checkout.spanId, 'the start, within the request');
    assert.equal(run.parentSpanId, start.spanId, 'the workflow, from its start');
    const callsUnder = (parent: Span) => inTrace().filter((s) => s.kind === CLIENT && s.parentSpanId === parent.spanId);
    assert.equal(callsUnder(bank).length, 1, `the bank call, under the bank step:\n${story()}`);
    // The real-time webhook's first attempt is made by the step that records the outcome.
    assert.equal(callsUnder(recorded).length, 1, `the webhook POST, under the outcome's step:\n${story()}`);
    // Whole: every span but the request's hangs from one in the same trace.
    const ids = new Set(inTrace().map((s) => s.spanId));
    for (const s of inTrace())
      if (s !== checkout)
        assert.ok(s.parentSpanId && ids.has(s.parentSpanId), `${s.service} ${s.name} has its parent in the trace`);
    // The payer's pay request is a trace of its own, linked to the workflow by its update.
    const pay = collector.spans.find((s) => s.kind === SERVER && s.name === 'POST /checkout/:token/pay');
    assert.ok(pay && collector.spans.some((s) => s.traceId === pay.traceId && s.name.startsWith('HandleUpdate:')));

    // Nothing of the payer, nor the page's token, in anything sent: names, attributes, events, status.
    const token = location.split('/').pop()!;
    const sent = JSON.stringify(collector.spans);
    for (const secret of [payerEmail, 'success@sandbox', token]) assert.ok(!sent.includes(secret), `no ${secret} in a span`);
  });
});

async function waitFor<T>(found: () => T | undefined, seconds = 30): Promise<T> {
  for (let i = 0; i < seconds * 10; i++) {
    const value = found();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not found within ${seconds} s`);
}
