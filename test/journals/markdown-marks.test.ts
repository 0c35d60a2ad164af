/**
 * Marks on inline atoms survive a journal (issue 11): Yjs stores an image, a hard break or inline
 * HTML as an element, which keeps attributes but not marks, so a link around a badge image, an
 * empty link and emphasis across a hard break travel as the schema's `marks` attribute; nested
 * emphasis of one kind comes back as markdown. Through the real service, and through an editor.
 */
import { expect, it } from 'vitest';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';
import { until } from '../practice-api/helpers.ts';
import { connectEditor, waitFor } from '../realtime/helpers.ts';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

const html = (md: string) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

const CASES: [string, string][] = [
  ['a badge row', '[![build](https://ci.example/badge.svg)](https://ci.example/x) [![npm](https://img.example/npm.svg "v1")](https://npm.example/p)\n'],
  ['an image and text in one link', '[![logo](logo.png) Project](https://example.org)\n'],
  ['a reference image in a reference link', '[![alt][img]][site]\n\n[img]: /i.png\n[site]: https://example.org\n'],
  ['empty links used as anchors', 'Jump [](#anchor) here and [](</with space> "t").\n'],
  ['nested emphasis of one kind', '*a *b* c* and **x **y** z** and ~~p ~~q~~ r~~\n'],
  ['a hard break inside emphasis and a link', '*one  \ntwo* and [three\\\nfour](u)\n'],
  ['inline HTML inside strong', '**bold <kbd>Ctrl</kbd> key**\n'],
];

it.each(CASES)('%s: import then content renders the same HTML', async (_name, markdown) => {
  const id = await c.importMarkdown(markdown);
  expect(html(await c.content(id))).toBe(html(markdown));
});

it('the link of a badge image stays when an editor types elsewhere in the paragraph', async () => {
  const markdown = 'Status [![build](b.svg)](https://ci.example) ok\n';
  const id = await c.importMarkdown(markdown);
  const editor = connectEditor(server.url, id, { key: c.key });
  await waitFor(() => editor.provider.synced, 'editor synced');
  const paragraph = editor.fragment.get(0);
  const first = (paragraph as unknown as { get(i: number): { insert(i: number, s: string): void } }).get(0);
  first.insert(0, 'Build ');
  await until(async () => (await c.content(id)).startsWith('Build '), 'edit applied');
  expect(await c.content(id)).toBe('Build Status [![build](b.svg)](https://ci.example) ok\n');
  editor.destroy();
});
