/**
 * Publishing from the editor, in Chromium (issue 32): "Publish" shows the public link; the page
 * opens in a browser without a key or script and follows an edit; "Unpublish" makes it a 404.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, docScreenshot, editorReady, openPage, statusLine } from './helpers.ts';

describeBrowser('web app: publishing', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
  });

  it('publishes with a link, the public page follows an edit, and unpublish makes it a 404', async () => {
    const id = await c.importMarkdown('# Photosynthesis\n\nLight becomes *sugar*.\n\n<script>alert(1)</script>\n', 'Photosynthesis');
    const editor = await openPage(browser, { key: c.key!, name: 'Alice' });
    await editor.page.goto(`${server.url}/app/journals/${id}`);
    await editorReady(editor.page);
    await editor.page.locator('#publish:not([disabled])').click();
    const link = editor.page.locator('#publish-link');
    await expect.poll(() => link.isVisible()).toBe(true);
    const url = (await link.getAttribute('href'))!;
    expect(url).toMatch(/\/p\/photosynthesis-[0-9a-f]{6}$/);
    expect(await editor.page.locator('#publish').textContent()).toBe('Unpublish');
    await docScreenshot(editor.page, 'editor-published');

    // A reader: another browser, no key, and JavaScript off (the page needs none).
    const readerContext = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 900, height: 700 } });
    const reader = await readerContext.newPage();
    const dialogs: string[] = [];
    reader.on('dialog', (d) => void dialogs.push(d.message()));
    const res = await reader.goto(url);
    expect(res!.status()).toBe(200);
    expect(await reader.locator('h1').allTextContents()).toEqual(['Photosynthesis']);
    expect(await reader.locator('article em').textContent()).toBe('sugar');
    expect(await reader.locator('script').count()).toBe(0);
    expect(await reader.locator('pre.raw-html').textContent()).toContain('<script>alert(1)</script>');
    await docScreenshot(reader, 'published-page');

    // The editor types; after a reload the reader sees it.
    await editor.page.locator('.ProseMirror p', { hasText: 'Light becomes' }).click();
    await editor.page.keyboard.press('End');
    await editor.page.keyboard.type(' Plants need water.');
    await expect.poll(() => c.content(id)).toContain('Plants need water.');
    await expect
      .poll(async () => {
        await reader.reload();
        return reader.locator('article').textContent();
      })
      .toContain('Plants need water.');

    // Unpublish: the link is a 404 at once.
    await editor.page.locator('#publish').click();
    await expect.poll(() => editor.page.locator('#publish').textContent()).toBe('Publish');
    expect(await link.isVisible()).toBe(false);
    expect((await reader.goto(url))!.status()).toBe(404);
    expect(dialogs).toEqual([]);
    editor.allow(statusLine(404));
    editor.expectClean();
    await readerContext.close();
    await editor.context.close();
  });
});
