/**
 * Two instances on one store (PostgreSQL project: two servers on the same database): an
 * Idempotency-Key is honoured whichever instance sees the retry, even when both copies of a
 * request arrive at once, and an edit made through one instance is read through the other at once.
 * On SQLite (one process per database) the same requests go to one instance.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, startTestServer, testEngine, textOf, type TestServer } from '../helpers/server.ts';

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

it('the same Idempotency-Key sent to two instances at once applies once; both answer the same', async () => {
  const id = await ca.importMarkdown('start\n');
  for (let round = 0; round < 5; round++) {
    const headers = { 'Idempotency-Key': `twice-${round}` };
    const ops = [{ type: 'create_node', nodeType: 'paragraph', params: [`once ${round}`] }];
    const [ra, rb] = await Promise.all([ca.edit(id, ops, {}, headers), cb.edit(id, ops, {}, headers)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body).toEqual(rb.body);
    // A later retry on either instance gets the same answer again.
    expect((await cb.edit(id, ops, {}, headers)).body).toEqual(ra.body);
  }
  const texts = (await cb.model(id)).model.content.map(textOf);
  for (let round = 0; round < 5; round++) expect(texts.filter((t: string) => t === `once ${round}`)).toHaveLength(1);
});

it('an edit through one instance is read through the other at once', async () => {
  const id = await ca.importMarkdown('start\n');
  await cb.model(id); // loaded on b before the edit
  for (let i = 0; i < 5; i++) {
    const r = await ca.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [`seen ${i}`] }], { sync_realtime_state: i % 2 === 0 });
    expect(r.status).toBe(200);
    const read = await cb.get(`/v1/journals/content/${id}`);
    expect(read.body.content).toContain(`seen ${i}`);
    expect(read.body.revision).toBe(r.body.revision);
  }
});
