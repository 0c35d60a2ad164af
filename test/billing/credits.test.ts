import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/billing/clock.ts';
import { STARTING_CREDIT_MICROS } from '../../server/billing/prices.ts';
import { ENDPOINT_CATALOG } from '../../server/endpoints.ts';
import { blocks, startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { DAY_START, newPrincipal } from './helpers.ts';

const priceOf = (endpoint: string, units?: number) => ENDPOINT_CATALOG.priceOf(endpoint, units);

let server: TestServer;
const clock = new ManualClock(DAY_START + 12 * 3_600_000);

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.close());

const ledger = () => server.svc.ctx.billing.credits;
const balance = (c: Client) => ledger().balance(c.orgId);
const engine = () => server.svc.ctx.engine;
const journalCount = async () => (await engine().get<{ n: number }>('SELECT COUNT(*) AS n FROM journals'))!.n;

describe('metering', () => {
  it('starts a new organization with $5 and reports it on GET /v1/usage with the price table', async () => {
    const c = await server.newClient('developer');
    const r = await c.get('/v1/usage');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      organization: { id: c.orgId, name: expect.any(String), tier: 'developer' },
      credit_balance: 5,
      usage: { minute: { requests: { 'GET /usage': 1 } }, day: { requests: { 'GET /usage': 1 } } },
    });
    expect(r.body.limits).toContainEqual(expect.objectContaining({ endpoint: 'GET /journals/content/{id}', per_minute: 10, per_day: null, custom: false }));
    expect(r.body.limits).toContainEqual(expect.objectContaining({ endpoint: 'POST /video/create', per_minute: 3, per_day: 50, custom: false }));
    expect(r.body.prices).toContainEqual(
      expect.objectContaining({ endpoint: 'PATCH /journals/editor/edit', usd: 0.0001, per_unit: { unit: 'operation', usd: 0.00001 } }),
    );
    expect(await balance(c)).toBe(STARTING_CREDIT_MICROS);
  });

  it('charges successful requests their listed price and nothing for failed ones', async () => {
    const c = await server.newClient('scale');
    let expected = STARTING_CREDIT_MICROS;
    const id = await c.importMarkdown('# Priced\n\ntext\n'); // under 1 KiB: base + 1 KiB
    expected -= priceOf('PUT /journals/editor/import_from_markdown', 1);
    expect(await balance(c)).toBe(expected);
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200);
    expected -= priceOf('GET /journals/content/{id}');
    expect(await balance(c)).toBe(expected);
    const model = await c.model(id);
    expected -= priceOf('GET /journals/editor/model/{journal_id}');
    const ops = [
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'one' }] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'two' }] },
    ];
    const headers = { 'Idempotency-Key': 'charge-once' };
    expect((await c.edit(id, ops, {}, headers)).status).toBe(200);
    expected -= priceOf('PATCH /journals/editor/edit', 2);
    expect(await balance(c)).toBe(expected);
    // a replay of the same idempotent request is not charged again
    expect((await c.edit(id, ops, {}, headers)).status).toBe(200);
    expect(await balance(c)).toBe(expected);
    // 404, 422 and 409 are free (a read that fails gets its price back)
    expect((await c.get('/v1/journals/content/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await c.put('/v1/journals/editor/create', { title: '' })).status).toBe(422);
    expect((await c.edit(id, ops, { expected_revision: 1 })).status).toBe(409);
    expect((await c.edit(id, [{ type: 'delete_node', nodeId: blocks(model)[0]!.id }], {}, { 'Idempotency-Key': 'x'.repeat(300) })).status).toBe(422);
    expect(await balance(c)).toBe(expected);
    expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    expected -= priceOf('DELETE /journals/editor/delete/{journal_id}');
    expect(await balance(c)).toBe(expected);
    const usage = await c.get('/v1/usage');
    expect(usage.body.credit_balance).toBe(expected / 1e6);
  });
});

