/**
 * Comments anchored to text (issue 32): REST under /v1/journals/{id}/comments, ranges that follow
 * the text through REST and editor edits and say `detached` once their text is gone, replies,
 * resolve/reopen, delete, authorship; editors see them live (COMMENTS_ROOT of the Y.Doc); they
 * travel with the journal into the trash (and the deleted record), back out, and through a version
 * restore. Bad input is a 422 or 404 and changes nothing; each write is priced.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { COMMENTS_ROOT } from '../../shared/comments.ts';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, typeInto, waitFor } from '../realtime/helpers.ts';

let server: TestServer;
let c: Client;
let other: Client;
serverSuite({}, async (s, client) => {
  server = s;
  c = client;
  other = await s.newClient();
});

const C = (id: string) => `/v1/journals/${id}/comments`;
const balance = (client: Client): Promise<number> => server.svc.ctx.billing.credits.balance(client.orgId);

async function journal(md = '# Cells\n\nThe cell is the unit of life.\n') {
  const id = await c.importMarkdown(md, 'Cells');
  const ids = (await c.model(id)).model.content.map((b: any) => b.attrs.id as string);
  return { id, ids };
}

describe('comments', () => {
  it('creates a comment on a range, lists and gets it, priced at $0.00005', async () => {
    const { id, ids } = await journal();
    const before = await balance(c);
    const made = await c.post(C(id), { block_id: ids[1], from: 4, to: 8, body: 'Which kind of cell?' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ success: true, block_id: ids[1], quote: 'cell', from: 4, to: 8, detached: false, resolved: false, replies: [], whole_block: false });
    expect(made.body.author).toEqual({ type: 'api_key', key_id: expect.any(String), name: null });
    expect(await balance(c)).toBe(before - 50);
    const list = await c.get(C(id));
    expect(list.status).toBe(200);
    expect(list.body.comments).toEqual([expect.objectContaining({ comment_id: made.body.comment_id, quote: 'cell', body: 'Which kind of cell?' })]);
    const one = await c.get(`${C(id)}/${made.body.comment_id}`);
    expect(one.body.comment).toMatchObject({ comment_id: made.body.comment_id, quote: 'cell' });
  });

  it('follows its text through REST edits and editor typing, and is detached once the text is deleted', async () => {
    const { id, ids } = await journal();
    const cid = (await c.post(C(id), { block_id: ids[1], from: 4, to: 8, body: 'here' })).body.comment_id;
    // REST rewrites the block minimally: words before the range shift it.
    expect((await c.edit(id, [{ type: 'update_node', nodeId: ids[1], nodeType: 'paragraph', params: [{ content: 'Yes, the cell is the unit of life.' }] }])).status).toBe(200);
    let got = (await c.get(`${C(id)}/${cid}`)).body.comment;
    expect(got).toMatchObject({ quote: 'cell', from: 9, to: 13, detached: false });
    // An editor types inside the range and at its edges.
    const editor = connectEditor(server.url, id, { key: c.key });
    await synced(editor);
    typeInto(editor, ids[1], 11, 'XX');
    typeInto(editor, ids[1], 0, '>> ');
    await waitFor(async () => (await c.get(`${C(id)}/${cid}`)).body.comment.quote === 'ceXXll' || undefined, 'typed text inside the range');
    got = (await c.get(`${C(id)}/${cid}`)).body.comment;
    expect(got).toMatchObject({ quote: 'ceXXll', from: 12, to: 18 });
    // Someone deletes the commented words.
    expect((await c.edit(id, [{ type: 'update_node', nodeId: ids[1], nodeType: 'paragraph', params: [{ content: 'Life.' }] }])).status).toBe(200);
    got = (await c.get(`${C(id)}/${cid}`)).body.comment;
    expect(got).toMatchObject({ detached: true, quote: 'cell', from: null, to: null });
    editor.destroy();
  });

  it('a whole-block comment, detached when its block is deleted', async () => {
    const { id, ids } = await journal();
    const made = await c.post(C(id), { block_id: ids[0], body: 'Title?', author_name: 'Ada' });
    expect(made.body).toMatchObject({ whole_block: true, quote: 'Cells', author: { type: 'editor', name: 'Ada' }, from: 0, to: 5 });
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: ids[0] }])).status).toBe(200);
    expect((await c.get(`${C(id)}/${made.body.comment_id}`)).body.comment).toMatchObject({ detached: true, quote: 'Cells' });
  });

  it('replies, resolves, reopens and deletes', async () => {
    const { id, ids } = await journal();
    const cid = (await c.post(C(id), { block_id: ids[1], body: 'Check' })).body.comment_id;
    const r = await c.post(`${C(id)}/${cid}/replies`, { body: 'Done', author_name: 'Bo' });
    expect(r.status).toBe(200);
    expect(r.body.comment.replies).toEqual([{ reply_id: expect.any(String), body: 'Done', author: { type: 'editor', key_id: expect.any(String), name: 'Bo' }, created_at: expect.any(String) }]);
    expect((await c.post(`${C(id)}/${cid}/resolve`)).body.comment).toMatchObject({ resolved: true, resolved_at: expect.any(String) });
    expect((await c.post(`${C(id)}/${cid}/reopen`)).body.comment).toMatchObject({ resolved: false, resolved_at: null });
    const del = await c.del(`${C(id)}/${cid}`);
    expect(del.status).toBe(200);
    expect((await c.get(`${C(id)}/${cid}`)).status).toBe(404);
    expect((await c.get(C(id))).body.comments).toEqual([]);
    expect((await c.del(`${C(id)}/${cid}`)).status).toBe(404);
  });

  it('refuses bad input with 422/404 and changes nothing, and another key gets 404', async () => {
    const { id, ids } = await journal();
    const cases: [unknown, string[]][] = [
      [{ block_id: 'nope', body: 'x' }, ['body', 'block_id']],
      [{ block_id: ids[1], from: 3, to: 3, body: 'x' }, ['body', 'to']],
      [{ block_id: ids[1], from: 5, to: 999, body: 'x' }, ['body', 'to']],
      [{ block_id: ids[1], from: -1, to: 3, body: 'x' }, ['body', 'from']],
      [{ block_id: ids[1], from: 1.5, to: 3, body: 'x' }, ['body', 'from']],
      [{ block_id: ids[1], body: '   ' }, ['body', 'body']],
      [{ block_id: ids[1], body: 'x'.repeat(10_001) }, ['body', 'body']],
      [{ block_id: ids[1], body: 'x', extra: 1 }, ['body']],
      [{ block_id: ids[1] }, ['body', 'body']],
    ];
    const before = await balance(c);
    for (const [body, loc] of cases) {
      const r = await c.post(C(id), body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    expect((await c.post(C(id), '{"block_id":')).status).toBe(422);
    expect(await balance(c)).toBe(before);
    expect((await c.get(C(id))).body.comments).toEqual([]);
    expect((await c.post(`${C(id)}/nope/replies`, { body: 'x' })).status).toBe(404);
    expect((await c.post(`${C(id)}/nope/resolve`)).status).toBe(404);
    expect((await other.get(C(id))).status).toBe(404);
    expect((await other.post(C(id), { block_id: ids[1], body: 'x' })).status).toBe(404);
    expect((await c.get(C('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });

  it('editors see a new comment live, in the COMMENTS_ROOT map of the document', async () => {
    const { id, ids } = await journal();
    const editor = connectEditor(server.url, id, { key: c.key });
    await synced(editor);
    const map = editor.doc.getMap(COMMENTS_ROOT) as Y.Map<any>;
    const cid = (await c.post(C(id), { block_id: ids[1], from: 0, to: 3, body: 'live' })).body.comment_id;
    const seen = await waitFor(() => map.get(cid), 'comment in the editor');
    expect(seen).toMatchObject({ body: 'live', quote: 'The' });
    await c.post(`${C(id)}/${cid}/replies`, { body: 'and a reply' });
    // A reply is an entry of its own, `{comment_id}/{reply_id}`.
    await waitFor(() => [...map.keys()].some((k) => k.startsWith(`${cid}/`)), 'reply in the editor');
    editor.destroy();
  });

  it('move with the journal into the trash (the deleted record carries them) and back', async () => {
    const { id, ids } = await journal();
    const cid = (await c.post(C(id), { block_id: ids[1], from: 4, to: 8, body: 'keep me' })).body.comment_id;
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.body.deleted_journal_data.comments).toEqual([expect.objectContaining({ comment_id: cid, quote: 'cell', body: 'keep me' })]);
    expect((await c.get(C(id))).status).toBe(404);
    expect((await c.post(`/v1/journals/editor/restore/${id}`)).status).toBe(200);
    expect((await c.get(C(id))).body.comments).toEqual([expect.objectContaining({ comment_id: cid, quote: 'cell', detached: false })]);
  });

  it('a version restore keeps the comments, re-attached when the restore brings their text back', async () => {
    const { id, ids } = await journal();
    const v = (await c.post(`/v1/journals/versions/${id}`, { name: 'before' })).body.version_id;
    const cid = (await c.post(C(id), { block_id: ids[1], from: 4, to: 8, body: 'kept' })).body.comment_id;
    expect((await c.post(`/v1/journals/versions/${id}/${v}/restore`, {})).status).toBe(200);
    const list = (await c.get(C(id))).body.comments;
    expect(list).toEqual([expect.objectContaining({ comment_id: cid, body: 'kept', quote: 'cell' })]);
  });
});
