/**
 * Idempotency-Key on journal create and import, with the edit endpoint's semantics: the same key
 * and body replay the first answer (no second journal, no second charge), the same key with
 * another body (or on another endpoint) is 422, a malformed key is 422, and a refused request
 * (402) records nothing, so its retry runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';

const CREATE = '/v1/journals/editor/create';
const IMPORT = '/v1/journals/editor/import_from_markdown';
const LIST = '/v1/journals/list';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const balance = (c: Client): Promise<number> => server.svc.ctx.billing.credits.balance(c.orgId);
const key = (k: string) => ({ 'Idempotency-Key': k });
const journalIds = async (c: Client): Promise<string[]> => (await c.get(LIST)).body.journals.map((j: any) => j.id);

describe('PUT /v1/journals/editor/create with Idempotency-Key', () => {
  it('replays the first answer without a second journal or charge; another body is 422', async () => {
    const client = await server.newClient();
    const start = await balance(client);
    const first = await client.put(CREATE, { title: 'Once' }, key('create-1'));
    expect(first.status).toBe(200);
    const second = await client.put(CREATE, { title: 'Once' }, key('create-1'));
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(client)).toBe(start - 100);

    const other = await client.put(CREATE, { title: 'Twice' }, key('create-1'));
    expect(other.status).toBe(422);
    expect(other.body.detail[0]).toMatchObject({ loc: ['header', 'Idempotency-Key'] });
    expect(await balance(client)).toBe(start - 100);
    expect(await journalIds(client)).toEqual([first.body.journal_id]);
  });

  it('a create without a body replays too; without a key every create makes a journal', async () => {
    const client = await server.newClient();
    const a = await client.put(CREATE, undefined, key('empty'));
    const b = await client.put(CREATE, undefined, key('empty'));
    expect(b.body.journal_id).toBe(a.body.journal_id);
    const c = await client.put(CREATE, {});
    const d = await client.put(CREATE, {});
    expect(new Set([a.body.journal_id, c.body.journal_id, d.body.journal_id]).size).toBe(3);
  });

  it('refuses a malformed key with 422 and creates nothing', async () => {
    const client = await server.newClient();
    for (const bad of ['', 'x'.repeat(256), 'has space']) {
      const r = await client.put(CREATE, { title: 't' }, key(bad));
      expect(r.status, JSON.stringify(bad)).toBe(422);
    }
    expect(await journalIds(client)).toEqual([]);
  });

  it('a 402 records no key: the retry after a top-up creates the journal', async () => {
    const client = await server.newClient();
    await server.svc.ctx.billing.credits.set(client.orgId, 50);
    expect((await client.put(CREATE, { title: 'Paid' }, key('after-402'))).status).toBe(402);
    await server.svc.ctx.billing.credits.set(client.orgId, 1_000_000);
    const r = await client.put(CREATE, { title: 'Paid' }, key('after-402'));
    expect(r.status).toBe(200);
    expect(await journalIds(client)).toEqual([r.body.journal_id]);
  });
});

describe('PUT /v1/journals/editor/import_from_markdown with Idempotency-Key', () => {
  it('replays the first answer without a second journal or charge; another body is 422', async () => {
    const client = await server.newClient();
    const body = { markdown: '# Imported\n\nOnce *only*.\n', title: 'Imported once' };
    const start = await balance(client);
    const first = await client.put(IMPORT, body, key('import-1'));
    expect(first.status).toBe(200);
    const second = await client.put(IMPORT, body, key('import-1'));
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(client)).toBe(start - 220);

    const other = await client.put(IMPORT, { ...body, markdown: '# Other\n' }, key('import-1'));
    expect(other.status).toBe(422);
    expect(other.body.detail[0]).toMatchObject({ loc: ['header', 'Idempotency-Key'] });
    // The same key on another endpoint is another request.
    const elsewhere = await client.put(CREATE, { title: 'Imported once' }, key('import-1'));
    expect(elsewhere.status).toBe(422);
    expect(await balance(client)).toBe(start - 220);
    expect(await journalIds(client)).toEqual([first.body.journal_id]);
    expect(await client.content(first.body.journal_id)).toContain('Once *only*.');
  });

  it('concurrent retries with one key make one journal', async () => {
    const client = await server.newClient();
    const body = { markdown: '# Race\n\nText.\n' };
    const start = await balance(client);
    const replies = await Promise.all(Array.from({ length: 4 }, () => client.put(IMPORT, body, key('race'))));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(replies.map((r) => r.body.journal_id)).size).toBe(1);
    expect(await balance(client)).toBe(start - 220);
    expect(await journalIds(client)).toEqual([replies[0]!.body.journal_id]);
  });
});
