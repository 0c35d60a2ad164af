import { afterEach, expect, it } from 'vitest';
import { blocks, startTestServer, tempDataDir, type TestServer } from '../helpers/server.ts';

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('keeps journals, edits, titles and revisions across a restart', async () => {
  const dataDir = tempDataDir();
  running = await startTestServer({ dataDir });
  const c = await running.newClient();
  const id = await c.importMarkdown('# Keep\n\nme\n', 'Durable');
  const m = await c.model(id);
  const edit = await c.edit(id, [
    { type: 'create_node', nodeType: 'paragraph', params: ['added'], referenceId: blocks(m)[1]!.id },
    { type: 'update_node', nodeId: blocks(m)[0]!.id, params: [{ level: 2, content: 'Kept' }] },
  ]);
  expect(edit.body.success).toBe(true);
  await c.patch('/v1/journals/editor/rename', { journal_id: id, title: 'Renamed' });
  await running.close();

  running = await startTestServer({ dataDir });
  const again = new (c.constructor as any)(running.url, c.key, c.orgId);
  const content = await again.get(`/v1/journals/content/${id}`);
  expect(content.body).toMatchObject({ title: 'Renamed', content: '## Kept\n\nme\n\nadded\n', revision: edit.body.revision });
  const m2 = await again.model(id);
  expect(blocks(m2).map((b: any) => b.id).slice(0, 2)).toEqual(blocks(m).map((b) => b.id));
});

it('compacts the update log into a snapshot past the threshold without losing anything', async () => {
  const dataDir = tempDataDir();
  running = await startTestServer({ dataDir, env: { COMPACT_AFTER_UPDATES: '5' } });
  const c = await running.newClient();
  const id = await c.importMarkdown('start\n');
  for (let i = 0; i < 12; i++) {
    const r = await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [`p${i}`] }]);
    expect(r.body.success).toBe(true);
  }
  // Compaction runs after the edit that made it due, in the background.
  const engine = running.svc.ctx.engine;
  const stored = () =>
    engine.get<{ seq: number; revision: number; snapshot_revision: number }>(
      'SELECT j.seq, j.revision, s.revision AS snapshot_revision FROM journals j JOIN journal_snapshots s ON s.journal_seq = j.seq WHERE j.id = ?',
      [id],
    );
  // Due past 5 updates, once the log also holds twice the snapshot's bytes (live.ts compactionDue).
  for (let i = 0; i < 200 && (await stored())!.snapshot_revision < 5; i++) await new Promise((r) => setTimeout(r, 10));
  const row = (await stored())!;
  const logged = (await engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal_updates WHERE journal_seq = ?', [row.seq]))!.n;
  expect(row.revision).toBe(13);
  expect(row.snapshot_revision).toBeGreaterThanOrEqual(5);
  expect(logged).toBe(row.revision - row.snapshot_revision);
  await running.close();

  running = await startTestServer({ dataDir });
  const again = new (c.constructor as any)(running.url, c.key, c.orgId);
  const expected = ['start', ...Array.from({ length: 12 }, (_, i) => `p${i}`)].join('\n\n') + '\n';
  expect(await again.content(id)).toBe(expected);
});

it('unloads idle journals after compaction and reloads them on use', async () => {
  running = await startTestServer({ env: { JOURNAL_IDLE_SECONDS: '0' } });
  const c = await running.newClient();
  const id = await c.importMarkdown('idle\n');
  await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: ['more'] }]);
  expect(running.svc.ctx.registry.get(id)).toBeDefined();
  await running.svc.ctx.registry.sweepIdle(Date.now() + 1);
  expect(running.svc.ctx.registry.get(id)).toBeUndefined();
  expect(await c.content(id)).toBe('idle\n\nmore\n');
});
