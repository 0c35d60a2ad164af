/**
 * The trash (issue 14, item 9): delete moves a journal to the trash with its history (404
 * everywhere else, editors closed), GET /v1/journals/trash lists it, POST
 * /v1/journals/editor/restore/{id} brings it back, `?permanent=true` purges at once, and the sweep
 * purges what stayed longer than TRASH_RETENTION_DAYS. Another organization gets 404.
 */
import { describe, expect, it } from 'vitest';
import { CloseCode } from '../../server/realtime/close-codes.ts';
import { until } from '../practice-api/helpers.ts';
import { Client, serverSuite, startTestServer, type TestServer } from '../helpers/server.ts';
import { connectEditor, waitFor } from '../realtime/helpers.ts';

const MARKDOWN = '# Trash me\n\nSome *notes* worth keeping.\n';

let server: TestServer;
let c: Client;
let other: Client;
serverSuite({}, async (s, client) => {
  server = s;
  c = client;
  other = await s.newClient();
});

const trashIds = async (client: Client) => ((await client.get('/v1/journals/trash')).body.journals as { id: string }[]).map((j) => j.id);
const listIds = async (client: Client) => ((await client.get('/v1/journals/list')).body.journals as { id: string }[]).map((j) => j.id);
const rowsOf = async (table: string, id: string) =>
  (await server.svc.ctx.engine.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} t JOIN journals j ON j.seq = t.journal_seq WHERE j.id = ?`, [id]))!.n;

describe('delete moves to the trash', () => {
  it('answers is_trashed and trashed_at, closes editors, and the journal is 404 everywhere but the trash', async () => {
    const id = await c.importMarkdown(MARKDOWN, 'Trash me');
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: (await c.model(id)).model.content[1].attrs.id }])).status).toBe(200);
    await c.importMarkdown('# Other\n');
    const editor = connectEditor(server.url, id, { key: c.key });
    await waitFor(() => editor.provider.synced, 'editor synced');

    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.deleted_journal_data).toMatchObject({ id, is_trashed: true, content: '# Trash me\n' });
    const trashedAt = del.body.deleted_journal_data.trashed_at as string;
    expect(Date.parse(trashedAt)).toBeGreaterThan(Date.now() - 60_000);
    await waitFor(() => editor.closes.find((e) => e.code === CloseCode.JOURNAL_DELETED), 'editor closed');
    editor.destroy();

    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(404);
    expect((await c.get(`/v1/journals/editor/model/${id}`)).status).toBe(404);
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: 'x' }])).status).toBe(404);
    expect((await c.patch('/v1/journals/editor/rename', { journal_id: id, title: 'x' })).status).toBe(404);
    expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(404);
    expect(await listIds(c)).not.toContain(id);
    const trash = await c.get('/v1/journals/trash');
    expect(trash.status).toBe(200);
    expect(trash.body.journals).toContainEqual(expect.objectContaining({ id, title: 'Trash me', trashed_at: trashedAt }));
    // The history stays in the store.
    expect(await rowsOf('journal_snapshots', id)).toBeGreaterThan(0);

    const restored = await c.post(`/v1/journals/editor/restore/${id}`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ success: true, journal_id: id, title: 'Trash me' });
    expect(await c.content(id)).toBe('# Trash me\n');
    expect(await listIds(c)).toContain(id);
    expect(await trashIds(c)).not.toContain(id);
    expect((await c.post(`/v1/journals/editor/restore/${id}`)).status).toBe(404);
  });

  it('pages the trash newest first', async () => {
    const client = await server.newClient();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await client.importMarkdown(`# T${i}\n`);
      ids.push(id);
      expect((await client.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    }
    const first = await client.get('/v1/journals/trash?page_size=3');
    expect(first.body.journals.map((j: { id: string }) => j.id)).toEqual(ids.slice(2).reverse());
    const second = await client.get(`/v1/journals/trash?page_size=3&page_token=${first.body.next_page_token}`);
    expect(second.body.journals.map((j: { id: string }) => j.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.body.next_page_token).toBeUndefined();
  });

  it('another organization gets 404 and sees nothing', async () => {
    const id = await c.importMarkdown(MARKDOWN);
    expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    expect((await other.post(`/v1/journals/editor/restore/${id}`)).status).toBe(404);
    expect((await other.del(`/v1/journals/editor/delete/${id}?permanent=true`)).status).toBe(404);
    expect(await trashIds(other)).not.toContain(id);
    expect(await trashIds(c)).toContain(id);
  });
});

describe('permanent delete', () => {
  it('purges a journal and its history at once, from the list or from the trash', async () => {
    for (const viaTrash of [false, true]) {
      const id = await c.importMarkdown(MARKDOWN);
      if (viaTrash) expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
      const seq = (await server.svc.ctx.engine.get<{ seq: number }>('SELECT seq FROM journals WHERE id = ?', [id]))!.seq;
      const del = await c.del(`/v1/journals/editor/delete/${id}?permanent=true`);
      expect(del.status).toBe(200);
      expect(del.body.deleted_journal_data).toMatchObject({ id, is_trashed: true, content: MARKDOWN });
      expect(await trashIds(c)).not.toContain(id);
      expect((await c.post(`/v1/journals/editor/restore/${id}`)).status).toBe(404);
      for (const table of ['journal_updates', 'journal_snapshots', 'journal_markdown_cache']) {
        expect((await server.svc.ctx.engine.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE journal_seq = ?`, [seq]))!.n).toBe(0);
      }
    }
  });

  it('refuses a permanent flag that is not true or false', async () => {
    const id = await c.importMarkdown(MARKDOWN);
    const r = await c.del(`/v1/journals/editor/delete/${id}?permanent=yes`);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'permanent']);
    expect(await c.content(id)).toBe(MARKDOWN);
  });
});

describe('retention', () => {
  it('keeps the trash across a restart, and the sweep purges what stayed past TRASH_RETENTION_DAYS', async () => {
    const first = await startTestServer();
    const client = await first.newClient();
    const id = await client.importMarkdown(MARKDOWN);
    expect((await client.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    await first.close();

    // A restart with the default retention: still in the trash, and restorable.
    const second = await startTestServer({ dataDir: first.dataDir });
    const again = new Client(second.url, client.key, client.orgId);
    expect(await trashIds(again)).toContain(id);
    const kept = await again.importMarkdown('# Kept\n');
    expect((await again.del(`/v1/journals/editor/delete/${kept}`)).status).toBe(200);
    expect((await again.post(`/v1/journals/editor/restore/${kept}`)).status).toBe(200);
    await second.close();

    // Retention 0 and a sweep every second: the trashed journal is purged, the restored one stays.
    const third = await startTestServer({ dataDir: first.dataDir, env: { TRASH_RETENTION_DAYS: '0', TRASH_SWEEP_SECONDS: '1' } });
    try {
      const after = new Client(third.url, client.key, client.orgId);
      await until(async () => !(await trashIds(after)).includes(id), 'swept');
      expect(await third.svc.ctx.engine.get('SELECT seq FROM journals WHERE id = ?', [id])).toBeUndefined();
      expect(await after.content(kept)).toBe('# Kept\n');
    } finally {
      await third.close();
    }
  });
});
