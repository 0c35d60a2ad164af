/**
 * Retention of automatic versions (docs/versions.md): all kept for a day, then one per day up to
 * the tier's window, then dropped; named ones and the newest always kept. Every version left reads
 * back exactly as it was taken, though the deltas it was stored against were dropped.
 */
import { describe, expect, it } from 'vitest';
import { AUTO_VERSION_DAYS, versionsToThin } from '../../server/journals/versions/retention.ts';
import { blocks, type Client, serverSuite, type TestServer } from '../helpers/server.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-15T12:00:00Z');
const at = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString();

describe('versionsToThin', () => {
  it('keeps named ones, the newest, everything under a day, one per day after, none past the window', () => {
    const v = [
      { seq: 1, kind: 'auto', created_at: at(400) },
      { seq: 2, kind: 'named', created_at: at(400) },
      { seq: 3, kind: 'auto', created_at: at(40) },
      { seq: 4, kind: 'auto', created_at: at(3.2) },
      { seq: 5, kind: 'auto', created_at: at(3.1) },
      { seq: 6, kind: 'restore', created_at: at(3) },
      { seq: 7, kind: 'auto', created_at: at(0.5) },
      { seq: 8, kind: 'auto', created_at: at(0.4) },
    ];
    expect(versionsToThin(v, 'enterprise', NOW)).toEqual([1, 4]);
    expect(versionsToThin(v, 'developer', NOW)).toEqual([1, 3, 4]);
    expect(versionsToThin([{ seq: 9, kind: 'auto', created_at: at(1000) }], 'developer', NOW)).toEqual([]); // the newest
    expect(AUTO_VERSION_DAYS.developer).toBeLessThan(AUTO_VERSION_DAYS.scale);
  });
});

describe('thinning stored versions', () => {
  let server: TestServer;
  let c: Client;
  serverSuite({ tier: 'developer' }, (s, client) => {
    server = s;
    c = client;
  });

  it('drops what retention says and every version left still reads back as it was', async () => {
    const id = await c.importMarkdown('# Log\n\nentry 0\n');
    const taken: { version_id: string; content: string }[] = [];
    const named = (await c.post(`/v1/journals/versions/${id}`, { name: 'start' })).body;
    taken.push({ version_id: named.version_id, content: await c.content(id) });
    // Atomic edits take an automatic version of the journal just before each.
    for (let i = 1; i <= 6; i++) {
      const before = await c.content(id);
      const last = blocks(await c.model(id)).at(-1)!;
      const r = await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: `entry ${i}` }], referenceId: last.id, position: 'after' }], { atomic: true });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const list = (await c.get(`/v1/journals/versions/${id}`)).body.versions;
      expect(list[0]).toMatchObject({ kind: 'auto', name: 'before bulk edit' });
      taken.push({ version_id: list[0].version_id, content: before });
    }
    // Their ages: named 400 days, autos 400 (past the developer tier's 30), 3.3, 3.2 (same day), 2, 0.5, 0.1 days.
    const ages = [400, 400, 3.3, 3.2, 2, 0.5, 0.1];
    const engine = server.svc.ctx.engine;
    for (const [i, t] of taken.entries()) await engine.run('UPDATE journal_versions SET created_at = ? WHERE id = ?', [new Date(Date.now() - ages[i]! * DAY).toISOString(), t.version_id]);
    const day = (daysAgo: number) => Math.floor((Date.now() - daysAgo * DAY) / DAY);
    const sameDay = day(3.3) === day(3.2);

    expect(await server.svc.ctx.versions.thin()).toBe(sameDay ? 2 : 1);
    const left = (await c.get(`/v1/journals/versions/${id}`)).body.versions.map((v: { version_id: string }) => v.version_id);
    const expected = taken.filter((_, i) => i !== 1 && !(sameDay && i === 2)).map((t) => t.version_id);
    expect([...left].reverse()).toEqual(expected);
    for (const t of taken.filter((x) => left.includes(x.version_id))) {
      expect((await c.get(`/v1/journals/versions/${id}/${t.version_id}?format=markdown`)).body.content).toBe(t.content);
    }
    // A second round has nothing more to drop.
    expect(await server.svc.ctx.versions.thin()).toBe(0);
  });
});
