import { strict as assert } from 'node:assert';
import type { ApiDeps } from '../../src/api/deps';
import { mountedOn } from '../../src/api/operation';
import { apiDocsAssetRoutes, apiDocsOperation } from '../../src/api/platform/api-docs';

const config = (env: string) => ({ env }) as ApiDeps['config'];
const routesIn = (env: string) => [
  ...mountedOn([apiDocsOperation], 'public', config(env)).map((op) => op.path),
  ...apiDocsAssetRoutes({ config: config(env) } as unknown as ApiDeps).stack.map((layer) => layer.path),
];

/** GET /docs, the rendered API reference: where merchants try requests, never in production. */
describe('GET /docs is mounted outside production only', () => {
  it('serves the page and its assets in development, test and staging', () => {
    for (const env of ['development', 'test', 'staging']) assert.deepEqual(routesIn(env), ['/docs', '/docs/assets/:file']);
  });
  it('has no route in production (404 through the error envelope)', () => {
    assert.deepEqual(routesIn('production'), []);
  });
});
