/**
 * The journal list in Chromium: sign-in (a bad key shows the API's 401), paging, create, rename,
 * delete, markdown import through the file picker and by drag and drop, export back to a file,
 * and the API's own words for a 413 and a 429.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, openPage, screenshot, statusLine } from './helpers.ts';

const CELLS = '# Cells\n\nThe *cell* is the unit of life.\n\n- nucleus\n- ribosome\n';

describeBrowser('web app: journals', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
  });

  it('GET / and the journal_url the API hands out lead to the app', async () => {
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/app/');
    const imported = await c.put('/v1/journals/editor/import_from_markdown', { markdown: CELLS, title: 'Cells', team_slug: 'bio' });
    const link = await fetch(imported.body.journal_url, { redirect: 'manual' });
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe(`/app/journals/${imported.body.journal_id}?team=bio`);
    const page = await fetch(`${server.url}/app/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const script = /src="(\/app\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(server.url + script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${server.url}/app/nothing/here`)).status).toBe(404);
  });

  it('a bad key is refused with the API’s words and not kept', async () => {
    const w = await openPage(browser);
    w.allow(statusLine(401));
    await w.page.goto(`${server.url}/`);
    await w.page.fill('#api-key', 'sk_study_not-a-real-key');
    await w.page.click('form.sign-in button[type=submit]');
    await expect.poll(() => w.page.locator('.error').textContent()).toMatch(/^401: Invalid or revoked API key/);
    expect(await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('study.apiKey'))).toBeNull();
    // The right key signs in; it is kept in this tab only and never put in a URL.
    const requests: string[] = [];
    w.page.on('request', (r) => requests.push(r.url()));
    await w.page.fill('#api-key', c.key!);
    await w.page.click('form.sign-in button[type=submit]');
    await w.page.locator('#journal-list').waitFor();
    expect(await w.page.evaluate(() => (globalThis as any).sessionStorage.getItem('study.apiKey'))).toBe(c.key);
    expect(requests.some((u) => u.includes(c.key!))).toBe(false);
    w.expectClean();
    await w.context.close();
  });

  it('creates, renames, pages through and deletes journals', async () => {
    const mine = await server.newClient();
    for (let i = 1; i <= 11; i++) await mine.put('/v1/journals/editor/create', { title: `Old ${i}` });
    const w = await openPage(browser, { key: mine.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await page.fill('#new-title', 'Fresh notes');
    await page.click('#create');
    await expect.poll(() => page.locator('.journal-title').first().textContent()).toBe('Fresh notes');
    // Twelve journals, ten a page: the second page holds the two oldest.
    await page.selectOption('#page-size', '10');
    await expect.poll(() => page.locator('#journal-list tbody tr').count()).toBe(10);
    await page.click('#next-page');
    await expect.poll(() => page.locator('.journal-title').allTextContents()).toEqual(['Old 2', 'Old 1']);
    expect(await page.locator('#next-page').isDisabled()).toBe(true);
    await page.click('#prev-page');
    await expect.poll(() => page.locator('.journal-title').first().textContent()).toBe('Fresh notes');

    const row = page.locator('#journal-list tbody tr', { hasText: 'Fresh notes' });
    await row.locator('button.rename').click();
    await page.fill('dialog input[name=title]', 'Renamed notes');
    await page.click('dialog button[type=submit]');
    await expect.poll(() => page.locator('.journal-title').first().textContent()).toBe('Renamed notes');
    const id = await page.locator('#journal-list tbody tr').first().getAttribute('data-journal-id');
    expect((await mine.get(`/v1/journals/content/${id}`)).body.title).toBe('Renamed notes');

    await page.locator('#journal-list tbody tr', { hasText: 'Renamed notes' }).locator('button.delete').click();
    await page.click('dialog button[type=submit]');
    await expect.poll(() => page.locator('.notice').first().textContent()).toContain('Deleted “Renamed notes”');
    expect((await mine.get(`/v1/journals/content/${id}`)).status).toBe(404);
    await expect.poll(() => page.locator('.journal-title').first().textContent()).toBe('Old 11');
    w.expectClean();
    await w.context.close();
  });

  it('imports a .md file through the picker and exports it back unchanged', async () => {
    const mine = await server.newClient();
    const w = await openPage(browser, { key: mine.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await page.locator('#journal-list').waitFor();
    await page.setInputFiles('#import-file', { name: 'Cells.md', mimeType: 'text/markdown', buffer: Buffer.from(CELLS) });
    await expect.poll(() => page.locator('.journal-title').first().textContent()).toBe('Cells');
    const listed = (await mine.get('/v1/journals/list')).body.journals;
    expect(listed.map((j: any) => j.title)).toEqual(['Cells']);
    expect(await mine.content(listed[0].id)).toBe(CELLS);

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#journal-list tbody tr').first().locator('button.export').click()]);
    expect(download.suggestedFilename()).toBe('Cells.md');
    expect(fs.readFileSync(await download.path(), 'utf8')).toBe(CELLS);
    w.expectClean();
    await w.context.close();
  });

  it('imports files dropped on the page', async () => {
    const mine = await server.newClient();
    const w = await openPage(browser, { key: mine.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await page.locator('#journal-list').waitFor();
    // A real drop event carrying two files (and one that is not markdown, which is left out).
    const dt = await page.evaluateHandle(() => {
      const g = globalThis as any;
      const t = new g.DataTransfer();
      t.items.add(new g.File(['# Dropped one\n\nText.\n'], 'Dropped one.md', { type: 'text/markdown' }));
      t.items.add(new g.File(['# Dropped two\n'], 'Dropped two.markdown', { type: '' }));
      t.items.add(new g.File(['not markdown'], 'picture.png', { type: 'image/png' }));
      return t;
    });
    await page.dispatchEvent('#drop-zone', 'dragenter', { dataTransfer: dt });
    expect(await page.locator('#drop-zone.dragging').count()).toBe(1);
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: dt });
    await expect.poll(async () => (await page.locator('.journal-title').allTextContents()).sort()).toEqual(['Dropped one', 'Dropped two']);
    expect(await page.locator('#drop-zone.dragging').count()).toBe(0);
    const titles = (await mine.get('/v1/journals/list')).body.journals.map((j: any) => j.title).sort();
    expect(titles).toEqual(['Dropped one', 'Dropped two']);
    await screenshot(page, 'journal-list');
    w.expectClean();
    await w.context.close();
  });

  it('shows a 413 and a 429 (with its Retry-After) in the API’s words', async () => {
    // Developer tier: 10 markdown reads a minute.
    const dev = await server.newClient('developer');
    const id = await dev.importMarkdown('# Small\n', 'Small');
    const w = await openPage(browser, { key: dev.key! });
    w.allow(statusLine(413));
    w.allow(statusLine(429));
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await page.locator('.journal-title').first().waitFor();

    // Over the 2 MiB request body limit.
    await page.setInputFiles('#import-file', { name: 'Huge.md', mimeType: 'text/markdown', buffer: Buffer.alloc(2.5 * 1024 * 1024, 'a') });
    await expect.poll(() => page.locator('.error').first().textContent()).toMatch(/^Huge\.md: 413: Request body too large/);

    let used = 0;
    for (;;) {
      const r = await dev.get(`/v1/journals/content/${id}`);
      if (r.status === 429) break;
      expect(r.status).toBe(200);
      expect(++used).toBeLessThan(50);
    }
    await page.locator('#journal-list tbody tr').first().locator('button.export').click();
    const error = page.locator('.error[data-status="429"]');
    await expect.poll(() => error.textContent()).toMatch(/^429: .+ Retry after \d+ s\./);
    w.expectClean();
    await w.context.close();
  });
});
