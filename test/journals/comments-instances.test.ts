/**
 * Comments on two instances of one store (PostgreSQL project: two servers on the same database;
 * on SQLite both clients use one server): replies written at once through both are all kept, a
 * comment made through one is listed through the other at once, and delete removes its replies.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, startTestServer, testEngine, type TestServer } from '../helpers/server.ts';

let a: TestServer;
let b: TestServer;
let ca: Client;
let cb: Client;

beforeAll(async () => {
  a = await startTestServer();
  b = testEngine === 'postgres' ? await startTestServer({ dataDir: a.dataDir }) : a;
  ca = await a.newClient();
  cb = new Client(b.url, ca.key, ca.orgId);
});
afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
});

it('replies sent at once through two instances are all kept, in order of time', async () => {
  const id = await ca.importMarkdown('# T\n\nSome text here.\n');
  const block = (await ca.model(id)).model.content[1].attrs.id;
  const made = await ca.post(`/v1/journals/${id}/comments`, { block_id: block, from: 0, to: 4, body: 'first' });
  const cid = made.body.comment_id;
  expect((await cb.get(`/v1/journals/${id}/comments/${cid}`)).body.comment.body).toBe('first');
  for (let round = 0; round < 4; round++) {
    const sent = await Promise.all([ca, cb, ca, cb].map((c, i) => c.post(`/v1/journals/${id}/comments/${cid}/replies`, { body: `r${round}-${i}` })));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  }
  for (const c of [ca, cb]) {
    const replies = (await c.get(`/v1/journals/${id}/comments/${cid}`)).body.comment.replies.map((r: { body: string }) => r.body);
    expect(replies.sort()).toEqual([0, 1, 2, 3].flatMap((round) => [0, 1, 2, 3].map((i) => `r${round}-${i}`)).sort());
  }
  // Resolving through one and replying through the other at once: both hold.
  await Promise.all([ca.post(`/v1/journals/${id}/comments/${cid}/resolve`), cb.post(`/v1/journals/${id}/comments/${cid}/replies`, { body: 'late' })]);
  const now = (await cb.get(`/v1/journals/${id}/comments/${cid}`)).body.comment;
  expect(now.resolved).toBe(true);
  expect(now.replies).toHaveLength(17);
  expect((await cb.del(`/v1/journals/${id}/comments/${cid}`)).status).toBe(200);
  expect((await ca.get(`/v1/journals/${id}/comments`)).body.comments).toEqual([]);
  const live = a.svc.ctx.registry.get(id)!;
  expect([...live.doc.getMap('comments').keys()]).toEqual([]);
});
