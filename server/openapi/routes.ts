/**
 * `GET /v1/openapi.json` (the OpenAPI 3.1 document, no key needed) and `/docs`: Swagger UI from the
 * swagger-ui-dist npm package, served by the service itself (no CDN), whose "Try it out" sends real
 * requests to this same origin with the key the person enters under "Authorize" (kept in the
 * page's memory only: persistAuthorization is off).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { methodNotAllowed } from '../http/allowed-methods.ts';
import { route, type Endpoint } from '../http/endpoint.ts';
import { openApiDocument } from './document.ts';
import { openApiEndpoints } from './endpoints.ts';

const require = createRequire(import.meta.url);

/** The swagger-ui-dist files the page uses; nothing else of the package is served. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png']);

function swaggerDist(): { dir: string; version: string } {
  const pkg = require.resolve('swagger-ui-dist/package.json');
  return { dir: path.dirname(pkg), version: (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version };
}

/** Same origin only; Swagger UI styles itself inline and shows SVG icons as data: URLs. */
const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function page(assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Study Content Service API</title>
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
}

// External, not inline, so the page's CSP needs no 'unsafe-inline' for scripts.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  showExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** The document of `endpoints` (every endpoint of the service) and its /docs page. */
export function openApiRoutes(endpoints: readonly Endpoint[]): Router {
  const r = Router();
  const { dir, version } = swaggerDist();
  // The package version in the path: a new swagger-ui-dist is a new URL, so assets cache for good.
  const assets = `/docs/assets/${version}`;
  const html = page(assets);
  let body: string | undefined;
  // Another method on the document or the docs page: 405 with Allow; OPTIONS: 204 with Allow.
  r.use(methodNotAllowed(r, { staticPaths: true }));

  route(r, openApiEndpoints.document, (_call, res) => {
    body ??= JSON.stringify(openApiDocument(endpoints));
    res.set('Cache-Control', 'no-cache').set('Access-Control-Allow-Origin', '*').type('application/json').send(body);
  });
  r.get(['/docs', '/docs/'], (_req, res) => {
    res.set('Content-Security-Policy', DOCS_CSP).set('Cache-Control', 'no-cache').type('html').send(html);
  });
  r.get('/docs/init.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/javascript').send(INIT);
  });
  const files = express.static(dir, { index: false, immutable: true, maxAge: '365d', fallthrough: false });
  r.get(`${assets}/:file`, (req, res, next) => {
    if (!ASSETS.has(req.params.file)) {
      next();
      return;
    }
    req.url = `/${req.params.file}`;
    files(req, res, next);
  });
  return r;
}
