/**
 * What a new user meets (issue 32), in Chromium: "Remember this key on this device" lets a second
 * tab in without asking (and only when ticked); a journal deleted by someone else turns the open
 * editor read-only with the reason; an unknown journal shows one error banner and no
 * "Connecting…"; the journal list fits a 390 px wide phone; /docs opens without a warning box.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, docScreenshot, editorReady, openPage, statusLine } from './helpers.ts';

describeBrowser('web app: session, read-only, layout', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
  });

  async function signIn(page: import('playwright-core').Page, remember: boolean): Promise<void> {
    await page.goto(`${server.url}/app/`);
    await page.fill('#api-key', c.key!);
    if (remember) await page.check('#remember-key');
    await page.click('form.sign-in button[type=submit]');
    await page.locator('#journal-list').waitFor();
  }

  it('a second tab asks again unless "Remember this key on this device" was ticked; sign out forgets it', async () => {
    const w = await openPage(browser);
    await signIn(w.page, false);
    const second = await w.context.newPage();
    await second.goto(`${server.url}/app/`);
    await second.locator('#api-key').waitFor();
    expect(await w.page.evaluate(() => (globalThis as any).localStorage.getItem('study.apiKey'))).toBeNull();
    await second.close();

    await w.page.click('#sign-out');
    await w.page.locator('#api-key').waitFor();
    await docScreenshot(w.page, 'sign-in');
    await signIn(w.page, true);
    const third = await w.context.newPage();
    await third.goto(`${server.url}/app/`);
    await third.locator('#journal-list').waitFor();
    expect(await third.locator('#api-key').count()).toBe(0);
    await third.click('#sign-out');
    await third.locator('#api-key').waitFor();
    expect(await third.evaluate(() => (globalThis as any).localStorage.getItem('study.apiKey'))).toBeNull();
    w.expectClean();
    await w.context.close();
  });

  it('a journal deleted by someone else turns the editor read-only, with the reason', async () => {
    const id = await c.importMarkdown('# Shared\n\nType here.\n', 'Shared');
    const w = await openPage(browser, { key: c.key!, name: 'Ada' });
    const { page } = w;
    await page.goto(`${server.url}/app/journals/${id}`);
    await editorReady(page);
    expect(await page.locator('.ProseMirror').getAttribute('contenteditable')).toBe('true');
    expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    await page.locator('#read-only:not([hidden])').waitFor();
    expect(await page.locator('#read-only').textContent()).toMatch(/^Read-only: The journal was deleted\./);
    expect(await page.locator('.ProseMirror').getAttribute('contenteditable')).toBe('false');
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('closed');
    // Typing changes nothing.
    await page.locator('.ProseMirror p').click();
    await page.keyboard.type('lost words');
    expect(await page.locator('.ProseMirror').textContent()).not.toContain('lost words');
    await docScreenshot(page, 'editor-read-only');
    w.allow(statusLine(404));
    w.expectClean();
    await w.context.close();
  });

  it('an unknown journal shows one error banner and does not stay "Connecting…"', async () => {
    const w = await openPage(browser, { key: c.key! });
    w.allow(statusLine(404));
    await w.page.goto(`${server.url}/app/journals/00000000-0000-4000-8000-000000000000`);
    await expect.poll(() => w.page.locator('#connection').getAttribute('data-state')).toBe('closed');
    await w.page.waitForTimeout(300);
    expect(await w.page.locator('.error').allTextContents()).toEqual(['404: Journal not found×']);
    expect(await w.page.locator('#connection').textContent()).not.toContain('Connecting');
    w.expectClean();
    await w.context.close();
  });

  it('the journal list is usable 390 px wide: nothing wider than the screen', async () => {
    const mine = await server.newClient();
    for (const t of ['Biology notes with a rather long title', 'Chemistry', 'Physics']) await mine.importMarkdown(`# ${t}\n`, t);
    const w = await openPage(browser, { key: mine.key!, width: 390, height: 844 });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await expect.poll(() => page.locator('#journal-list tbody tr').count()).toBe(3);
    const widths = await page.evaluate(() => {
      const d = (globalThis as any).document;
      return { doc: d.documentElement.scrollWidth, list: d.querySelector('#journal-list').getBoundingClientRect().right };
    });
    expect(widths.doc).toBeLessThanOrEqual(390);
    expect(widths.list).toBeLessThanOrEqual(390);
    // Every action button is on screen and can be pressed.
    for (const b of await page.locator('#journal-list button').all()) {
      const box = (await b.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.locator('#journal-list tr', { hasText: 'Physics' }).locator('button.rename').click();
    await page.fill('dialog form.ask input[name=title]', 'Physics 101');
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => page.locator('#journal-list .journal-title').allTextContents()).toContain('Physics 101');
    await docScreenshot(page, 'journals-390px');
    w.expectClean();
    await w.context.close();
  });

  it('/docs opens without a warning box, and a 401 example says what a 401 says', async () => {
    const w = await openPage(browser);
    const { page } = w;
    await page.goto(`${server.url}/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.swagger-ui .errors-wrapper').count()).toBe(0);
    const op = page.locator('.opblock-get', { has: page.locator('[data-path="/v1/journals/list"]') });
    await op.locator('.opblock-summary').first().click();
    const row401 = op.locator('.responses-table tr.response[data-code="401"]');
    await expect.poll(() => row401.textContent()).toContain('Invalid or revoked API key');
    expect(await row401.textContent()).not.toContain('Journal not found');
    w.expectClean();
    await w.context.close();
  });
});
