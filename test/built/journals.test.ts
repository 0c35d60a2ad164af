/**
 * Journals on the built server (`node dist/server/main.mjs`), as a user drives them: a markdown
 * import and an edit large enough for the worker pool (the worker's own bundle) and their export,
 * two real y-websocket editors and a REST edit reaching them, versions (create, list, diff,
 * restore) and the trash (delete, list, restore, permanent delete).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_PARSE_CHARS } from '../../server/journals/markdown-offload.ts';
import { killChildServers, prepareDataDir, startChildServer } from '../helpers/child-server.ts';
import { blocks, Client } from '../helpers/server.ts';
import { blockText, connectEditor, editorBlocks, synced, typeInto, waitFor, type Editor } from '../realtime/helpers.ts';
import { yjsToMarkdown } from '../journals/yjs-markdown.ts';

let url: string;
let c: Client;
const editors: Editor[] = [];

beforeAll(async () => {
  const { dataDir, key, orgId } = await prepareDataDir();
  const server = await startChildServer(dataDir);
  url = server.url;
  c = new Client(url, key, orgId);
});
afterAll(() => {
  for (const e of editors.splice(0)) e.destroy();
  killChildServers();
});

/** Markdown of every kind of block the schema holds, repeated past the size that goes to the worker pool. */
function largeMarkdown(sections: number): string {
  const one = (i: number) =>
    [
      `## Section ${i}`,
      '',
      `Some *emphasis*, **strong**, \`code\`, ~~struck~~ and a [link](https://example.org/${i}).`,
      '',
      `- item ${i}\n- [ ] task ${i}\n- [x] done ${i}`,
      '',
      `> quoted ${i}`,
      '',
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
      '',
      '```js\nconst x = 1;\n```',
      '',
    ].join('\n');
  return Array.from({ length: sections }, (_, i) => one(i)).join('\n');
}

describe('markdown through the worker pool', () => {
  it('imports a large document in the worker and exports it unchanged', async () => {
    const markdown = `# Big\n\n${largeMarkdown(60)}`;
    expect(markdown.length).toBeGreaterThan(INLINE_PARSE_CHARS * 10);
    const id = await c.importMarkdown(markdown, 'Big');
    const exported = await c.content(id);
    expect(exported).toBe(markdown);
    const model = await c.model(id);
    const types = new Set(blocks(model).map((b) => b.type));
    expect([...types].sort()).toEqual(['blockquote', 'bullet_list', 'code_block', 'heading', 'paragraph', 'table']);
  });

  it('parses a large markdown block of an edit in the worker', async () => {
    const id = await c.importMarkdown('# Small\n\nOne paragraph.\n');
    const [, para] = blocks(await c.model(id));
    const insert = largeMarkdown(20);
    expect(insert.length).toBeGreaterThan(INLINE_PARSE_CHARS);
    const r = await c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [insert], referenceId: para!.id, position: 'after' }]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await c.content(id)).toBe(`# Small\n\nOne paragraph.\n\n${insert}`);
  });
});

