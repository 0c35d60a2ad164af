import { expect, it } from 'vitest';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

it('pages newest first over 45+ journals with no duplicates or gaps while journals are created and deleted between pages', async () => {
  const initial: string[] = [];
  for (let i = 0; i < 47; i++) {
    const r = await c.put('/v1/journals/editor/create', { title: `J${i}` });
    initial.push(r.body.journal_id);
  }
  const seen: string[] = [];
  let token: number | undefined;
  let pages = 0;
  const createdDuring: string[] = [];
  do {
    const r = await c.get(`/v1/journals/list?page_size=10${token !== undefined ? `&page_token=${token}` : ''}`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    for (const j of r.body.journals) {
      expect(Object.keys(j).sort()).toEqual(['created_at', 'id', 'order_index', 'parent_item', 'publish_status', 'publish_url', 'title', 'updated_at']);
      seen.push(j.id);
    }
    token = r.body.next_page_token;
    if (token !== undefined) expect(Number.isInteger(token)).toBe(true);
    pages++;
    // concurrent writers: new journals appear (on page one, already read) between our pages
    const n = await c.put('/v1/journals/editor/create', { title: `new${pages}` });
    createdDuring.push(n.body.journal_id);
  } while (token !== undefined);
  expect(pages).toBe(5);
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual([...initial].reverse());
  // a fresh listing starts with the newest
  const first = await c.get('/v1/journals/list');
  expect(first.body.journals).toHaveLength(20);
  expect(first.body.journals[0].id).toBe(createdDuring[createdDuring.length - 1]);
});

it('is stable when journals on later pages are deleted between pages', async () => {
  const d = await server.newClient();
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await d.put('/v1/journals/editor/create', { title: `D${i}` })).body.journal_id);
  const p1 = await d.get('/v1/journals/list?page_size=5');
  expect(p1.body.journals.map((j: any) => j.id)).toEqual(ids.slice(7).reverse());
  await d.del(`/v1/journals/editor/delete/${ids[5]}`);
  const p2 = await d.get(`/v1/journals/list?page_size=5&page_token=${p1.body.next_page_token}`);
  expect(p2.body.journals.map((j: any) => j.id)).toEqual([ids[6], ids[4], ids[3], ids[2], ids[1]]);
  const p3 = await d.get(`/v1/journals/list?page_size=5&page_token=${p2.body.next_page_token}`);
  expect(p3.body.journals.map((j: any) => j.id)).toEqual([ids[0]]);
  expect(p3.body.next_page_token).toBeUndefined();
});

it('returns an empty page for a key with no journals', async () => {
  const e = await server.newClient();
  const r = await e.get('/v1/journals/list');
  expect(r.body).toMatchObject({ success: true, journals: [] });
  expect('next_page_token' in r.body).toBe(false);
});
