/**
 * The trash, version history and the journal tree in Chromium (issue 32): restore and delete for
 * good from the trash page; save a version, see the diff against now, restore it (the open editor
 * follows); nest journals with "Move…" in the tree, and a parent deleted with its child comes back
 * with it.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, docScreenshot, editorReady, editorText, openPage } from './helpers.ts';

describeBrowser('web app: trash, history, tree', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
  });

  it('the trash lists deleted journals, restores one and deletes another for good', async () => {
    const keep = await c.importMarkdown('# Keep me\n', 'Keep me');
    const drop = await c.importMarkdown('# Drop me\n', 'Drop me');
    await c.del(`/v1/journals/editor/delete/${keep}`);
    await c.del(`/v1/journals/editor/delete/${drop}`);
    const w = await openPage(browser, { key: c.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await page.click('nav a[href="/app/trash"]');
    await expect.poll(() => page.locator('#trash-list .journal-title').allTextContents()).toEqual(['Drop me', 'Keep me']);
    await docScreenshot(page, 'trash');
    await page.locator('#trash-list tr', { hasText: 'Keep me' }).locator('button.restore').click();
    await expect.poll(() => page.locator('#trash-list .journal-title').allTextContents()).toEqual(['Drop me']);
    expect((await c.get(`/v1/journals/content/${keep}`)).status).toBe(200);
    await page.locator('#trash-list tr', { hasText: 'Drop me' }).locator('button.purge').click();
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => page.locator('#trash-empty').isVisible()).toBe(true);
    expect((await c.post(`/v1/journals/editor/restore/${drop}`)).status).toBe(404);
    w.expectClean();
    await w.context.close();
  });

  it('history: save a version, see what changed since, restore it while the editor is open', async () => {
    const id = await c.importMarkdown('# Notes\n\nFirst draft.\n', 'Notes');
    const w = await openPage(browser, { key: c.key!, name: 'Ada' });
    const { page } = w;
    await page.goto(`${server.url}/app/journals/${id}`);
    await editorReady(page);
    await page.click('#history-link');
    await page.click('#save-version');
    await page.fill('dialog form.ask input[name=name]', 'Draft one');
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => page.locator('#version-list tbody tr').first().textContent()).toContain('Draft one');
    const block = (await c.model(id)).model.content[1].attrs.id;
    await c.edit(id, [
      { type: 'update_node', nodeId: block, nodeType: 'paragraph', params: [{ content: 'Second draft.' }] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'A new idea.' }] },
    ]);
    await page.locator('#version-list tr', { hasText: 'Draft one' }).locator('button.show-diff').click();
    await expect.poll(() => page.locator('#diff .diff-changed').textContent()).toContain('First draft.');
    expect(await page.locator('#diff .diff-changed ins').textContent()).toContain('Second draft.');
    expect(await page.locator('#diff .diff-added').textContent()).toContain('A new idea.');
    await docScreenshot(page, 'history-diff');
    await page.locator('#version-list tr', { hasText: 'Draft one' }).locator('button.restore-version').click();
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => c.content(id)).toBe('# Notes\n\nFirst draft.\n');
    await page.click('.notice a');
    await editorReady(page);
    await expect.poll(() => editorText(page)).toBe('Notes\nFirst draft.');
    w.expectClean();
    await w.context.close();
  });

  it('the tree nests journals with Move…, and a deleted parent comes back with its child', async () => {
    const mine = await server.newClient();
    const biology = await mine.importMarkdown('# Biology\n', 'Biology');
    const cells = await mine.importMarkdown('# Cells\n', 'Cells');
    await mine.importMarkdown('# Chemistry\n', 'Chemistry');
    const w = await openPage(browser, { key: mine.key! });
    const { page } = w;
    await page.goto(`${server.url}/app/`);
    await expect.poll(() => page.locator('#journal-tree > li').count()).toBe(3);
    await page.locator('#journal-tree li', { hasText: 'Cells' }).locator('button.move').click();
    await page.selectOption('dialog form.ask select[name=parent]', biology);
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => page.locator(`#journal-tree li[data-journal-id="${biology}"] > ul > li .tree-title`).allTextContents()).toEqual(['Cells']);
    expect((await mine.get(`/v1/journals/${biology}/children`)).body.order_indexes).toEqual([cells]);
    await docScreenshot(page, 'journal-tree');
    // A parent cannot go under its own child: the dialog does not offer it.
    await page.locator(`#journal-tree li[data-journal-id="${biology}"] > .node button.move`).click();
    expect(await page.locator('dialog form.ask select[name=parent] option').allTextContents()).toEqual(['(top level)', 'Chemistry']);
    await page.click('dialog form.ask button[type=button]');
    // Delete the parent: the child goes with it; restore brings both.
    await page.locator('#journal-list tr', { hasText: 'Biology' }).locator('button.delete').click();
    await page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => page.locator('#journal-tree .tree-title').allTextContents()).toEqual(['Chemistry']);
    await page.click('nav a[href="/app/trash"]');
    await page.locator('#trash-list tr', { hasText: 'Biology' }).locator('button.restore').click();
    await expect.poll(() => page.locator('#trash-empty').isVisible()).toBe(true);
    await page.click('nav a[href="/app/"]');
    await expect.poll(() => page.locator(`#journal-tree li[data-journal-id="${biology}"] > ul > li .tree-title`).allTextContents()).toEqual(['Cells']);
    w.expectClean();
    await w.context.close();
  });
});
