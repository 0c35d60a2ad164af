/**
 * Publishing routes: the two endpoints under /v1 (endpoints.ts) and the public pages at
 * /p/{slug}, which are pages, not API operations (no key, not metered, not in the OpenAPI
 * document), like the web app's.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { principalOf } from '../../auth/middleware.ts';
import { chargeFor } from '../../billing/middleware.ts';
import { route } from '../../http/endpoint.ts';
import { nowIso } from '../../time.ts';
import type { JournalRow } from '../store.ts';
import { publishEndpoints as e, type PublishResponse } from './endpoints.ts';
import { PUBLISHED_CSP } from './html.ts';
import { publishStatus, PublishService } from './service.ts';

export function publishRoutes(publish: PublishService): Router {
  const r = Router();
  const answer = (row: JournalRow, message: string): PublishResponse => ({
    success: true,
    message,
    journal_id: row.id,
    publish_status: publishStatus(row),
    slug: row.publish_slug,
    url: publish.url(row.publish_slug),
    timestamp: nowIso(),
  });

  route(r, e.publish, async (call, res) => {
    const row = await publish.publish(principalOf(call.req), call.param('journal_id'), call.body.slug, chargeFor(call.req));
    res.json(answer(row, 'Journal published'));
  });

  route(r, e.unpublish, async (call, res) => {
    const row = await publish.unpublish(principalOf(call.req), call.param('journal_id'), chargeFor(call.req));
    res.json(answer(row, 'Journal is private'));
  });
  return r;
}

const PAGE = /^\/p\/([^/]+)\/?$/;

const notFoundPage = (res: Response) =>
  res
    .status(404)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PUBLISHED_CSP, 'Cache-Control': 'no-store' })
    .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>This page is not published.</p></body></html>\n');

/** GET /p/{slug}: the published journal's page (docs/publishing.md). */
export function publishedPages(publish: PublishService): express.RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const m = PAGE.exec(req.path);
    if (!m) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).set('Allow', 'GET, HEAD').json({ error: 'Method not allowed' });
      return;
    }
    (req as Request & { route: { path: string } }).route = { path: '/p/{slug}' };
    let slug: string;
    try {
      slug = decodeURIComponent(m[1]!);
    } catch {
      return notFoundPage(res);
    }
    void (async () => {
      const row = await publish.findPublished(slug);
      if (!row) return notFoundPage(res);
      res.set({ 'Content-Security-Policy': PUBLISHED_CSP, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
      const etag = PublishService.etagOf(row);
      if (req.get('If-None-Match') === etag) {
        res.status(304).set('ETag', etag).end();
        return;
      }
      const page = await publish.page(row);
      res.status(200).set({ 'Content-Type': 'text/html; charset=utf-8', ETag: page.etag }).send(page.html);
    })().catch(next);
  };
}
