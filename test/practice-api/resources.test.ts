/**
 * Practice sets as resources through the real HTTP API: listed newest first with page_size and
 * page_token, deleted (a pending set's job is cancelled, the problems already made are charged
 * and the rest refunded), another key's and another organization's sets are 404, and
 * Idempotency-Key on create (a replay makes no second set and reserves nothing twice).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReply, startFakeOpenAI, type FakeProvider } from '../llm/fake-openai.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { CREATE, createSet, STATUS, until, waitForSet } from './helpers.ts';

const LIST = '/v1/interactives/practice/list';
const DELETE = '/v1/interactives/practice/delete';

let server: TestServer;
let fake: FakeProvider;
/** Problems from this number on are held by the provider until the test ends. */
let holdFrom = Infinity;

beforeAll(async () => {
  fake = await startFakeOpenAI((r) => ((r.problem ?? 0) >= holdFrom ? 'hang' : defaultReply(r)));
  server = await startTestServer({ env: { LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-test', LLM_TIMEOUT_MS: '120000', JOB_POLL_MS: '50' } });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

const balance = (c: Client): Promise<number> => server.svc.ctx.billing.credits.balance(c.orgId);

describe('GET /v1/interactives/practice/list', () => {
  it('pages newest first with page_size and page_token, only the key own sets', async () => {
    const client = await server.newClient();
    const other = await server.newClient();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createSet(client, { set_description: 'linear equations', count: 1, engine: 'offline', set_name: `set ${i}` }));
    await createSet(other, { set_description: 'linear equations', count: 1, engine: 'offline' });

    const seen: string[] = [];
    let token: number | undefined;
    const sizes: number[] = [];
    do {
      const r = await client.get(`${LIST}?page_size=2${token !== undefined ? `&page_token=${token}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
      sizes.push(r.body.sets.length);
      seen.push(...r.body.sets.map((s: any) => s.set_id));
      token = r.body.next_page_token;
      if (token !== undefined) expect(Number.isInteger(token)).toBe(true);
    } while (token !== undefined);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual([...ids].reverse());

    const first = (await client.get(LIST)).body.sets[0];
    expect(first).toMatchObject({ set_id: ids[4], set_name: 'set 4', total_problems: 1 });
    expect(Object.keys(first).sort()).toEqual(['completed_problems', 'cost', 'created_at', 'engine', 'set_id', 'set_name', 'status', 'total_problems', 'updated_at']);

    const o = await other.get(LIST);
    expect(o.body.sets).toHaveLength(1);
    expect(ids).not.toContain(o.body.sets[0].set_id);
  });

  it('refuses a bad page_size or page_token with 422', async () => {
    const client = await server.newClient();
    for (const q of ['page_size=0', 'page_size=101', 'page_token=abc', 'page_token=-1']) {
      const r = await client.get(`${LIST}?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('query');
    }
  });
});

describe('DELETE /v1/interactives/practice/delete/{set_id}', () => {
  it('deletes a finished set: gone from status and list, charged as a write, no refund', async () => {
    const client = await server.newClient();
    const id = await createSet(client, { set_description: 'linear equations', count: 2, engine: 'offline' });
    const done = await waitForSet(client, id);
    expect(done.status).toBe('completed');
    const before = await balance(client);
    const r = await client.del(`${DELETE}/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, set_id: id, status: 'completed', cancelled: false, cost: 0.02, refunded: 0 });
    expect(await balance(client)).toBe(before - 50);
    // Twice: the second is a 404 and costs nothing.
    const again = await client.del(`${DELETE}/${id}`);
    expect(again.status).toBe(404);
    expect(await balance(client)).toBe(before - 50);
    expect((await client.get(`${STATUS}/${id}`)).status).toBe(404);
    expect((await client.get(LIST)).body.sets).toEqual([]);
  });

  it('cancels a set being generated: the problems made are charged, the rest refunded', async () => {
    holdFrom = 3;
    try {
      const client = await server.newClient();
      const start = await balance(client);
      const id = await createSet(client, { set_description: 'doubling numbers', count: 5, problem_type: 'frq', engine: 'llm' });
      expect(start - (await balance(client))).toBe(50_000); // 5 problems reserved
      const reservationId = (await server.svc.ctx.practice.store.get(id))!.reservation_id!;
      await waitForSet(client, id, (s) => s.completed_problems === 2);
      await until(() => fake.requests.some((r) => r.problem === 3 && r.body.messages.some((m: any) => m.content.includes('doubling'))), 'the third problem request');
      const jobId = (await server.svc.ctx.practice.store.get(id))!.job_id!;

      const before = await balance(client);
      const r = await client.del(`${DELETE}/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, set_id: id, status: 'pending', cancelled: true, cost: 0.02, refunded: 0.03 });
      // The deletion paid, the three problems not made given back; the reservation keeps the two made.
      expect(await balance(client)).toBe(before - 50 + 30_000);
      expect(await server.svc.ctx.billing.credits.reservation(reservationId)).toMatchObject({ status: 'settled', amount_micros: 50_000, cost_micros: 20_000 });
      const job = await server.svc.ctx.jobs.store.get(jobId);
      expect(job).toMatchObject({ state: 'failed', lease_owner: null });
      expect(job!.last_error).toMatch(/deleted/);
      // The run in this process has stopped (the answer waited for it) and left nothing behind.
      expect(server.svc.ctx.jobs.running).toBe(0);
      expect(await server.svc.ctx.engine.all('SELECT idx FROM practice_problems WHERE set_id = ?', [id])).toEqual([]);
      expect((await client.get(`${STATUS}/${id}`)).status).toBe(404);
    } finally {
      holdFrom = Infinity;
    }
  });

  it('is a 404 for another key, another organization and unknown ids, changing nothing', async () => {
    const client = await server.newClient();
    const sameOrg = await server.sameOrgClient(client);
    const otherOrg = await server.newClient();
    const id = await createSet(client, { set_description: 'linear equations', count: 1, engine: 'offline' });
    await waitForSet(client, id);
    for (const c of [sameOrg, otherOrg]) {
      const before = await balance(c);
      const r = await c.del(`${DELETE}/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Practice set not found' });
      expect((await c.get(`${STATUS}/${id}`)).status).toBe(404);
      expect(await balance(c)).toBe(before);
    }
    expect((await client.del(`${DELETE}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await client.get(`${STATUS}/${id}`)).body.status).toBe('completed');
  });

  it('402 when the balance does not cover the deletion: the set stays', async () => {
    const client = await server.newClient();
    const id = await createSet(client, { set_description: 'linear equations', count: 1, engine: 'offline' });
    await waitForSet(client, id);
    await server.svc.ctx.billing.credits.set(client.orgId, 10);
    const r = await client.del(`${DELETE}/${id}`);
    expect(r.status).toBe(402);
    expect((await client.get(`${STATUS}/${id}`)).body.status).toBe('completed');
  });
});

describe('Idempotency-Key on POST /v1/interactives/practice/create', () => {
  it('replays the first answer without a second set or reservation; another body is 422', async () => {
    const client = await server.newClient();
    const body = { set_description: 'linear equations', count: 3, engine: 'offline' };
    const headers = { 'Idempotency-Key': 'practice-create-1' };
    const start = await balance(client);
    const first = await client.post(CREATE, body, headers);
    expect(first.status).toBe(200);
    const second = await client.post(CREATE, body, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(start - (await balance(client))).toBe(30_000);

    const other = await client.post(CREATE, { ...body, count: 4 }, headers);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(start - (await balance(client))).toBe(30_000);
    expect((await client.get(LIST)).body.sets.map((s: any) => s.set_id)).toEqual([first.body.set_id]);

    // The key is the caller's: another key may use the same string for its own set.
    const sameOrg = await server.sameOrgClient(client);
    const theirs = await sameOrg.post(CREATE, body, headers);
    expect(theirs.status).toBe(200);
    expect(theirs.body.set_id).not.toBe(first.body.set_id);
  });

  it('a refused create (402) records no key: the retry after a top-up creates the set', async () => {
    const client = await server.newClient();
    await server.svc.ctx.billing.credits.set(client.orgId, 5_000);
    const body = { set_description: 'linear equations', count: 1, engine: 'offline' };
    const headers = { 'Idempotency-Key': 'practice-402' };
    expect((await client.post(CREATE, body, headers)).status).toBe(402);
    await server.svc.ctx.billing.credits.set(client.orgId, 1_000_000);
    const r = await client.post(CREATE, body, headers);
    expect(r.status).toBe(200);
    expect((await client.get(LIST)).body.sets).toHaveLength(1);
  });
});
