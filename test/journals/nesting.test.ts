/**
 * Nested journals (issue 32): PATCH /v1/journals/editor/move, GET /v1/journals/{id}/children in
 * order, parent_item in list and content answers, a cycle is a 422, deleting a parent takes its
 * subtree to the trash (the deleted record's parent_item and order_indexes) and restoring brings
 * it back.
 */
import { describe, expect, it } from 'vitest';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;
let other: Client;
serverSuite({}, async (s, client) => {
  server = s;
  c = await s.newClient();
  other = client;
});

const move = (client: Client, journal_id: string, parent_item: string | null, index?: number) => client.patch('/v1/journals/editor/move', { journal_id, parent_item, index });
const childIds = async (id: string) => (await c.get(`/v1/journals/${id}/children`)).body.order_indexes as string[];
const balance = (client: Client): Promise<number> => server.svc.ctx.billing.credits.balance(client.orgId);

describe('nesting', () => {
  it('moves journals under a parent in order, reorders them, and lists children in order', async () => {
    const [p, a, b, d] = await Promise.all(['P', 'A', 'B', 'D'].map((t) => c.importMarkdown(`# ${t}\n`, t)));
    const before = await balance(c);
    const m = await move(c, a, p);
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ journal_id: a, parent_item: p, index: 0, order_indexes: [a] });
    expect(await balance(c)).toBe(before - 50);
    await move(c, b, p);
    await move(c, d, p, 0);
    expect(await childIds(p)).toEqual([d, a, b]);
    expect((await move(c, b, p, 1)).body.order_indexes).toEqual([d, b, a]);
    expect((await move(c, d, p, 99)).body.order_indexes).toEqual([b, a, d]);
    const children = (await c.get(`/v1/journals/${p}/children`)).body.children;
    expect(children.map((x: { title: string }) => x.title)).toEqual(['B', 'A', 'D']);
    expect(children[0]).toMatchObject({ parent_item: p, publish_status: 'private' });
    // parent_item in the list and content answers.
    const list = (await c.get('/v1/journals/list?page_size=100')).body.journals;
    expect(list.find((j: { id: string }) => j.id === a)).toMatchObject({ parent_item: p, order_index: 1 });
    expect(list.find((j: { id: string }) => j.id === p)).toMatchObject({ parent_item: '', order_index: null });
    expect((await c.get(`/v1/journals/content/${a}`)).body).toMatchObject({ parent_item: p });
    // Back to the top.
    expect((await move(c, a, '')).body).toMatchObject({ parent_item: '' });
    expect(await childIds(p)).toEqual([b, d]);
  });

  it('refuses a cycle, a missing parent and bad input with 422, changing nothing', async () => {
    const [x, y, z] = await Promise.all(['X', 'Y', 'Z'].map((t) => c.importMarkdown(`# ${t}\n`, t)));
    await move(c, y, x);
    await move(c, z, y);
    const before = await balance(c);
    for (const [id, parent] of [
      [x, x],
      [x, y],
      [x, z],
    ]) {
      const r = await move(c, id!, parent!);
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'parent_item'], type: 'value_error.cycle' });
    }
    expect((await move(c, x, 'nope')).body.detail[0].loc).toEqual(['body', 'parent_item']);
    expect((await move(c, x, y, -1)).status).toBe(422);
    expect((await c.patch('/v1/journals/editor/move', { journal_id: x, parent_item: y, index: 1.5 })).status).toBe(422);
    expect((await c.patch('/v1/journals/editor/move', { parent_item: y })).status).toBe(422);
    expect(await balance(c)).toBe(before);
    expect(await childIds(x)).toEqual([y]);
    expect(await childIds(y)).toEqual([z]);
    // Another key: 404 for its journal, 422 for ours as a parent.
    expect((await move(other, x, null)).status).toBe(404);
    const mine = await other.importMarkdown('# mine\n');
    expect((await move(other, mine, x)).status).toBe(422);
    expect((await other.get(`/v1/journals/${x}/children`)).status).toBe(404);
  });

  it('deleting a parent takes its subtree to the trash; restoring brings it back', async () => {
    const [p, a, b, lone] = await Promise.all(['P', 'A', 'B', 'L'].map((t) => c.importMarkdown(`# ${t}\n`, t)));
    await move(c, a, p);
    await move(c, b, a);
    await move(c, lone, p);
    // One child deleted alone first: it stays in the trash when the parent comes back.
    expect((await c.del(`/v1/journals/editor/delete/${lone}`)).status).toBe(200);
    const del = await c.del(`/v1/journals/editor/delete/${p}`);
    expect(del.body.deleted_journal_data).toMatchObject({ parent_item: '', order_indexes: [a] });
    const trash = (await c.get('/v1/journals/trash?page_size=100')).body.journals.map((j: { id: string }) => j.id);
    expect(trash).toEqual(expect.arrayContaining([p, a, b, lone]));
    expect((await c.get(`/v1/journals/content/${b}`)).status).toBe(404);
    expect((await c.post(`/v1/journals/editor/restore/${p}`)).status).toBe(200);
    expect(await childIds(p)).toEqual([a]);
    expect(await childIds(a)).toEqual([b]);
    expect((await c.get(`/v1/journals/content/${b}`)).status).toBe(200);
    // The one deleted alone comes back at the top when restored after its parent was gone.
    await c.del(`/v1/journals/editor/delete/${p}`);
    expect((await c.post(`/v1/journals/editor/restore/${a}`)).status).toBe(200);
    expect((await c.get(`/v1/journals/content/${a}`)).body.parent_item).toBe('');
    expect((await c.get(`/v1/journals/content/${b}`)).body.parent_item).toBe(a);
    // Purging a parent purges its subtree.
    expect((await c.del(`/v1/journals/editor/delete/${a}?permanent=true`)).status).toBe(200);
    expect((await c.post(`/v1/journals/editor/restore/${b}`)).status).toBe(404);
    expect((await c.get(`/v1/journals/content/${b}`)).status).toBe(404);
  });

  it('two moves at once that would make a cycle between them: one lands, the other is a 422', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all(['A', 'B'].map((t) => c.importMarkdown(`# ${t}\n`, `${t}${round}`)));
      const [ra, rb] = await Promise.all([move(c, a, b), move(c, b, a)]);
      expect([ra.status, rb.status].sort()).toEqual([200, 422]);
      const parentOf = async (id: string) => (await c.get(`/v1/journals/content/${id}`)).body.parent_item;
      const [pa, pb] = [await parentOf(a), await parentOf(b)];
      expect(pa === b && pb === a).toBe(false);
    }
  });
});
