/**
 * The editor's connection state in Chromium: the service goes away (a real shutdown) and the
 * browser goes offline; the page says so, keeps what is typed meanwhile as unsent changes, and
 * sends them when the service is back on the same port and store. A revoked key closes the
 * editor for good with the reason.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, describeBrowser, editorReady, editorText, launchBrowser, openPage, screenshot } from './helpers.ts';

/** The expiry (ms) an editor token carries (`et1.<base64url JSON {j,k,e}>.<signature>`). */
function expiryOf(token: string): number {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).e * 1000;
}
/** Browser console lines of a socket that cannot open while the service is away. */
const SOCKET_FAILED = /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/v1\/journals\/realtime\/[^?]+\?token=[^']+' failed/;

describeBrowser('web app: connection state', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reconnecting and offline with unsent changes, then everything arrives when the service is back', async () => {
    const c = await server.newClient();
    const id = await c.importMarkdown('# Notes\n\nKept here.\n', 'Notes');
    const w = await openPage(browser, { key: c.key! });
    // While the service is away the browser reports each failed attempt to open the socket.
    w.allow(SOCKET_FAILED);
    w.allow(/net::ERR_(CONNECTION_REFUSED|INTERNET_DISCONNECTED)/);
    const { page, context } = w;
    await page.goto(`${server.url}/app/journals/${id}`);
    await editorReady(page);
    const badge = page.locator('#connection');

    const { port } = server.svc;
    const { dataDir } = server;
    await server.close();
    await expect.poll(() => badge.getAttribute('data-state')).toBe('reconnecting');
    await page.locator('.ProseMirror p', { hasText: 'Kept here.' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Typed while away.', { delay: 10 });
    await expect.poll(() => badge.getAttribute('data-unsent')).toBe('true');
    expect(await badge.textContent()).toBe('Reconnecting… · unsent changes kept here');

    await context.setOffline(true);
    await expect.poll(() => badge.getAttribute('data-state')).toBe('offline');
    await page.keyboard.type(' And offline.', { delay: 10 });
    expect(await badge.textContent()).toBe('Offline · unsent changes kept here');
    // A new block gets its id in the editor itself (the service is not there to give one).
    await page.keyboard.press('Enter');
    await page.keyboard.type('Offline block.', { delay: 10 });
    const ids = await page.locator('.ProseMirror > *').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(ids).toHaveLength(3);
    expect(ids.every((i) => typeof i === 'string' && /^[A-Za-z0-9]{10}$/.test(i))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    await screenshot(page, 'editor-offline');
    await context.setOffline(false);

    // The service again, on the same port and store: the editor reconnects and sends what it held.
    server = await startTestServer({ dataDir, env: { PORT: String(port) } });
    await expect.poll(() => badge.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    await expect.poll(() => badge.getAttribute('data-unsent')).toBe('false');
    const again = new Client(server.url, c.key, c.orgId);
    await expect.poll(() => again.content(id)).toBe('# Notes\n\nKept here. Typed while away. And offline.\n\nOffline block.\n');
    expect(await editorText(page)).toBe('Notes\nKept here. Typed while away. And offline.\nOffline block.');
    // The service kept the editor's ids: nothing to fix.
    expect((await again.model(id)).model.content.map((b: any) => b.attrs.id)).toEqual(ids);
    w.expectClean();
    await context.close();
  });

  it('a revoked key closes the editor for good, saying why', async () => {
    const admin = await adminClient(server);
    const member = await server.sameOrgClient(admin);
    const id = await member.importMarkdown('# Shared\n', 'Shared');
    const w = await openPage(browser, { key: member.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/journals/${id}`);
    await editorReady(page);
    const keyId = (await admin.get('/v1/keys')).body.keys.find((k: any) => k.role === 'member').key_id;
    expect((await admin.del(`/v1/keys/${keyId}`)).status).toBe(200);
    const badge = page.locator('#connection');
    await expect.poll(() => badge.getAttribute('data-state')).toBe('closed');
    expect(await page.locator('#connection-detail').textContent()).toBe('The API key was revoked. (4401 API key revoked)');
    w.expectClean();
    await w.context.close();
  });

  it('renews the editor token before it expires, so a later reconnect gets in; a link’s token cannot be renewed', async () => {
    // Tokens of 10 s (the least allowed): the page renews one 5 s after it got it.
    const short = await startTestServer({ env: { EDITOR_TOKEN_TTL_SECONDS: '10' } });
    const c = await short.newClient();
    const id = await c.importMarkdown('# Renewed\n\nText.\n', 'Renewed');
    const keyed = await openPage(browser, { key: c.key! });
    const linked = await openPage(browser, { name: 'Link holder' });
    for (const w of [keyed, linked]) {
      w.allow(SOCKET_FAILED);
      w.allow(/net::ERR_CONNECTION_REFUSED/);
    }
    const sockets: string[] = [];
    keyed.page.on('websocket', (ws) => sockets.push(new URL(ws.url()).searchParams.get('token')!));
    await keyed.page.goto(`${short.url}/app/journals/${id}`);
    const s = await c.post('/v1/journals/editor/session', { journal_id: id });
    await linked.page.goto(`${short.url}/app/journals/${id}#token=${s.body.token}`);
    await Promise.all([editorReady(keyed.page), editorReady(linked.page)]);
    const first = sockets[0]!;
    // Both tokens of the opening expire; the open connections outlive them.
    await new Promise((r) => setTimeout(r, Math.max(expiryOf(first), expiryOf(s.body.token)) - Date.now() + 1000));
    expect(await keyed.page.locator('#connection').getAttribute('data-state')).toBe('connected');
    expect(await linked.page.locator('#connection').getAttribute('data-state')).toBe('connected');

    const { port } = short.svc;
    const opened = sockets.length;
    await short.close();
    const again = await startTestServer({ dataDir: short.dataDir, env: { PORT: String(port), EDITOR_TOKEN_TTL_SECONDS: '10' } });
    try {
      // The keyed page reconnects with a renewed token, valid at that moment.
      await expect.poll(() => keyed.page.locator('#connection').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      // Every attempt after the outage carried a token renewed beforehand, never the expired one
      // (a page that renewed only after being refused would have tried it first).
      const attempts = sockets.slice(opened);
      expect(attempts.length).toBeGreaterThan(0);
      for (const t of attempts) expect(t).not.toBe(first);
      expect(expiryOf(attempts[0]!)).toBeGreaterThan(Date.now() - 10_000);
      await keyed.page.locator('.ProseMirror p', { hasText: 'Text.' }).click();
      await keyed.page.keyboard.press('End');
      await keyed.page.keyboard.type(' After renewal.');
      const client = new Client(again.url, c.key, c.orgId);
      await expect.poll(() => client.content(id)).toContain('Text. After renewal.');
      // The link's token expired and nothing can renew it: the page stops and says so.
      await expect.poll(() => linked.page.locator('#connection').getAttribute('data-state'), { timeout: 30_000 }).toBe('closed');
      expect(await linked.page.locator('#connection-detail').textContent()).toMatch(/editor token has expired/);
      keyed.expectClean();
      linked.expectClean();
    } finally {
      await keyed.context.close();
      await linked.context.close();
      await again.close();
    }
  });
});
