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
    w.allow(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/v1\/journals\/realtime\/[^?]+\?token=[^']+' failed/);
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
    await screenshot(page, 'editor-offline');
    await context.setOffline(false);

    // The service again, on the same port and store: the editor reconnects and sends what it held.
    server = await startTestServer({ dataDir, env: { PORT: String(port) } });
    await expect.poll(() => badge.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    await expect.poll(() => badge.getAttribute('data-unsent')).toBe('false');
    const again = new Client(server.url, c.key, c.orgId);
    await expect.poll(() => again.content(id)).toBe('# Notes\n\nKept here. Typed while away. And offline.\n');
    expect(await editorText(page)).toBe('Notes\nKept here. Typed while away. And offline.');
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
});
