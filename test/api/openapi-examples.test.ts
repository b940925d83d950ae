import { strict as assert } from 'node:assert';
import { EXAMPLE_MERCHANT } from '../../src/api/reference/examples';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}

/**
 * Refusals an example may still get, and why: the hosted page's forms need the page's own csrf
 * cookie (a browser's session), which no example can carry.
 */
const PAGE_ONLY: Record<string, number[]> = {
  'POST /checkout/{token}/pay': [403, 404],
  'POST /checkout/{token}/cancel': [403, 404],
};

/**
 * Every operation of GET /openapi.json (the API reference GET /docs renders) has an example request
 * that works as it stands: sent to a gateway where the example merchant is imported, each one is
 * authenticated and valid: never 400, 401, 413 or 415, never a 5xx, never an unknown route. Its
 * business answer may be "no such order" (the examples name orders that need not exist).
 */
describe('API reference examples: every operation of /openapi.json has a working example request', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let apiKey: string;

  before(async () => {
    gw = await sharedGateway();
    const imported = await request(`${gw.baseUrl}/ops/v1/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Example Merchant', ...EXAMPLE_MERCHANT }),
    });
    assert.equal(imported.status, 201, imported.text);
    apiKey = imported.json.data.apiKey;
  });

  it('sends each example and is answered past validation and authentication', async () => {
    const spec = (await request(`${gw.baseUrl}/openapi.json`)).json as { paths: Record<string, Record<string, Operation>> };
    const refused: string[] = [];
    let sent = 0;
    for (const [template, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${template}`;
        const params = op.parameters ?? [];
        for (const p of params.filter((x) => x.required && x.example === undefined))
          refused.push(`${name}: no example for ${p.name}`);
        const path = params
          .filter((p) => p.in === 'path')
          .reduce((t, p) => t.replace(`{${p.name}}`, encodeURIComponent(String(p.example))), template);
        const query = new URLSearchParams(
          params
            .filter((p) => p.in === 'query' && p.example !== undefined)
            .map((p) => [p.name, String(p.example)] as [string, string]),
        );
        const headers: Record<string, string> = {};
        let body: string | undefined;
        const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
        if (mediaType) {
          if (content!.example === undefined) refused.push(`${name}: no example body`);
          const example = content!.example;
          headers['content-type'] = mediaType;
          body =
            mediaType === 'application/json'
              ? JSON.stringify(example)
              : mediaType === 'application/x-www-form-urlencoded'
                ? new URLSearchParams(example as Record<string, string>).toString()
                : String(example);
        }
        const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
        if (schemes.includes('operatorToken')) headers.authorization = `Bearer ${gw.rt.config.secrets.opsToken}`;
        if (schemes.includes('apiKey')) headers['x-api-key'] = apiKey;
        if (schemes.includes('statusChecksum')) headers.checksum = hmacSha256Hex(EXAMPLE_MERCHANT.secretKey, body ?? '');
        if (schemes.includes('zaakChecksum')) headers.zaakchecksum = hmacSha256Hex(EXAMPLE_MERCHANT.secretKey, body ?? '');
        const url = `${gw.baseUrl}${path}${query.size ? `?${query}` : ''}`;
        const res = await request(url, { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
        sent++;
        const allowed = PAGE_ONLY[name] ?? [];
        const refusedStatus = [400, 401, 403, 405, 413, 415].includes(res.status) || res.status >= 500;
        const unknownRoute = res.status === 404 && /"2040"/.test(res.text);
        if ((refusedStatus || unknownRoute) && !allowed.includes(res.status)) {
          refused.push(`${name}: ${res.status} ${res.text.slice(0, 300)}`);
        }
      }
    }
    assert.ok(sent >= 30, `sent ${sent}`);
    assert.deepEqual(refused, []);
  });
});
