/**
 * Comments in the editor's margin, in Chromium (issue 32): Alice comments on selected text, Bob
 * (another browser) sees the thread appear live, a REST client replies and both pages show the
 * reply, Bob resolves it and REST sees it resolved; a REST edit that deletes the commented words
 * shows the thread detached on both pages.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, docScreenshot, editorReady, openPage, selectInBlock, type Watched } from './helpers.ts';

describeBrowser('web app: comments', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;
  let id: string;
  let alice: Watched;
  let bob: Watched;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
    id = await c.importMarkdown('# Cells\n\nThe cell is the unit of life.\n\nEvery cell has a membrane.\n', 'Cells');
    alice = await openPage(browser, { key: c.key!, name: 'Alice' });
    bob = await openPage(browser, { key: c.key!, name: 'Bob' });
    await Promise.all([alice.page.goto(`${server.url}/app/journals/${id}`), bob.page.goto(`${server.url}/app/journals/${id}`)]);
    await Promise.all([editorReady(alice.page), editorReady(bob.page)]);
  });

  const thread = (w: Watched) => w.page.locator('#comment-list .thread').first();

  it('two pages and a REST client share one comment thread', async () => {
    // Alice selects "cell" and comments on it.
    await selectInBlock(alice.page, 'The cell is', 4, 4);
    await alice.page.click('#add-comment');
    await alice.page.fill('dialog form.ask input[name=body]', 'Which kind of cell?');
    await alice.page.click('dialog form.ask button[type=submit]');
    // Bob sees it without a reload, anchored to "cell", by Alice.
    await expect.poll(() => thread(bob).locator('.quote').textContent()).toBe('cell');
    expect(await thread(bob).locator('.body').textContent()).toBe('Alice Which kind of cell?');
    // Its text is marked in both editors.
    for (const w of [alice, bob]) await expect.poll(() => w.page.locator('.ProseMirror .comment-range').allTextContents()).toEqual(['cell']);
    const listed = (await c.get(`/v1/journals/${id}/comments`)).body.comments;
    expect(listed).toEqual([expect.objectContaining({ quote: 'cell', from: 4, to: 8, body: 'Which kind of cell?', author: expect.objectContaining({ type: 'editor', name: 'Alice' }) })]);
    const cid = listed[0].comment_id;

    // A script replies over REST: both pages show it.
    expect((await c.post(`/v1/journals/${id}/comments/${cid}/replies`, { body: 'Eukaryotic, here.' })).status).toBe(200);
    for (const w of [alice, bob]) await expect.poll(() => thread(w).locator('.reply').count()).toBe(1);
    expect(await thread(alice).locator('.reply').textContent()).toContain('Eukaryotic, here.');

    // Bob replies and resolves in his margin: REST and Alice see both.
    await thread(bob).locator('.reply-input').fill('Thanks!');
    await thread(bob).locator('.reply-input').press('Enter');
    await thread(bob).locator('button.resolve').click();
    await expect.poll(async () => (await c.get(`/v1/journals/${id}/comments/${cid}`)).body.comment.resolved).toBe(true);
    expect((await c.get(`/v1/journals/${id}/comments/${cid}`)).body.comment.replies.map((r: { body: string; author: { name: string } }) => [r.body, r.author.name])).toEqual([
      ['Eukaryotic, here.', null],
      ['Thanks!', 'Bob'],
    ]);
    await expect.poll(() => thread(alice).getAttribute('class')).toContain('resolved');
    // A resolved comment's text is no longer marked.
    await expect.poll(() => alice.page.locator('.ProseMirror .comment-range').count()).toBe(0);

    // Alice reopens; then a REST edit deletes the commented words: both margins say detached.
    await thread(alice).locator('button.reopen').click();
    await expect.poll(() => thread(bob).getAttribute('class')).not.toContain('resolved');
    await expect.poll(() => alice.page.locator('.ProseMirror .comment-range').allTextContents()).toEqual(['cell']);
    await docScreenshot(alice.page, 'editor-comments');
    const block = (await c.model(id)).model.content[1].attrs.id;
    expect((await c.edit(id, [{ type: 'update_node', nodeId: block, nodeType: 'paragraph', params: [{ content: 'The unit of life.' }] }])).status).toBe(200);
    for (const w of [alice, bob]) {
      await expect.poll(() => thread(w).getAttribute('class')).toContain('detached');
      expect(await thread(w).locator('.quote').textContent()).toBe('cell');
    }
    // Deleting the thread in one page removes it from the other.
    await thread(bob).locator('button.delete-comment').click();
    await expect.poll(() => alice.page.locator('#comment-list .thread').count()).toBe(0);
    alice.expectClean();
    bob.expectClean();
  });

  it('a comment on the whole block, made with the cursor only', async () => {
    await alice.page.locator('.ProseMirror > *', { hasText: 'Every cell' }).first().click();
    await alice.page.click('#add-comment');
    await alice.page.fill('dialog form.ask input[name=body]', 'Source?');
    await alice.page.click('dialog form.ask button[type=submit]');
    await expect.poll(() => thread(bob).locator('.quote').textContent()).toBe('Every cell has a membrane.');
    const [comment] = (await c.get(`/v1/journals/${id}/comments`)).body.comments;
    expect(comment).toMatchObject({ whole_block: true, body: 'Source?' });
    alice.expectClean();
    bob.expectClean();
  });
});
