/**
 * The live editor in Chromium: two people (separate browser contexts) type into one journal at
 * once and converge; a REST edit reaches both without a reload; each sees the other's cursor and
 * name; undo takes back only one's own change; a `#token=` link opens the journal without a key;
 * the toolbar and markdown shortcuts make every block kind and mark, as the REST export shows.
 */
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { browserSuite, describeBrowser, editorReady, editorText, openPage, screenshot, type Watched } from './helpers.ts';

const PLAN = '# Plan\n\nFirst paragraph.\n\nSecond paragraph.\n';

describeBrowser('web app: live editor', () => {
  let server: TestServer;
  let browser: Browser;
  let c: Client;
  let id: string;
  let alice: Watched;
  let bob: Watched;

  browserSuite(async (s, b) => {
    [server, browser] = [s, b];
    c = await server.newClient();
    id = await c.importMarkdown(PLAN, 'Plan');
    // Two people: separate contexts (storage, BroadcastChannel), the same key.
    alice = await openPage(browser, { key: c.key!, name: 'Alice' });
    bob = await openPage(browser, { key: c.key!, name: 'Bob' });
    await Promise.all([alice.page.goto(`${server.url}/app/journals/${id}`), bob.page.goto(`${server.url}/app/journals/${id}`)]);
    await Promise.all([editorReady(alice.page), editorReady(bob.page)]);
  });

  /**
   * Puts the cursor at the end of the block holding `text`. With `seenBy`, waits until that page
   * shows this editor's cursor there: the editor itself (not only the DOM) has the selection.
   */
  async function caretAfter(w: Watched, text: string, seenBy?: Watched): Promise<void> {
    await w.page.locator('.ProseMirror > *', { hasText: text }).first().click();
    await w.page.keyboard.press('End');
    if (seenBy) await seenBy.page.locator('.ProseMirror > *', { hasText: text }).first().locator('.ProseMirror-yjs-cursor').waitFor();
  }

  it('two editors typing at once converge, and the service stores both', async () => {
    expect(await alice.page.locator('#journal-title').textContent()).toBe('Plan');
    await caretAfter(alice, 'First paragraph.', bob);
    await caretAfter(bob, 'Second paragraph.', alice);
    await Promise.all([alice.page.keyboard.type(' Alice was here', { delay: 30 }), bob.page.keyboard.type(' and Bob too', { delay: 30 })]);
    const want = 'Plan\nFirst paragraph. Alice was here\nSecond paragraph. and Bob too';
    await expect.poll(() => editorText(alice.page)).toBe(want);
    await expect.poll(() => editorText(bob.page)).toBe(want);
    await expect.poll(() => c.content(id)).toBe('# Plan\n\nFirst paragraph. Alice was here\n\nSecond paragraph. and Bob too\n');
    alice.expectClean();
    bob.expectClean();
  });

  it('a REST edit with sync_realtime_state appears in both editors without a reload', async () => {
    // A reload would lose this marker.
    await Promise.all([alice.page.evaluate(() => ((globalThis as any).notReloaded = true)), bob.page.evaluate(() => ((globalThis as any).notReloaded = true))]);
    const heading = (await c.model(id)).model.content[0].attrs.id;
    const r = await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'Added **over REST**' }], referenceId: heading, position: 'after' }], { sync_realtime_state: true });
    expect(r.status).toBe(200);
    for (const w of [alice, bob]) {
      await expect.poll(() => editorText(w.page)).toBe('Plan\nAdded over REST\nFirst paragraph. Alice was here\nSecond paragraph. and Bob too');
      expect(await w.page.locator('.ProseMirror strong', { hasText: 'over REST' }).count()).toBe(1);
      expect(await w.page.evaluate(() => (globalThis as any).notReloaded)).toBe(true);
    }
    alice.expectClean();
    bob.expectClean();
  });

  it('shows the other editor’s cursor with its name, and who is here', async () => {
    await caretAfter(alice, 'Alice was here');
    await caretAfter(bob, 'Bob too');
    const aliceOnBob = bob.page.locator('.ProseMirror-yjs-cursor', { hasText: 'Alice' });
    await aliceOnBob.waitFor();
    await alice.page.locator('.ProseMirror-yjs-cursor', { hasText: 'Bob' }).waitFor();
    // The cursor sits in Alice's paragraph, in her colour.
    expect(await bob.page.locator('.ProseMirror p', { hasText: 'Alice was here' }).locator('.ProseMirror-yjs-cursor').count()).toBe(1);
    const aliceColour = await alice.page.locator('#who li.me .dot').evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor);
    expect(await aliceOnBob.evaluate((el) => (globalThis as any).getComputedStyle(el).borderLeftColor)).toBe(aliceColour);
    // A selection shows as a highlight on the other side.
    await alice.page.locator('.ProseMirror p', { hasText: 'First paragraph.' }).dblclick();
    await bob.page.locator('.ProseMirror-yjs-selection').first().waitFor();
    expect((await bob.page.locator('#who li').allTextContents()).map((t) => t.trim()).sort()).toEqual(['Alice', 'Bob (you)']);
    expect(await alice.page.locator('#connection').textContent()).toBe('Connected');
    await screenshot(alice.page, 'editor-alice');
    await screenshot(bob.page, 'editor-bob');
    alice.expectClean();
    bob.expectClean();
  });

  it('undo takes back only this editor’s own change', async () => {
    await caretAfter(alice, 'Alice was here', bob);
    await alice.page.keyboard.type(' (mine)', { delay: 20 });
    await expect.poll(() => editorText(bob.page)).toContain('(mine)');
    await caretAfter(bob, 'Bob too', alice);
    await bob.page.keyboard.type(' (theirs)', { delay: 20 });
    await expect.poll(() => editorText(alice.page)).toContain('(theirs)');
    await alice.page.keyboard.press('Control+z');
    for (const w of [alice, bob]) {
      await expect.poll(() => editorText(w.page)).toBe('Plan\nAdded over REST\nFirst paragraph. Alice was here\nSecond paragraph. and Bob too (theirs)');
    }
    // Redo brings it back (toolbar button); the REST edit and Bob's typing were never Alice's to undo.
    await alice.page.click('.toolbar [data-command="redo"]');
    await expect.poll(() => editorText(bob.page)).toContain('Alice was here (mine)');
    alice.expectClean();
    bob.expectClean();
  });

  it('opens with an editor token alone from a #token= link, which leaves the address bar', async () => {
    // Alice makes the link in her editor ("Editor link": a token from POST /v1/journals/editor/session).
    await alice.page.click('#share');
    const link = (await alice.page.locator('#share-link').inputValue())!;
    expect(link).toMatch(new RegExp(`^${server.url}/app/journals/${id}#token=et1\\.`));
    const guest = await openPage(browser, { name: 'Guest' });
    await guest.page.goto(link);
    await editorReady(guest.page);
    expect(guest.page.url()).toBe(`${server.url}/app/journals/${id}`);
    expect(await guest.page.evaluate(() => (globalThis as any).sessionStorage.getItem('study.apiKey'))).toBeNull();
    expect(await guest.page.locator('#sign-out').count()).toBe(0);
    await expect.poll(() => editorText(guest.page)).toContain('Alice was here');
    await caretAfter(guest, 'Added over REST', alice);
    await guest.page.keyboard.type(' (guest)', { delay: 20 });
    await expect.poll(() => editorText(alice.page)).toContain('Added over REST (guest)');
    // Typed at the end of the bold text: bold too, as in any editor.
    await expect.poll(() => c.content(id)).toContain('Added **over REST (guest)**');
    await bob.page.locator('#who li', { hasText: 'Guest' }).waitFor();
    guest.expectClean();
    alice.expectClean();
    await guest.context.close();
    // Its presence goes with it.
    await expect.poll(() => bob.page.locator('#who li', { hasText: 'Guest' }).count()).toBe(0);
  });

  it('toolbar and markdown shortcuts make every block kind and mark of the schema', async () => {
    const fresh = await c.put('/v1/journals/editor/create', { title: 'Kinds' });
    const kinds = fresh.body.journal_id as string;
    const w = await openPage(browser, { key: c.key!, name: 'Writer' });
    const { page } = w;
    await page.goto(`${server.url}/app/journals/${kinds}`);
    await editorReady(page);
    await page.locator('.ProseMirror').click();
    const type = (text: string) => page.keyboard.type(text, { delay: 5 });
    // Markdown shortcuts (input rules).
    await type('## Sub heading\n');
    await type('Some **bold** and *italic* and `code` and ~~struck~~ and [a link](https://example.com/x) done\n');
    await type('- bullet one\nbullet two\n\n');
    await type('3. third\nfourth\n\n');
    await type('[ ] open task\n[x] done task\n\n');
    await type('> quoted line\n\n');
    await type('```js\nlet x = 1;');
    await page.keyboard.press('Control+Enter'); // out of the code block
    await type('---');
    await type('|Name|Value| ');
    await type('alpha');
    await page.keyboard.press('Tab');
    await type('1');
    await page.keyboard.press('Tab'); // a new row
    await type('beta');
    // Leave the table: the paragraph after it.
    await page.locator('.ProseMirror > p').last().click();
    await type('![a dot](data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==) after image\n');
    // The toolbar: block menu, marks, lists, quote, rule, HTML.
    await page.selectOption('#block-type', 'h3');
    await type('Toolbar heading\n');
    await page.click('[data-command="strong"]');
    await type('tool bold');
    await page.click('[data-command="strong"]');
    await type(' plain\n');
    await page.click('[data-command="ordered_list"]');
    await type('listed\n\n');
    await page.click('[data-command="task_list"]');
    await type('tool task\n\n');
    await page.click('[data-command="blockquote"]');
    await type('tool quote\n\n');
    await page.selectOption('#block-type', 'code_block');
    await type('tool code');
    await page.keyboard.press('Control+Enter');
    await page.click('[data-command="horizontal_rule"]');
    await page.click('[data-command="html_block"]');
    await page.fill('dialog input[name=html]', '<mark>raw</mark>');
    await page.click('dialog button[type=submit]');
    // The dialog closes (and gives focus back) in a later task: typing waits for its result.
    await page.locator('.ProseMirror .html-block').waitFor();
    await page.click('[data-command="table"]');
    await page.fill('dialog input[name=cols]', '2');
    await page.fill('dialog input[name=rows]', '2');
    await page.click('dialog button[type=submit]');
    await page.locator('.ProseMirror table').nth(1).waitFor();
    await type('cell');
    await page.click('[data-command="col_after"]');
    await page.click('[data-command="align_center"]');

    const want = [
      '### Sub heading',
      'Some **bold** and *italic* and `code` and ~~struck~~ and [a link](https://example.com/x) done',
      '- bullet one\n- bullet two',
      '3. third\n4. fourth',
      '- [ ] open task\n- [x] done task',
      '> quoted line',
      '```js\nlet x = 1;\n```',
      '| Name | Value |\n| --- | --- |\n| alpha | 1 |\n| beta |  |',
      '![a dot](data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==) after image',
      '### Toolbar heading',
      '**tool bold** plain',
      '1. listed',
      '- [ ] tool task',
      '> tool quote',
      '```\ntool code\n```',
      '<mark>raw</mark>',
      '| cell |  |  |\n| --- | :---: | --- |',
    ];
    // Headings of level 2 come out as `##`.
    want[0] = '## Sub heading';
    await expect
      .poll(async () => {
        const md = await c.content(kinds);
        return want.filter((part) => !md.includes(part));
      })
      .toEqual([]);
    const md = await c.content(kinds);
    expect(md.match(/^(\*\*\*|---|___)$/gm)?.length).toBe(2);
    const model = (await c.model(kinds)).model.content.map((b: any) => b.type);
    for (const kind of ['heading', 'paragraph', 'bullet_list', 'ordered_list', 'blockquote', 'code_block', 'horizontal_rule', 'table', 'html_block']) expect(model).toContain(kind);
    await screenshot(page, 'editor-kinds');
    w.expectClean();
    await w.context.close();
  });
});
