import { strict as assert } from 'node:assert';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/** GET /docs over HTTP: the page, its assets from the installed package, and nothing else. */
describe('API reference page GET /docs and its assets', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => (gw = await sharedGateway()));

  it('serves the page with a CSP that allows scripts from the gateway only', async () => {
    const res = await request(`${gw.baseUrl}/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(res.text, /src="\/docs\/assets\/swagger-ui-bundle\.js"/);
    assert.doesNotMatch(res.text, /<script>/, 'no inline script');
  });

  it('serves the renderer from the swagger-ui-dist package, compressed when asked', async () => {
    const plain = await fetch(`${gw.baseUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type')!, /javascript/);
    const body = Buffer.from(await plain.arrayBuffer());
    assert.ok(body.length > 500_000, `bundle of ${body.length} bytes`);
    const gz = await fetch(`${gw.baseUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.status, 200);
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    // fetch decodes gzip itself: the bytes it gives are the same bundle.
    assert.equal(Buffer.compare(Buffer.from(await gz.arrayBuffer()), body), 0);
  });

  it('answers 404 in the error envelope for any other asset name, never a file outside the list', async () => {
    for (const name of ['nope.js', 'constructor', '__proto__', 'index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await request(`${gw.baseUrl}/docs/assets/${name}`);
      assert.equal(res.status, 404, name);
      assert.equal(res.json?.success, false, name);
    }
  });
});
