/**
 * The browser app (web/, built by scripts/build-web.mjs into dist/web) and the links that lead to
 * it, outside /v1 and without an API key (the app signs in in the browser):
 *
 * - `GET /` -> 302 `/app/`; `GET /journals/{id}` (the `journal_url` the API hands out) -> 302
 *   `/app/journals/{id}`, query kept.
 * - `GET /app/assets/{name}-{hash}.{ext}`: fingerprinted files, cached for a year (immutable).
 * - `GET /app/`, `/app/journals/{id}` (and its `/history`, `/study`), `/app/settings`, `/app/trash`: the page (index.html, `no-cache`, so a new
 *   build is picked up at the next load while its assets stay cached).
 *
 * One middleware, not Express routes: these are pages, not API operations, so they stay out of
 * the OpenAPI document and of the check that every registered route is documented.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';

/** Same origin for scripts, styles and connections (REST and the editor's WebSocket); images of journals may live anywhere. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data: blob:; media-src 'self' blob:; connect-src 'self'; " +
  "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Client-side routes that answer the page; anything else under /app is a 404. */
const PAGES = [/^\/app\/$/, /^\/app\/settings\/?$/, /^\/app\/trash\/?$/, /^\/app\/journals\/[^/]+(?:\/(?:history|study))?\/?$/];
const ASSET_NAME = /^[A-Za-z0-9_.-]+$/;

/** dist/web under the package root: the first ancestor of this module with a package.json (source and bundle alike). */
export function defaultWebDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above the server');
    dir = up;
  }
  return path.join(dir, 'dist/web');
}

/** Labels the request for /metrics with a route template (the middleware has no Express route). */
function label(req: Request, template: string): void {
  (req as Request & { route: { path: string } }).route = { path: template };
}

export function webApp(webDir: string = defaultWebDir()): express.RequestHandler {
  const assets = express.static(path.join(webDir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: false, redirect: false });
  let page: Buffer | undefined;
  const readPage = (): Buffer | undefined => {
    // Read once: a new build comes with a restart (npm start rebuilds a stale app first).
    if (!page) {
      try {
        page = fs.readFileSync(path.join(webDir, 'index.html'));
      } catch {
        return undefined;
      }
    }
    return page;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const p = req.path;
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    if (p === '/') {
      label(req, '/');
      return res.redirect(302, '/app/');
    }
    const journal = /^\/journals\/([^/]+)\/?$/.exec(p);
    if (journal) {
      label(req, '/journals/:journal_id');
      // req.path is still percent-encoded: the id goes on as it came.
      return res.redirect(302, `/app/journals/${journal[1]}${query}`);
    }
    if (p === '/app') {
      label(req, '/app');
      return res.redirect(301, `/app/${query}`);
    }
    if (p.startsWith('/app/assets/')) {
      label(req, '/app/assets/:file');
      const file = p.slice('/app/assets/'.length);
      if (!ASSET_NAME.test(file)) return next();
      req.url = `/${file}`;
      return assets(req, res, next);
    }
    if (!PAGES.some((re) => re.test(p))) return next();
    label(req, p.startsWith('/app/journals/') ? '/app/journals/:journal_id' : p.startsWith('/app/settings') ? '/app/settings' : p.startsWith('/app/trash') ? '/app/trash' : '/app/');
    const html = readPage();
    if (!html) {
      res.status(503).set('Cache-Control', 'no-store').type('text/plain').send('The web app is not built: run `npm run build:web` (npm install and npm start do it).\n');
      return;
    }
    res
      .set('Content-Security-Policy', APP_CSP)
      .set('Cache-Control', 'no-cache')
      .set('X-Content-Type-Options', 'nosniff')
      .set('Referrer-Policy', 'no-referrer')
      .type('html')
      .send(html);
  };
}
