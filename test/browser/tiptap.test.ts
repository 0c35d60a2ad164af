/**
 * A real Tiptap editor in Chromium (@tiptap/core, @tiptap/extension-collaboration, the journal
 * extensions of shared/tiptap.ts) on a journal through @hocuspocus/provider and /v1/collaboration:
 * typing there reaches a y-websocket editor and REST reads; a REST edit with sync_realtime_state
 * appears in the page; a markdown import with every block kind and mark shows all of them.
 * The page (test/browser/tiptap/app.ts, bundled here with esbuild) is served by a tiny HTTP
 * server on loopback, the app's own origin; it talks to nothing but that and the test server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { connectEditor, editorBlocks, synced, waitFor } from '../realtime/helpers.ts';
import { EVERY_KIND } from '../shared/every-kind.ts';
import { browserSuite, describeBrowser, openPage, screenshot, type Watched } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');

async function bundle(): Promise<string> {
  const r = await build({
    absWorkingDir: root,
    entryPoints: ['test/browser/tiptap/app.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    write: false,
    logLevel: 'warning',
  });
  return r.outputFiles[0]!.text;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Tiptap journal</title>
<script type="module" src="/tiptap-test/app.js"></script></head><body><div id="editor"></div></body></html>`;

describeBrowser('Tiptap on /v1/collaboration', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;
  let pages: string;
  let pageServer: http.Server;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
    const script = await bundle();
    // The app's own origin: a tiny server on loopback (a page from elsewhere may not open loopback sockets).
    pageServer = http.createServer((req, res) => {
      if (req.url?.startsWith('/tiptap-test/app.js')) res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
    pages = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => pageServer?.close(() => r())));

  /** A watched page with the Tiptap app open on `journalId`, synced. */
  async function tiptapPage(journalId: string): Promise<Watched> {
    const w = await openPage(browser);
    const s = (await c.request('POST', '/v1/journals/editor/session', { journal_id: journalId })).body;
    const hash = encodeURIComponent(JSON.stringify({ collaboration_url: s.collaboration_url, journal_id: s.journal_id, token: s.token }));
    await w.page.goto(`${pages}/tiptap-test/index.html#${hash}`);
    await w.page.locator('body[data-synced="true"]').waitFor({ state: 'attached' });
    await w.page.locator('.ProseMirror').waitFor();
    return w;
  }

  const pageText = (w: Watched) => w.page.locator('.ProseMirror').evaluate((el) => [...el.children].map((c) => c.textContent).join('\n'));

  it('typing in Tiptap reaches a y-websocket editor and REST reads', async () => {
    const id = await c.importMarkdown('# Tiptap\n\nfirst line\n');
    const e = connectEditor(server.url, id, { key: c.key });
    await synced(e);
    const w = await tiptapPage(id);
    await expect.poll(() => pageText(w)).toBe('Tiptap\nfirst line');
    await w.page.locator('.ProseMirror p').first().click();
    await w.page.keyboard.press('End');
    await w.page.keyboard.type(' typed in Tiptap', { delay: 5 });
    await waitFor(() => editorBlocks(e)[1]?.text === 'first line typed in Tiptap', 'y-websocket editor sees Tiptap typing');
    await expect.poll(async () => (await c.model(id)).model.content[1].content[0].text).toBe('first line typed in Tiptap');
    // A new paragraph (Enter) gets its block id from the service.
    await w.page.keyboard.press('Enter');
    await w.page.keyboard.type('second', { delay: 5 });
    await expect.poll(async () => (await c.model(id)).model.content.map((b: any) => typeof b.attrs.id)).toEqual(['string', 'string', 'string']);
    e.destroy();
    w.expectClean();
    await w.context.close();
  });

  it('a REST edit with sync_realtime_state appears in the Tiptap page', async () => {
    const id = await c.importMarkdown('# Pushed\n\nbody\n');
    const w = await tiptapPage(id);
    const head = (await c.model(id)).model.content[0].attrs.id;
    const r = await c.edit(id, [
      { type: 'update_node', nodeId: head, nodeType: 'heading', params: [1, 'Pushed from REST'] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'a *new* block' }], referenceId: head, position: 'after' },
    ]);
    expect(r.status).toBe(200);
    await expect.poll(() => pageText(w)).toBe('Pushed from REST\na new block\nbody');
    await expect.poll(() => w.page.locator('.ProseMirror em').textContent()).toBe('new');
    w.expectClean();
    await w.context.close();
  });

  it('a markdown import opened in Tiptap shows every block kind and mark', async () => {
    const id = await c.importMarkdown(EVERY_KIND, 'Every kind');
    const w = await tiptapPage(id);
    const { page } = w;
    const model = (await c.model(id)).model;
    await expect.poll(() => page.evaluate(() => (globalThis as any).tiptap.editor.getJSON())).toEqual(model);
    const count = (selector: string) => page.locator(`.ProseMirror ${selector}`).count();
    for (const selector of ['h1', 'p', 'ul', 'ol[start="3"]', 'li[data-checked="false"]', 'li[data-checked="true"]', 'blockquote', 'pre[data-language="js"]', 'hr', 'div.html-block', 'table', 'th', 'td', 'img', 'br', 'span.html-inline', 'em', 'strong', 's', 'code', 'a[href="https://example.com/x"]']) {
      expect(await count(selector), selector).toBeGreaterThan(0);
    }
    // Every block shows its id as data-id.
    const ids = await page.locator('.ProseMirror > [data-id]').count();
    expect(ids).toBe(model.content.length);
    await screenshot(page, 'tiptap-every-kind');
    w.expectClean();
    await w.context.close();
  });
});
