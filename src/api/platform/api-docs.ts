import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { defineOperation, HttpAnswer } from '../operation';
import { anyone } from './callers';

/**
 * GET /docs: the API reference rendered in the browser by Swagger UI (npm `swagger-ui-dist`, served
 * from the installed package: nothing is fetched from elsewhere at run time), from GET /openapi.json,
 * with the bank protocol (GET /bank/openapi.json) as the second document of its selector. Not
 * mounted in production (design.md, API reference): merchants try requests on staging, and
 * production keeps serving the machine-readable /openapi.json.
 */
export const apiDocsOperation = defineOperation({
  method: 'get',
  path: '/docs',
  servedWhere: docsServed,
  listeners: ['public'],
  envelope: 'success',
  auth: anyone,
  body: { contentType: 'none' },
  reference: 'elsewhere',
  handle: () =>
    Promise.resolve(
      new HttpAnswer(DOCS_PAGE, {
        type: 'text/html; charset=utf-8',
        headers: { 'Content-Security-Policy': DOCS_CSP, 'X-Content-Type-Options': 'nosniff' },
      }),
    ),
});

/** Where the reference is rendered: outside production. */
export function docsServed(config: { env: string }): boolean {
  return config.env !== 'production';
}

/**
 * GET /docs/assets/:file, Swagger UI's scripts and styles (where /docs is served). A router, not a
 * declared operation: each file is answered gzip-compressed or not by the request's
 * Accept-Encoding (with Vary), which an operation's answer cannot depend on.
 */
export function apiDocsAssetRoutes(deps: ApiDeps): Router {
  const router = new Router();
  if (!docsServed(deps.config)) return router;
  router.get('/docs/assets/:file', (ctx) => {
    const file = ctx.params.file;
    if (!Object.hasOwn(assets(), file)) return; // 404 through the error envelope
    serveAsset(ctx, assets()[file]);
  });
  return router;
}

/** Scripts only from here (no inline script, no eval); Swagger UI sets element styles, and tries requests on this origin. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant payment gateway: API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** Both documents in the top bar's selector; `?urls.primaryName=Bank protocol` opens the second. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  urls: [
    { url: '/openapi.json', name: 'Gateway API' },
    { url: '/bank/openapi.json', name: 'Bank protocol' }
  ],
  dom_id: '#swagger-ui',
  deepLinking: true,
  queryConfigEnabled: false,
  displayRequestDuration: true,
  tryItOutEnabled: false,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});
`;

interface Asset {
  type: string;
  body: Buffer;
  gzipped?: Buffer;
}

const distDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const fromDist = (file: string, type: string): Asset => ({ type, body: readFileSync(path.join(distDir, file)) });

/** Read on first use: a gateway nobody asks for its reference (and production) never loads them. */
let loaded: Record<string, Asset> | undefined;
const assets = (): Record<string, Asset> =>
  (loaded ??= {
    'swagger-ui-bundle.js': fromDist('swagger-ui-bundle.js', 'application/javascript'),
    'swagger-ui-standalone-preset.js': fromDist('swagger-ui-standalone-preset.js', 'application/javascript'),
    'swagger-ui.css': fromDist('swagger-ui.css', 'text/css'),
    'favicon-32x32.png': fromDist('favicon-32x32.png', 'image/png'),
    'init.js': { type: 'application/javascript', body: Buffer.from(INIT_SCRIPT) },
  });

function serveAsset(ctx: Context, asset: Asset): void {
  ctx.type = asset.type;
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.vary('Accept-Encoding');
  // The bundle is 1.7 MB as shipped: compressed once, on first use.
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    asset.gzipped ??= gzipSync(asset.body);
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzipped;
    return;
  }
  ctx.body = asset.body;
}
