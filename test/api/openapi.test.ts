import { strict as assert } from 'node:assert';
import { merchantCredentialsResponseSchema } from '../../src/api/schemas/ops';
import { bulkResponseSchema, ledgerResponseSchema } from '../../src/api/schemas/ledger';
import { createQrResponseSchema } from '../../src/api/schemas/qr';
import { formatIstDateTime } from '../../src/domain/ist-time';
import { fetchTxn, ledger } from '../support/ledger';
import { createLinks, linkEntry, newBatchId } from '../support/payment-links';
import { paymentLinkResponseSchema } from '../../src/api/schemas/payment-links';
import { createQr } from '../support/qr';
import { sandboxPaymentResponseSchema } from '../../src/api/schemas/sandbox';
import { statusResponseSchema } from '../../src/api/schemas/status';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import type Koa from 'koa';
import type Router from '@koa/router';
import { createApp } from '../../src/api/app';
import { AUDIENCES } from '../../src/api/audiences';
import { apiDeps } from '../../src/main/api-deps';

/**
 * `METHOD /path` for every route of every router the app mounted: HEAD (which the router adds to each
 * GET) and OPTIONS (CORS preflights) left out, as no operation documents them.
 */
function mountedOperations(app: Koa): string[] {
  // @koa/router marks the middleware of router.routes() with the router it dispatches to.
  const routers = app.middleware.flatMap((m) => (m as unknown as { router?: Router }).router ?? []);
  return routers.flatMap((r) =>
    r.stack.flatMap((layer) =>
      layer.methods.filter((method) => method !== 'HEAD' && method !== 'OPTIONS').map((method) => `${method} ${layer.path}`),
    ),
  );
}

/** An operation with its path parameters unnamed (`/checkout/:token` and `/checkout/{token}` alike become `/checkout/{}`). */
const shape = (op: string) => op.replace(/:\w+|\{\w+\}/g, '{}');

describe('API reference: GET /openapi.json', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  it('documents every endpoint with the request schemas the routes validate with', async () => {
    const res = await request(`${gw.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
    assert.equal(res.json.openapi, '3.1.0');
    // What the app serves, read from the routers it mounted (each audience module's), against what
    // the reference documents: every operation documented but the pages a module declares
    // undocumented, and nothing documented that is not served.
    const served = mountedOperations(createApp(apiDeps(gw.rt)));
    const undocumented = AUDIENCES.flatMap((m) => m.undocumented ?? []);
    const isUndocumented = (path: string) =>
      undocumented.some((u) => (u.endsWith('*') ? path.startsWith(u.slice(0, -1)) : path === u));
    const documented = Object.entries(res.json.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = served.filter((op) => !isUndocumented(op.split(' ')[1]!)).map(shape);
    assert.deepEqual(documented.map(shape).sort(), [...new Set(expected)].sort());
    // The contract's operations are among them (a router dropped from its module would drop them too).
    for (const path of [
      '/api/payments/v1/status',
      '/updateTxn',
      '/transactU',
      '/api/v1/ledger',
      '/pl/api/v1/create',
      '/ops/v1/merchants',
    ]) {
      assert.ok(documented.includes(`POST ${path}`), path);
    }
    assert.ok(documented.length >= 42, `${documented.length} operations documented`);
    const image = res.json.paths['/api/payments/v1/upi/qr/image'].get;
    assert.deepEqual(image.parameters.map((p: { name: string }) => p.name).sort(), [
      'checksum',
      'data',
      'height',
      'mid',
      'width',
    ]);
    assert.ok(image.responses['200'].content['image/png']);
    const status = res.json.paths['/api/payments/v1/status'].post;
    const requestSchema = status.requestBody.content['application/json'].schema;
    assert.deepEqual(requestSchema.required.sort(), ['merchantIdentifier', 'orderId']);
    assert.equal(requestSchema.properties.version.type, 'integer');
    assert.ok(status.responses['401'], 'documents the authentication failure');
    assert.match(res.json.info.description, /\| 401 \| 2011 \| Checksum does not match \|/);
  });

  it('states for every request object whether unknown fields are ignored (contract APIs) or refused (our own)', async () => {
    const doc = (await request(`${gw.baseUrl}/openapi.json`)).json;
    const objects = (node: unknown, at: string, out: [string, unknown][] = []): [string, unknown][] => {
      if (typeof node !== 'object' || node === null) return out;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && o.properties) out.push([at, o.additionalProperties]);
      for (const [k, v] of Object.entries(o)) objects(v, `${at}.${k}`, out);
      return out;
    };
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const ours = path.startsWith('/ops/') || path.startsWith('/sandbox/');
      for (const [method, op] of Object.entries(methods)) {
        for (const [media, content] of Object.entries((op.requestBody?.content ?? {}) as Record<string, { schema: unknown }>)) {
          for (const [where, additional] of objects(content.schema, `${method} ${path} ${media}`)) {
            // Ignored: true, or (a form's text fields) a string; refused: false.
            const expected = ours ? false : media.includes('form') ? { type: 'string' } : true;
            assert.deepEqual(additional, expected, `${where}: additionalProperties`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked >= 15, `${checked} request objects checked`);
    // The mandate's data is a JSON string in a form: its levels are named by the description, all ignored when unknown.
    assert.deepEqual(
      doc.paths['/transactU'].post.requestBody.content['application/x-www-form-urlencoded'].schema.additionalProperties,
      { type: 'string' },
    );
  });

  it('the documented response schemas are what the endpoints answer', async () => {
    const orderId = newOrderId();
    const paid = await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      cardNumber: '4012001037141112',
    });
    sandboxPaymentResponseSchema.parse(paid.json);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const found = await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId });
    assert.equal(statusResponseSchema.parse(found.json).data.orders.length, 1);
    statusResponseSchema.parse(
      (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId: 'none' }))
        .json,
    );
    const created = await request(`${gw.baseUrl}/ops/v1/merchants`, {
      body: { name: 'Doc' },
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    merchantCredentialsResponseSchema.parse(created.json);
    const qrOrderId = newOrderId('qr');
    createQrResponseSchema.parse((await createQr(gw, merchant, { orderId: qrOrderId })).json);
    createQrResponseSchema.parse((await createQr(gw, merchant, { orderId: qrOrderId })).json);
    const today = formatIstDateTime(new Date()).slice(0, 10);
    const page = await ledger(gw, merchant.apiKey, { startDateTime: today, endDateTime: today, status: 'ALL' });
    const parsedPage = ledgerResponseSchema.parse(page.json);
    assert.ok(parsedPage.success && parsedPage.data.transactions.length >= 1);
    const none = ledgerResponseSchema.parse(
      (await ledger(gw, merchant.apiKey, { startDateTime: '2020-01-01', endDateTime: '2020-01-01', status: 'ALL' })).json,
    );
    assert.deepEqual(none, { success: false, message: { code: '1035', text: 'No record found.' } });
    bulkResponseSchema.parse((await fetchTxn(gw, merchant.apiKey, { txnDate: today, status: 'success' })).json);
    bulkResponseSchema.parse((await fetchTxn(gw, merchant.apiKey, { txnDate: '2020-01-01', status: 'success' })).json);
    const links = await createLinks(gw, merchant.apiKey, {
      batchId: newBatchId(),
      details: [linkEntry(), linkEntry({ amount: 1 })],
    });
    assert.equal(paymentLinkResponseSchema.parse(links.json).statusCode, 207);
  });
});
