import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { chromiumOrSkip, screenshotPath } from '../support/browser';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type PathItems = Record<string, Record<string, unknown>>;

/** Every operation of an OpenAPI document (its webhooks too), as "METHOD path" ("METHOD name" for a webhook). */
function operationsOf(spec: { paths: PathItems; webhooks?: PathItems }): string[] {
  return Object.entries({ ...spec.paths, ...spec.webhooks })
    .flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    )
    .sort();
}

/**
 * GET /docs, the API reference (Swagger UI from the swagger-ui-dist package, served by the gateway),
 * in headless Chromium: both documents render with every operation the OpenAPI lists, under the
 * page's own Content-Security-Policy, with nothing loaded from another origin.
 */
describe('API reference page GET /docs in a browser (headless Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let gw: TestGateway;

  before(async function () {
    [browser, gw] = await Promise.all([chromiumOrSkip(this), sharedGateway()]);
  });
  after(async () => browser?.close());

  /** Opens the page, collecting CSP violations, failed requests and requests to any other origin. */
  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(gw.baseUrl) && !r.url().startsWith('data:')) problems.push(`other origin: ${r.url()}`);
    });
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    const res = await page.goto(`${gw.baseUrl}${path}`);
    assert.equal(res!.status(), 200);
    assert.match(res!.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    return { page, problems };
  }

  /** The operations the rendered page lists, as "METHOD path". */
  async function listed(page: Page, expected: number): Promise<string[]> {
    const blocks = page.locator('.opblock .opblock-summary');
    await page.waitForFunction(`document.querySelectorAll('.opblock .opblock-summary').length >= ${expected}`, undefined, {
      timeout: 60_000,
    });
    const rows = await blocks.evaluateAll((els) =>
      els.map((el) => {
        const method = el.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = el.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.toUpperCase()} ${path}`;
      }),
    );
    return [...new Set(rows)].sort();
  }

  it('renders the gateway API with every operation of /openapi.json, an example request for each, no CSP violation', async () => {
    const spec = (await request(`${gw.baseUrl}/openapi.json`)).json;
    const expected = operationsOf(spec);
    const { page, problems } = await open('/docs');
    assert.deepEqual(await listed(page, expected.length), expected);
    await page.screenshot({ path: screenshotPath('api-docs-gateway.png'), fullPage: false });

    // One operation opened: its example request body is the document's example, not one made up from the schema.
    const documented = spec.paths['/api/payments/v1/status'].post.requestBody.content['application/json'].example;
    await page.locator('.opblock-summary-path[data-path="/api/payments/v1/status"]').first().click();
    const opened = page.locator('.opblock.is-open').first();
    const example = opened.locator('.body-param__example, .highlight-code').first();
    await example.waitFor({ timeout: 30_000 });
    assert.ok((await example.innerText()).includes(documented.orderId), await example.innerText());
    await opened.screenshot({ path: screenshotPath('api-docs-status-operation.png') });
    assert.deepEqual(problems, []);
  });

  it('renders the bank protocol beside it, chosen in the top bar, with every operation of /bank/openapi.json', async () => {
    const spec = (await request(`${gw.baseUrl}/bank/openapi.json`)).json;
    const expected = operationsOf(spec);
    const { page, problems } = await open('/docs');
    await page.locator('.topbar select').selectOption({ label: 'Bank protocol' });
    await page.waitForFunction(`/acquirer/i.test(document.querySelector('.info .title')?.textContent ?? '')`, undefined, {
      timeout: 60_000,
    });
    assert.deepEqual(await listed(page, expected.length), expected);
    await page.screenshot({ path: screenshotPath('api-docs-bank.png'), fullPage: false });
    assert.deepEqual(problems, []);
  });
});
