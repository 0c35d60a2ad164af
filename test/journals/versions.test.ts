/**
 * Version history (issue 14): named versions, the journal at a version, block diffs, restore as a
 * live transaction editors see, versions kept across a restart and purged with the journal; a
 * small edit's version stores only the edit. Another organization gets 404.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { until } from '../practice-api/helpers.ts';
import { blocks, Client, serverSuite, startTestServer, type TestServer } from '../helpers/server.ts';
import { connectEditor, waitFor } from '../realtime/helpers.ts';
import { yjsToMarkdown } from './yjs-markdown.ts';

const ORIGINAL = '# Cells\n\nThe *cell* is the unit of life.\n\n- nucleus\n- ribosome\n\nA closing paragraph.\n';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

const V = (id: string) => `/v1/journals/versions/${id}`;

async function named(id: string, name: string): Promise<string> {
  const r = await c.post(V(id), { name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toMatchObject({ success: true, journal_id: id, name, kind: 'named' });
  return r.body.version_id;
}

describe('versions', () => {
  it('a named version keeps the journal exactly as it was, as markdown and as the block model', async () => {
    const id = await c.importMarkdown(ORIGINAL);
    const v1 = await named(id, 'first draft');
    const model = await c.model(id);
    const [heading, para] = blocks(model);
    expect((await c.edit(id, [
      { type: 'update_node', nodeId: heading!.id, nodeType: 'heading', params: [1, 'Cells, revised'] },
      { type: 'delete_node', nodeId: para!.id },
    ])).status).toBe(200);
    expect(await c.content(id)).not.toBe(ORIGINAL);

    const got = await c.get(`${V(id)}/${v1}`);
    expect(got.status).toBe(200);
    expect(got.body.content).toBe(ORIGINAL);
    expect(blocks(got.body).map((b) => b.id)).toEqual(blocks(model).map((b) => b.id));
    const md = await c.get(`${V(id)}/${v1}?format=markdown`);
    expect(md.body.content).toBe(ORIGINAL);
    expect(md.body.model).toBeUndefined();
    expect((await c.get(`${V(id)}/${v1}?format=model`)).body.content).toBeUndefined();
    expect((await c.get(`${V(id)}/${v1}?format=pdf`)).status).toBe(422);

    const list = await c.get(V(id));
    expect(list.body.versions).toEqual([expect.objectContaining({ version_id: v1, name: 'first draft', kind: 'named', block_count: 4, created_by: expect.any(String) })]);
  });

  it('diffs two versions, or a version and the journal now, by block id', async () => {
    const id = await c.importMarkdown('# A\n\nB stays.\n\nC goes.\n\nD changes.\n\nE stays too.\n');
    const v1 = await named(id, 'before');
    const [, , cBlock, d, e] = blocks(await c.model(id));
    const edited = await c.edit(id, [
      { type: 'delete_node', nodeId: cBlock!.id },
      { type: 'update_node', nodeId: d!.id, nodeType: 'paragraph', params: [{ content: 'D has changed.' }] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'F is new.' }], referenceId: e!.id, position: 'after' },
    ]);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const now = await c.get(`${V(id)}/diff?from=${v1}&to=current`);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    const { diff } = now.body;
    const by = [{ actor: 'api_key', key_id: now.body.from.created_by }];
    expect(diff.removed).toEqual([{ block_id: cBlock!.id, type: 'paragraph', before: 'C goes.\n', changed_by: by }]);
    expect(diff.changed).toEqual([{ block_id: d!.id, type: 'paragraph', before: 'D changes.\n', after: 'D has changed.\n', changed_by: by }]);
    expect(diff.added).toEqual([expect.objectContaining({ type: 'paragraph', after: 'F is new.\n' })]);
    expect(diff.moved).toEqual([]); // moves are covered by versions-diff.test.ts
    const v2 = await named(id, 'after');
    const between = await c.get(`${V(id)}/diff?from=${v1}&to=${v2}`);
    expect(between.body.diff).toEqual(diff);
    expect((await c.get(`${V(id)}/diff?from=nope`)).status).toBe(404);
    expect((await c.get(`${V(id)}/diff`)).status).toBe(422);
  });

  it('restores as one live change editors see, keeping block ids; the state before is a version to go back to', async () => {
    const id = await c.importMarkdown(ORIGINAL);
    const v1 = await named(id, 'good');
    const ids = blocks(await c.model(id)).map((b) => b.id);
    const editor = connectEditor(server.url, id, { key: c.key });
    await waitFor(() => editor.provider.synced, 'editor synced');
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: ids[1]! }, { type: 'update_node', nodeId: ids[0]!, nodeType: 'heading', params: [1, 'Wrong'] }])).status).toBe(200);
    await waitFor(() => yjsToMarkdown(editor.doc).startsWith('# Wrong'), 'editor saw the bad edit');

    const r = await c.post(`${V(id)}/${v1}/restore`, { sync_realtime_state: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.version.kind).toBe('restore');
    expect(r.body.previous).toMatchObject({ kind: 'auto', name: 'before restore' });
    expect(await c.content(id)).toBe(ORIGINAL);
    await waitFor(() => yjsToMarkdown(editor.doc) === ORIGINAL, 'editor sees the restore');
    const after = blocks(await c.model(id)).map((b) => b.id);
    expect(after[0]).toBe(ids[0]);
    expect(after.slice(2)).toEqual(ids.slice(2));

    // Undo the restore by restoring the version taken before it.
    expect((await c.post(`${V(id)}/${r.body.previous.version_id}/restore`)).status).toBe(200);
    expect(await c.content(id)).toMatch(/^# Wrong\n/);
    await waitFor(() => yjsToMarkdown(editor.doc).startsWith('# Wrong'), 'editor sees the second restore');
    const kinds = (await c.get(V(id))).body.versions.map((v: { kind: string }) => v.kind);
    expect(kinds).toEqual(['restore', 'auto', 'restore', 'auto', 'named']);
    editor.destroy();
  });

  it('typing concurrent with a restore is not lost: it merges per the CRDT', async () => {
    const id = await c.importMarkdown(ORIGINAL);
    const v1 = await named(id, 'v1');
    const ids = blocks(await c.model(id)).map((b) => b.id);
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: ids[3]! }])).status).toBe(200);
    const editor = connectEditor(server.url, id, { key: c.key });
    await waitFor(() => editor.provider.synced, 'editor synced');
    // Concurrent for certain: the editor types while its connection is down and the restore runs.
    editor.provider.disconnect();
    ((editor.fragment.get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Typed. ');
    expect((await c.post(`${V(id)}/${v1}/restore`)).status).toBe(200);
    expect(await c.content(id)).toBe(ORIGINAL);
    editor.provider.connect();
    const merged = ORIGINAL.replace('The *cell*', 'Typed. The *cell*');
    await until(async () => (await c.content(id)) === merged, 'typing merged', 10_000);
    await waitFor(() => yjsToMarkdown(editor.doc) === merged, 'editor has both');
    editor.destroy();
  });

  it('keeps the state before an atomic edit or one of more than 50 operations as an automatic version', async () => {
    const id = await c.importMarkdown(ORIGINAL);
    const first = blocks(await c.model(id))[0]!;
    const update = (text: string) => ({ type: 'update_node', nodeId: first.id, nodeType: 'heading', params: [1, text] });
    expect((await c.edit(id, [update('Small')])).status).toBe(200);
    expect((await c.get(V(id))).body.versions).toEqual([]);
    expect((await c.edit(id, [update('Atomic')], { atomic: true })).status).toBe(200);
    const bulk = Array.from({ length: 51 }, (_, i) => update(`Bulk ${i}`));
    expect((await c.edit(id, bulk)).status).toBe(200);
    const versions = (await c.get(V(id))).body.versions;
    expect(versions.map((v: { kind: string; name: string }) => [v.kind, v.name])).toEqual([
      ['auto', 'before bulk edit'],
      ['auto', 'before bulk edit'],
    ]);
    expect((await c.get(`${V(id)}/${versions[1].version_id}?format=markdown`)).body.content).toMatch(/^# Small\n/);
    expect((await c.get(`${V(id)}/${versions[0].version_id}?format=markdown`)).body.content).toMatch(/^# Atomic\n/);
    // A dry run changes nothing and keeps no version.
    expect((await c.edit(id, bulk, { dry_run: true })).status).toBe(200);
    expect((await c.get(V(id))).body.versions).toHaveLength(2);
  });

  it('a small edit’s version stores the edit, not the journal', async () => {
    const markdown = Array.from({ length: 300 }, (_, i) => `Paragraph ${i} with some text to weigh on the journal.`).join('\n\n') + '\n';
    const id = await c.importMarkdown(markdown);
    await named(id, 'base');
    const first = blocks(await c.model(id))[0]!;
    expect((await c.edit(id, [{ type: 'update_node', nodeId: first.id, nodeType: 'paragraph', params: [{ content: 'Paragraph 0, edited.' }] }])).status).toBe(200);
    await named(id, 'small edit');
    const [small, base] = (await c.get(V(id))).body.versions;
    expect(base.bytes).toBeGreaterThan(10_000);
    expect(small.bytes).toBeLessThan(base.bytes / 20);
    expect((await c.get(`${V(id)}/${small.version_id}?format=markdown`)).body.content).toBe(markdown.replace('Paragraph 0 with some text to weigh on the journal.', 'Paragraph 0, edited.'));
  });

  it('is 404 for another organization and for unknown versions; versions go with a purged journal', async () => {
    const other = await server.newClient();
    const id = await c.importMarkdown(ORIGINAL);
    const v1 = await named(id, 'mine');
    for (const r of [await other.post(V(id), { name: 'x' }), await other.get(V(id)), await other.get(`${V(id)}/${v1}`), await other.get(`${V(id)}/diff?from=${v1}`), await other.post(`${V(id)}/${v1}/restore`)]) {
      expect(r.status).toBe(404);
    }
    expect((await c.get(`${V(id)}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await c.post(V(id), { name: 'x', extra: 1 })).status).toBe(422);
    const seq = (await server.svc.ctx.engine.get<{ seq: number }>('SELECT seq FROM journals WHERE id = ?', [id]))!.seq;
    expect((await c.del(`/v1/journals/editor/delete/${id}?permanent=true`)).status).toBe(200);
    expect((await server.svc.ctx.engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal_versions WHERE journal_seq = ?', [seq]))!.n).toBe(0);
  });

  it('takes a checkpoint when a journal goes quiet after editing, and none for journals not edited since', async () => {
    const quick = await startTestServer({ env: { VERSION_QUIET_SECONDS: '1' } });
    try {
      const client = await quick.newClient();
      const edited = await client.importMarkdown(ORIGINAL);
      const untouched = await client.importMarkdown('# Never edited\n');
      const trashed = await client.importMarkdown('# Trashed\n');
      const first = blocks(await client.model(edited))[0]!;
      expect((await client.edit(edited, [{ type: 'update_node', nodeId: first.id, nodeType: 'heading', params: [1, 'Quiet now'] }])).status).toBe(200);
      const t = blocks(await client.model(trashed))[0]!;
      expect((await client.edit(trashed, [{ type: 'update_node', nodeId: t.id, nodeType: 'heading', params: [1, 'Gone'] }])).status).toBe(200);
      expect((await client.del(`/v1/journals/editor/delete/${trashed}`)).status).toBe(200);
      const checkpoints = async () => (await client.get(V(edited))).body.versions as { kind: string; name: string; version_id: string }[];
      await until(async () => (await checkpoints()).length === 1, 'a checkpoint', 15_000);
      const [cp] = await checkpoints();
      expect(cp).toMatchObject({ kind: 'auto', name: 'checkpoint', created_by: 'service' });
      expect((await client.get(`${V(edited)}/${cp!.version_id}?format=markdown`)).body.content).toMatch(/^# Quiet now\n/);
      // Quiet and already checkpointed: no second one until it is edited again.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await checkpoints()).toHaveLength(1);
      expect((await client.edit(edited, [{ type: 'update_node', nodeId: first.id, nodeType: 'heading', params: [1, 'Edited again'] }])).status).toBe(200);
      await until(async () => (await checkpoints()).length === 2, 'a second checkpoint', 15_000);
      expect((await client.get(V(untouched))).body.versions).toEqual([]);
      const trashedSeq = (await quick.svc.ctx.engine.get<{ seq: number }>('SELECT seq FROM journals WHERE id = ?', [trashed]))!.seq;
      expect((await quick.svc.ctx.engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal_versions WHERE journal_seq = ?', [trashedSeq]))!.n).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('keeps versions across a restart', async () => {
    const first = await startTestServer();
    const client = await first.newClient();
    const id = await client.importMarkdown(ORIGINAL);
    const v = await client.post(V(id), { name: 'kept' });
    await client.edit(id, [{ type: 'delete_node', nodeId: blocks(await client.model(id))[0]!.id }]);
    await first.close();
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const again = new Client(second.url, client.key, client.orgId);
      expect((await again.get(`${V(id)}/${v.body.version_id}?format=markdown`)).body.content).toBe(ORIGINAL);
      expect((await again.post(`${V(id)}/${v.body.version_id}/restore`)).status).toBe(200);
      expect(await again.content(id)).toBe(ORIGINAL);
    } finally {
      await second.close();
    }
  });
});
