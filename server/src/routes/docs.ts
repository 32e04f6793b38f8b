// The API's description for integrators: GET /api/openapi.json (OpenAPI 3.1, made once at
// start from the core route table) and GET /api/docs, a Swagger UI page served from the
// project's own copy of swagger-ui-dist (no CDN; works offline, under the app's CSP: only
// same-origin scripts, no inline script). Public: publishers and ad-tag integrators read it,
// and it holds no secret (it describes routes, not data).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import { openApiDocument } from '@adops/core';

const require = createRequire(import.meta.url);
const UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The viewer's files the page loads (nothing else of the package is served). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="es">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>AdOps Console · API</title>
    <link rel="icon" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="api-docs"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

// validatorUrl: null — the standalone layout's badge (not the layout used here) loads an image
// from validator.swagger.io with the document's URL on any host but localhost; off for good.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#api-docs', deepLinking: true, tryItOutEnabled: false, validatorUrl: null });\n`;

export function docsRoutes(router: Router, version: string): void {
  const document = JSON.stringify(openApiDocument(version));
  const cache = new Map<string, Buffer>();

  router.get('/api/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = document;
  });
  router.get('/api/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/api/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  router.get('/api/docs/:file', async (ctx, next) => {
    const type = ASSETS[ctx.params.file];
    if (!type) return next();
    let body = cache.get(ctx.params.file);
    if (!body) {
      body = await readFile(path.join(UI_DIR, ctx.params.file));
      cache.set(ctx.params.file, body);
    }
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = body;
  });
}
