/**
 * The features main gained after issue 25, on the built server (`node dist/server/main.mjs`) as
 * users run it, one server for the file: comments (a range that follows its text, replies,
 * resolve), publishing (`/p/{slug}` without a key, ETag and 304, unpublish), nesting (children in
 * order, a cycle refused), the Hocuspocus endpoint beside a y-websocket editor ("saved", read-only
 * tokens refused on both protocols), the practice topic catalogue and a set of one sub-topic,
 * organization quotas in `/v1/usage`, reads of a large journal and a paged diff (the worker
 * bundle's journal.export / journal.model / versions.diff), markdown shape limits (422), and the
 * Tiptap extension bundle dist/tiptap/index.mjs imported in Node.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { getSchema } from '@tiptap/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schema as journalSchema } from '../../shared/schema.ts';
import { MAX_TABLE_COLUMNS } from '../../shared/limits.ts';
import { LARGE_READ_BYTES } from '../../server/journals/read-offload.ts';
import { killChildServers, prepareDataDir, startChildServer } from '../helpers/child-server.ts';
import { blocks, Client } from '../helpers/server.ts';
import { sleep } from '../helpers/wait.ts';
import { createSet, waitForSet } from '../practice-api/helpers.ts';
import { connectEditor, editorBlocks, synced, typeInto, waitFor, type Editor } from '../realtime/helpers.ts';
import { hocuspocusSocket, hpSaved, hpSynced, openDocument, type HpDoc } from '../realtime/hocuspocus-helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
let url: string;
let c: Client;

beforeAll(async () => {
  const { dataDir, key, orgId } = await prepareDataDir();
  const server = await startChildServer(dataDir);
  url = server.url;
  c = new Client(url, key, orgId);
});
afterAll(() => killChildServers());

const sockets: HocuspocusProviderWebsocket[] = [];
const docs: HpDoc[] = [];
const editors: Editor[] = [];
afterEach(() => {
  for (const d of docs.splice(0)) d.provider.destroy();
  for (const s of sockets.splice(0)) s.destroy();
  for (const e of editors.splice(0)) e.destroy();
});

const ok = (r: { status: number; body: unknown }, status = 200) => expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(status);

describe('comments', () => {
  const C = (id: string) => `/v1/journals/${id}/comments`;

  it('a comment on a range follows its text through an edit; replies and resolve; 422 on a bad range', async () => {
    const id = await c.importMarkdown('# Cells\n\nThe cell is the unit of life.\n', 'Cells');
    const [, para] = blocks(await c.model(id));
    const made = await c.post(C(id), { block_id: para!.id, from: 4, to: 8, body: 'Which kind of cell?' });
    ok(made);
    expect(made.body).toMatchObject({ block_id: para!.id, quote: 'cell', from: 4, to: 8, detached: false, resolved: false, replies: [], whole_block: false });
    const cid = made.body.comment_id as string;

    ok(await c.edit(id, [{ type: 'update_node', nodeId: para!.id, nodeType: 'paragraph', params: [{ content: 'Yes, the cell is the unit of life.' }] }]));
    const list = await c.get(C(id));
    ok(list);
    expect(list.body.comments).toEqual([expect.objectContaining({ comment_id: cid, quote: 'cell', from: 9, to: 13, detached: false })]);

    const reply = await c.post(`${C(id)}/${cid}/replies`, { body: 'A eukaryotic one.', author_name: 'Ada' });
    ok(reply);
    expect(reply.body.comment.replies).toEqual([expect.objectContaining({ body: 'A eukaryotic one.', author: expect.objectContaining({ type: 'editor', name: 'Ada' }) })]);
    const resolved = await c.post(`${C(id)}/${cid}/resolve`);
    ok(resolved);
    expect(resolved.body.comment).toMatchObject({ resolved: true, resolved_at: expect.any(String) });
    expect((await c.get(`${C(id)}/${cid}`)).body.comment).toMatchObject({ resolved: true, replies: [expect.objectContaining({ body: 'A eukaryotic one.' })] });

    const bad = await c.post(C(id), { block_id: para!.id, from: 5, to: 500, body: 'past the end' });
    ok(bad, 422);
    expect(bad.body.detail[0].loc[0]).toBe('body');
    expect((await c.get(C(id))).body.comments).toHaveLength(1);
  });
});

describe('publishing', () => {
  it('publishes, serves /p/{slug} without a key (HTML, ETag, 304), renders again after an edit, and 404 after unpublish', async () => {
    const id = await c.importMarkdown('# Cell biology\n\nThe *cell* is the unit of life.\n', 'Cell biology');
    const pub = await c.post(`/v1/journals/${id}/publish`, { slug: 'built-cells' });
    ok(pub);
    expect(pub.body).toMatchObject({ publish_status: 'published', slug: 'built-cells' });
    const page = (headers: Record<string, string> = {}) => fetch(`${url}/p/built-cells`, { headers });
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<em>cell</em>');
    expect(html).not.toContain('<script');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await page({ 'If-None-Match': etag })).status).toBe(304);

    const [heading] = blocks(await c.model(id));
    ok(await c.edit(id, [{ type: 'update_node', nodeId: heading!.id, nodeType: 'heading', params: [1, 'Cells, edited'] }]));
    const after = await page({ 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Cells, edited');

    const un = await c.post(`/v1/journals/${id}/unpublish`);
    ok(un);
    expect(un.body).toMatchObject({ publish_status: 'private', slug: null });
    expect((await page()).status).toBe(404);
  });
});

describe('nesting', () => {
  const move = (journal_id: string, parent_item: string | null, index?: number) => c.patch('/v1/journals/editor/move', { journal_id, parent_item, index });

  it('nests journals, lists children in order, and refuses a cycle with 422 changing nothing', async () => {
    const p = await c.importMarkdown('# Parent\n', 'Parent');
    const a = await c.importMarkdown('# A\n', 'A');
    const b = await c.importMarkdown('# B\n', 'B');
    ok(await move(a, p));
    const m = await move(b, p, 0);
    ok(m);
    expect(m.body.order_indexes).toEqual([b, a]);
    const children = await c.get(`/v1/journals/${p}/children`);
    ok(children);
    expect(children.body.children.map((x: { title: string }) => x.title)).toEqual(['B', 'A']);
    expect(children.body.order_indexes).toEqual([b, a]);

    const cycle = await move(p, a);
    ok(cycle, 422);
    expect(cycle.body.detail[0].type).toBe('value_error.cycle');
    expect((await c.get(`/v1/journals/content/${p}`)).body.parent_item).toBe('');
    expect((await c.get(`/v1/journals/${p}/children`)).body.order_indexes).toEqual([b, a]);
  });
});

describe('realtime: Hocuspocus beside y-websocket', () => {
  function open(id: string, token: string): HpDoc {
    const s = hocuspocusSocket(url);
    sockets.push(s);
    const d = openDocument(s, id, token);
    docs.push(d);
    return d;
  }
  async function session(journal_id: string, scope?: 'read') {
    const r = await c.post('/v1/journals/editor/session', scope ? { journal_id, scope } : { journal_id });
    ok(r);
    return r.body as { token: string; scope: string; collaboration_url: string };
  }
  const hpBlocks = (d: HpDoc) => editorBlocks({ fragment: d.fragment } as Editor);

  it('a provider and a y-websocket editor on one journal converge, the provider is answered "saved", REST sees both', async () => {
    const id = await c.importMarkdown('# Shared\n\nfirst\n\nsecond\n');
    const s = await session(id);
    expect(s.collaboration_url).toMatch(/\/v1\/collaboration$/);
    const hp = open(id, s.token);
    const ws = connectEditor(url, id, { key: c.key });
    editors.push(ws);
    await Promise.all([hpSynced(hp), synced(ws)]);
    expect(hp.authenticated).toBe('read-write');
    const ids = hpBlocks(hp).map((b) => b.id as string);
    typeInto({ doc: hp.doc, fragment: hp.fragment } as Editor, ids[1]!, 0, 'hp ');
    typeInto(ws, ids[2]!, 0, 'ws ');
    await hpSaved(hp);
    expect(hp.statuses).toContain(true);
    await waitFor(() => hpBlocks(hp)[2]?.text === 'ws second' && editorBlocks(ws)[1]?.text === 'hp first', 'both ways');
    await waitFor(async () => (await c.content(id)) === '# Shared\n\nhp first\n\nws second\n', 'stored');
  });

  it('a read-only token: the provider gets updates, its change is "not saved"; a y-websocket editor is closed 4405', async () => {
    const id = await c.importMarkdown('# Read\n\nonly\n');
    const ro = await session(id, 'read');
    expect(ro.scope).toBe('read');
    const writer = open(id, c.key!);
    const reader = open(id, ro.token);
    await Promise.all([hpSynced(writer), hpSynced(reader)]);
    expect(reader.authenticated).toBe('readonly');
    const para = hpBlocks(writer)[1]!.id as string;
    typeInto({ doc: writer.doc, fragment: writer.fragment } as Editor, para, 0, 'w ');
    await waitFor(() => hpBlocks(reader)[1]?.text === 'w only', 'reader gets the update');
    const before = reader.statuses.length;
    typeInto({ doc: reader.doc, fragment: reader.fragment } as Editor, para, 0, 'r ');
    await waitFor(() => reader.statuses.length > before, 'status for the reader');
    expect(reader.statuses.at(-1)).toBe(false);
    await hpSaved(writer);

    const e = connectEditor(url, id, { token: (await session(id, 'read')).token });
    editors.push(e);
    await synced(e);
    await sleep(100);
    typeInto(e, para, 0, 'r ');
    await waitFor(() => e.closes.length > 0, 'read-only y-websocket editor closed');
    expect(e.closes[0]).toEqual({ code: 4405, reason: 'read-only connection: updates are refused' });
    expect(blocks(await c.model(id))[1]!.text).toBe('w only');
  });
});

describe('practice topics', () => {
  it('lists the sub-topics, and a set from one sub-topic example is made by that generator', async () => {
    const r = await c.get('/v1/interactives/practice/topics');
    ok(r);
    expect(r.body.count).toBeGreaterThan(0);
    expect(r.body.topics).toHaveLength(r.body.count);
    const topic = r.body.topics.find((t: { id: string }) => t.id === 'fraction-addition') ?? r.body.topics[0];
    expect(topic).toMatchObject({ id: expect.any(String), name: expect.any(String), levels: { easy: expect.any(String) } });
    const s = await waitForSet(c, await createSet(c, { set_description: topic.examples[0], difficulty: 'medium', count: 3 }), undefined, 60_000);
    expect(s.status, s.message).toBe('completed');
    expect(s.engine).toBe(`offline:${topic.id}`);
    expect(s.response.problems).toHaveLength(3);
  });
});

describe('usage', () => {
  it("answers the organization's quotas", async () => {
    const r = await c.get('/v1/usage');
    ok(r);
    expect(r.body.quotas.realtime_bytes_per_minute).toMatchObject({ limit: expect.any(Number), used: expect.any(Number), remaining: expect.any(Number), resets_at: expect.any(String) });
    expect(r.body.quotas.stored_bytes.limit).toBeGreaterThan(0);
    // The journals this file made so far are counted.
    expect(r.body.quotas.stored_bytes.used).toBeGreaterThan(0);
  });
});

describe('large journals (the worker bundle)', () => {
  it(`reads a journal of >= ${LARGE_READ_BYTES / 1024} KiB state in a worker: GET content and GET model`, async () => {
    const markdown = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} with *emphasis*, **strong** and a [link](https://example.com/${i}).`).join('\n\n') + '\n';
    const storedBefore = (await c.get('/v1/usage')).body.quotas.stored_bytes.used as number;
    const id = await c.importMarkdown(markdown);
    ok(await c.edit(id, [{ type: 'create_node', nodeType: 'heading', params: [2, 'The end'] }]));
    // Its stored state is past the threshold of reads in a worker (what the organization stores grew by it).
    const stored = (await c.get('/v1/usage')).body.quotas.stored_bytes.used - storedBefore;
    expect(stored).toBeGreaterThanOrEqual(LARGE_READ_BYTES);
    const content = await c.get(`/v1/journals/content/${id}`);
    ok(content);
    expect(content.body.content).toBe(markdown + '\n## The end\n');
    const model = await c.get(`/v1/journals/editor/model/${id}`);
    ok(model);
    expect(model.body.model.content).toHaveLength(3001);
    expect(model.body.model.content[3000]).toMatchObject({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'The end' }] });
  });

  it('a version diff is computed in the worker and answered in pages', async () => {
    const id = await c.importMarkdown('# Start\n');
    const v1 = await c.post(`/v1/journals/versions/${id}`, { name: 'start' });
    ok(v1);
    const content = Array.from({ length: 1500 }, (_, i) => `Paragraph ${i} with *some* text`).join('\n\n');
    ok(await c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content }] }]));
    const p = `/v1/journals/versions/${id}/diff?from=${v1.body.version_id}&to=current`;
    const first = await c.get(`${p}&page_size=1000`);
    ok(first);
    expect(first.body.total).toBe(1500);
    expect(first.body.diff.added).toHaveLength(1000);
    expect(first.body.diff.added[0]).toMatchObject({ type: 'paragraph', after: 'Paragraph 0 with *some* text\n' });
    expect(first.body.next_page_token).toBe(1000);
    const second = await c.get(`${p}&page_token=1000&page_size=1000`);
    ok(second);
    expect(second.body.diff.added).toHaveLength(500);
    expect(second.body.diff.added[0].after).toBe('Paragraph 1000 with *some* text\n');
    expect(second.body.next_page_token).toBeUndefined();
  });
});

describe('markdown shape limits', () => {
  it('a table one column too wide is a 422 naming the limit, on import and in an edit, nothing stored', async () => {
    const table = (cols: number) => ['|' + ' h |'.repeat(cols), '|' + ' - |'.repeat(cols), '|' + ' c |'.repeat(cols)].join('\n') + '\n';
    const kept = '# Kept\n\nUntouched.\n';
    const id = await c.importMarkdown(kept);
    const count = async () => (await c.get('/v1/journals/list?page_size=100')).body.journals.length;
    const before = await count();
    const imp = await c.put('/v1/journals/editor/import_from_markdown', { markdown: table(MAX_TABLE_COLUMNS + 1) });
    ok(imp, 422);
    expect(imp.body.detail[0].loc).toEqual(['body', 'markdown']);
    expect(imp.body.detail[0].msg).toMatch(new RegExp(`too many columns: at most ${MAX_TABLE_COLUMNS}`));
    const edit = await c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: table(MAX_TABLE_COLUMNS + 1) }] }]);
    ok(edit, 422);
    expect(edit.body.detail[0].msg).toMatch(/too many columns/);
    expect(await count()).toBe(before);
    expect(await c.content(id)).toBe(kept);
  });
});

describe('the Tiptap bundle', () => {
  it('dist/tiptap/index.mjs imports in Node, exposes the journal extensions, and its schema reads a model of the built server', async () => {
    const m = await import(pathToFileURL(path.join(root, 'dist/tiptap/index.mjs')).href);
    expect(m.JOURNAL_FIELD).toBe('prosemirror');
    const extensions = m.journalExtensions();
    const names = extensions.map((e: { name: string }) => e.name);
    expect([...names].sort()).toEqual([...m.JOURNAL_NODE_NAMES, ...m.JOURNAL_MARK_NAMES].sort());
    expect([...m.JOURNAL_NODE_NAMES].sort()).toEqual(Object.keys(journalSchema.nodes).sort());
    expect([...m.JOURNAL_MARK_NAMES].sort()).toEqual(Object.keys(journalSchema.marks).sort());
    const tiptapSchema = getSchema(extensions);
    const id = await c.importMarkdown('# T\n\n- [ ] task *em* **strong** ~~s~~ `c` [l](https://x.org)\n\n| a | b |\n| --- | :-: |\n| 1 | 2 |\n\n```js\nx\n```\n\n> q\n\n---\n\n![alt](https://x.org/i.png)\n');
    const model = (await c.model(id)).model;
    const node = tiptapSchema.nodeFromJSON(model);
    node.check();
    expect(node.toJSON()).toEqual(model);
  });
});