describe('realtime editors', () => {
  it('two y-websocket editors converge, the store has their typing, and a REST edit reaches both', async () => {
    const id = await c.importMarkdown('# Title\n\nFirst para\n\nSecond para\n');
    const ids = blocks(await c.model(id)).map((b) => b.id);
    // One editor with the key, one as a browser does (a journal-scoped token from a session).
    const session = await c.post('/v1/journals/editor/session', { journal_id: id });
    expect(session.status).toBe(200);
    const a = connectEditor(url, id, { key: c.key });
    const b = connectEditor(url, id, { token: session.body.token });
    editors.push(a, b);
    await Promise.all([synced(a), synced(b)]);
    expect(editorBlocks(b).map((x) => x.text)).toEqual(['Title', 'First para', 'Second para']);

    typeInto(a, ids[1]!, 0, 'A says: ');
    typeInto(b, ids[2]!, 0, 'B says: ');
    await waitFor(() => blockText(b, ids[1]!) === 'A says: First para' && blockText(a, ids[2]!) === 'B says: Second para', 'convergence');
    await waitFor(async () => (await c.content(id)) === '# Title\n\nA says: First para\n\nB says: Second para\n', 'typing stored');

    const r = await c.edit(id, [{ type: 'update_node', nodeId: ids[0], nodeType: 'heading', params: [{ level: 1, content: 'From **REST**' }] }], { sync_realtime_state: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const expected = '# From **REST**\n\nA says: First para\n\nB says: Second para\n';
    await waitFor(() => yjsToMarkdown(a.doc) === expected && yjsToMarkdown(b.doc) === expected, 'REST edit on both editors');
    expect(await c.content(id)).toBe(expected);
  });
});

const V = (id: string) => `/v1/journals/versions/${id}`;

describe('versions', () => {
  it('creates, lists, diffs and restores a version', async () => {
    const original = '# Cells\n\nThe *cell* is the unit of life.\n\nC goes.\n\nD changes.\n';
    const id = await c.importMarkdown(original);
    const v1 = await c.post(V(id), { name: 'first draft' });
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    const [, , gone, changed] = blocks(await c.model(id));
    const edit = await c.edit(id, [
      { type: 'delete_node', nodeId: gone!.id },
      { type: 'update_node', nodeId: changed!.id, nodeType: 'paragraph', params: [{ content: 'D has changed.' }] },
    ]);
    expect(edit.status).toBe(200);
    const v2 = await c.post(V(id), { name: 'second' });

    const list = await c.get(V(id));
    expect(list.body.versions.map((v: any) => [v.version_id, v.name, v.kind])).toEqual([
      [v2.body.version_id, 'second', 'named'],
      [v1.body.version_id, 'first draft', 'named'],
    ]);
    expect((await c.get(`${V(id)}/${v1.body.version_id}?format=markdown`)).body.content).toBe(original);

    const diff = await c.get(`${V(id)}/diff?from=${v1.body.version_id}&to=${v2.body.version_id}`);
    expect(diff.status, JSON.stringify(diff.body)).toBe(200);
    expect(diff.body.diff.removed).toEqual([expect.objectContaining({ block_id: gone!.id, before: 'C goes.\n' })]);
    expect(diff.body.diff.changed).toEqual([expect.objectContaining({ block_id: changed!.id, before: 'D changes.\n', after: 'D has changed.\n' })]);
    expect(diff.body.diff.added).toEqual([]);

    const restored = await c.post(`${V(id)}/${v1.body.version_id}/restore`, { sync_realtime_state: true });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.version.kind).toBe('restore');
    expect(await c.content(id)).toBe(original);
    expect(blocks(await c.model(id))[2]!.id).toBe(gone!.id);
  });
});

describe('trash', () => {
  const trashIds = async () => ((await c.get('/v1/journals/trash')).body.journals as { id: string }[]).map((j) => j.id);
  const listIds = async () => ((await c.get('/v1/journals/list')).body.journals as { id: string }[]).map((j) => j.id);

  it('deletes to the trash, lists it, restores it, and deletes permanently', async () => {
    const id = await c.importMarkdown('# Trash me\n\nSome *notes* worth keeping.\n', 'Trash me');
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.deleted_journal_data).toMatchObject({ id, is_trashed: true });
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(404);
    expect(await listIds()).not.toContain(id);
    expect(await trashIds()).toContain(id);

    const restored = await c.post(`/v1/journals/editor/restore/${id}`);
    expect(restored.body).toMatchObject({ success: true, journal_id: id, title: 'Trash me' });
    expect(await c.content(id)).toBe('# Trash me\n\nSome *notes* worth keeping.\n');
    expect(await trashIds()).not.toContain(id);

    const gone = await c.del(`/v1/journals/editor/delete/${id}?permanent=true`);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(await trashIds()).not.toContain(id);
    expect(await listIds()).not.toContain(id);
    expect((await c.post(`/v1/journals/editor/restore/${id}`)).status).toBe(404);
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(404);
  });
});