describe('402 when the balance does not cover the price', () => {
  it('creates no journal, applies no edit, charges nothing', async () => {
    const c = await server.newClient('scale');
    const id = await c.importMarkdown('# Kept\n\nsame\n');
    const before = await c.model(id);
    const count = await journalCount();
    // below every write price (rename and delete are the cheapest), above the read price
    const short = priceOf('PATCH /journals/editor/rename') - 1;
    await ledger().set(c.orgId, short);

    const create = await c.put('/v1/journals/editor/create', { title: 'Unpaid' });
    expect(create.status).toBe(402);
    expect(create.body).toEqual({ error: expect.any(String), balance: short / 1e6, required: 0.0001 });
    const imp = await c.put('/v1/journals/editor/import_from_markdown', { markdown: 'x'.repeat(5000) });
    expect(imp.status).toBe(402);
    expect(imp.body.required).toBe(priceOf('PUT /journals/editor/import_from_markdown', 5) / 1e6);
    const edit = await c.edit(id, [{ type: 'update_node', nodeId: blocks(before)[1]!.id, nodeType: 'paragraph', params: [{ content: 'changed' }] }], {}, { 'Idempotency-Key': 'unpaid-1' });
    expect(edit.status).toBe(402);
    const rename = await c.patch('/v1/journals/editor/rename', { journal_id: id, title: 'Renamed' });
    expect(rename.status).toBe(402);
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.status).toBe(402);

    expect(await journalCount()).toBe(count);
    expect(await balance(c)).toBe(short);
    const after = await c.model(id); // reads still fit the balance
    expect(after.model).toEqual(before.model);
    expect(after.revision).toBe(before.revision);
    expect(await c.content(id)).toBe('# Kept\n\nsame\n');
    // the 402 stored no idempotency record: once paid for, the same key applies the edit
    await ledger().set(c.orgId, 1_000_000);
    const paid = await c.edit(id, [{ type: 'update_node', nodeId: blocks(before)[1]!.id, nodeType: 'paragraph', params: [{ content: 'changed' }] }], {}, { 'Idempotency-Key': 'unpaid-1' });
    expect(paid.status).toBe(200);
    expect(paid.body.applied).toBe(true);
  });

  it('refuses reads with 402 at a zero balance', async () => {
    const c = await server.newClient('scale');
    await ledger().set(c.orgId, 0);
    const r = await c.get('/v1/journals/list');
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: expect.any(String), balance: 0, required: priceOf('GET /journals/list') / 1e6 });
    expect(r.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    // the usage report is free
    expect((await c.get('/v1/usage')).status).toBe(200);
  });

  it('never overdraws under concurrent requests', async () => {
    const c = await server.newClient('enterprise');
    const price = priceOf('PUT /journals/editor/create');
    await ledger().set(c.orgId, price * 7 + price / 2);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => c.put('/v1/journals/editor/create', { title: `race ${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(23);
    expect(await balance(c)).toBe(price / 2);
    const list = await c.get('/v1/journals/list');
    expect(list.body.journals).toHaveLength(7);
  });

  it('never overdraws with concurrent reads and writes mixed', async () => {
    const c = await server.newClient('enterprise');
    const id = await c.importMarkdown('# Mixed\n');
    await ledger().set(c.orgId, 1_000);
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? c.get(`/v1/journals/content/${id}`) : c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: `p${i}` }] }]),
    );
    const results = await Promise.all(calls);
    const paid = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402).length;
    expect(paid + refused).toBe(40);
    expect(refused).toBeGreaterThan(0);
    expect(await balance(c)).toBeGreaterThanOrEqual(0);
    const edits = results.filter((r, i) => i % 2 === 0 && r.status === 200).length;
    const reads = results.filter((r, i) => i % 2 === 1 && r.status === 200).length;
    expect(await balance(c)).toBe(1_000 - edits * priceOf('PATCH /journals/editor/edit', 1) - reads * priceOf('GET /journals/content/{id}'));
  });
});

describe('reservations for asynchronous work', () => {
  it('holds the price at creation and settles the real cost', async () => {
    const p = await newPrincipal(engine(), 'developer');
    const r = await ledger().reserve(p.orgId, 50_000, 'practice set');
    expect(r).toMatchObject({ status: 'held', amount_micros: 50_000, purpose: 'practice set' });
    expect(await ledger().balance(p.orgId)).toBe(STARTING_CREDIT_MICROS - 50_000);
    expect(await ledger().settle(r.id, 30_000)).toEqual({ cost_micros: 30_000, balance_micros: STARTING_CREDIT_MICROS - 30_000 });
    expect(await ledger().reservation(r.id)).toMatchObject({ status: 'settled', cost_micros: 30_000 });
    await expect(ledger().settle(r.id, 1)).rejects.toThrow(/already settled/);
    await expect(ledger().refund(r.id)).rejects.toThrow(/already settled/);
  });

  it('refunds a failed job in full', async () => {
    const p = await newPrincipal(engine(), 'developer');
    const r = await ledger().reserve(p.orgId, 100_000, 'video');
    expect(await ledger().refund(r.id)).toEqual({ balance_micros: STARTING_CREDIT_MICROS });
    expect(await ledger().reservation(r.id)).toMatchObject({ status: 'refunded', cost_micros: 0 });
  });

  it('refuses a reservation the balance cannot hold, and caps a cost above the reservation at the balance', async () => {
    const p = await newPrincipal(engine(), 'developer');
    await ledger().set(p.orgId, 60_000);
    await expect(ledger().reserve(p.orgId, 60_001, 'video')).rejects.toThrow(/Insufficient credit/);
    expect(await ledger().balance(p.orgId)).toBe(60_000);
    const r = await ledger().reserve(p.orgId, 50_000, 'video');
    expect(await ledger().settle(r.id, 80_000)).toEqual({ cost_micros: 60_000, balance_micros: 0 });
    const r2 = await ledger().reserve(p.orgId, 0, 'free');
    expect((await ledger().settle(r2.id, 0)).cost_micros).toBe(0);
    await expect(ledger().settle('nope', 1)).rejects.toThrow(/no credit reservation/);
    await expect(ledger().reserve(p.orgId, -1, 'bad')).rejects.toThrow(/non-negative integer/);
  });

  it('rolls a reservation back with the transaction of its job', async () => {
    const p = await newPrincipal(engine(), 'developer');
    await expect(
      engine().transaction(async (tx) => {
        await ledger().reserve(p.orgId, 10_000, 'practice set', tx);
        throw new Error('job insert failed');
      }),
    ).rejects.toThrow('job insert failed');
    expect(await ledger().balance(p.orgId)).toBe(STARTING_CREDIT_MICROS);
    expect(await engine().get('SELECT COUNT(*) AS n FROM credit_reservations WHERE org_id = ?', [p.orgId])).toEqual({ n: 0 });
  });
});

describe('what admission keeps in memory', () => {
  it('is written to the store by flush (every second and at shutdown)', async () => {
    const c = await server.newClient('developer');
    const stored = async () => (await engine().get<{ b: number }>('SELECT credit_balance_micros AS b FROM organizations WHERE id = ?', [c.orgId]))!.b;
    const counted = () => engine().get("SELECT count FROM rate_counters WHERE org_id = ? AND endpoint = 'GET /journals/list' AND win = 'day'", [c.orgId]);
    await server.svc.ctx.billing.flush();
    expect((await c.get('/v1/journals/list')).status).toBe(200);
    expect(await balance(c)).toBe(STARTING_CREDIT_MICROS - 10); // this process sees the charge at once
    await server.svc.ctx.billing.flush();
    expect(await stored()).toBe(STARTING_CREDIT_MICROS - 10);
    expect(await counted()).toEqual({ count: 1 });
  });
});
