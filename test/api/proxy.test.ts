import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { linkEntry, linkPath, newBatchId } from '../support/payment-links';
import { storedTransaction } from '../support/payments';

const PUBLIC = 'https://pay.example.in';

/**
 * A TLS-terminating proxy as far as the gateway can tell: it forwards every request over plain
 * HTTP with X-Forwarded-Proto https, the public host, and the client's address appended to
 * X-Forwarded-For (as nginx's $proxy_add_x_forwarded_for does).
 */
async function tlsProxy(target: string, clientAddress: string) {
  const server = http.createServer((req, res) => {
    const forwardedFor = [req.headers['x-forwarded-for'], clientAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      `${target}${req.url}`,
      {
        method: req.method,
        headers: {
          ...req.headers,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': new URL(PUBLIC).host,
          'x-forwarded-for': forwardedFor,
        },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Behind a TLS-terminating proxy: TRUST_PROXY and PUBLIC_BASE_URL', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let proxy: Awaited<ReturnType<typeof tlsProxy>>;
  before(async () => {
    gw = await startTestGateway({ TRUST_PROXY: 'true', PUBLIC_BASE_URL: PUBLIC }, { bank: 'sandbox' });
    proxy = await tlsProxy(gw.baseUrl, '203.0.113.7');
    merchant = await gw.newMerchant('Proxied Shop');
  });
  after(async () => {
    await proxy.close();
    await gw.stop();
  });

  /** The browser at https://pay.example.in: the page, then the form, through the proxy. */
  async function openAndPay(origin: string) {
    const entry = linkEntry();
    const created = await fetch(`${proxy.url}/pl/api/v1/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': merchant.apiKey, 'x-forwarded-for': '10.9.9.9' },
      body: JSON.stringify({ batchId: newBatchId(), details: [entry] }),
    });
    const link = ((await created.json()) as { data: { link: string }[] }).data[0]!.link;
    assert.ok(link.startsWith(`${PUBLIC}/pl/`), link);
    const path = linkPath(link);
    const page = await fetch(`${proxy.url}${path}`);
    const html = await page.text();
    const setCookie = page.headers.get('set-cookie') ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const paid = await fetch(`${proxy.url}${path}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: setCookie.split(';')[0]! },
      body: new URLSearchParams({ csrf, payerVpa: 'success@sandbox' }).toString(),
    });
    return { entry, path, setCookie, paid };
  }

  it('a payment from the https page works: the Origin is PUBLIC_BASE_URL, the cookie is Secure', async () => {
    const { entry, setCookie, paid, path } = await openAndPay(PUBLIC);
    assert.match(setCookie, /;\s*secure/i, 'the CSRF cookie is sent over https only');
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), path);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, entry.orderId as string);
    assert.ok(t, 'the order exists');
    // The client address is the proxy's last hop, not what the client wrote before it.
    assert.equal(t.ipAddress, '203.0.113.7');
  });

  it('another origin is still refused behind the proxy', async () => {
    for (const origin of ['https://evil.example', 'http://pay.example.in', 'null']) {
      const { paid } = await openAndPay(origin);
      assert.equal(paid.status, 403, origin);
    }
  });
});
