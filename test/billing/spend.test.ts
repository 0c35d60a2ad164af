/**
 * GET /v1/usage's spend per UTC day and endpoint, and what is left of each rate-limit window
 * (docs/billing.md): what was paid is what the balance lost, day by day; failed reads and 402s
 * are not spend; settled practice sets count at their cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/billing/clock.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';

const clock = new ManualClock(Date.UTC(2030, 0, 1, 23, 58, 0));
let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer({ clock });
  c = await server.newClient('developer');
});
afterAll(async () => {
  await server.close();
});

const spendOf = (body: any, date: string) => body.spend.days.find((d: any) => d.date === date);

describe('spend per endpoint per day', () => {
  it('reports what each endpoint cost each day, equal to what the balance lost', async () => {
    const id = await c.importMarkdown('# Cells\n\nThe cell is the unit of life.\n'); // 200 + 20 (one started KiB)
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200); // 10
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200); // 10
    expect((await c.get('/v1/journals/content/00000000-0000-4000-8000-000000000000')).status).toBe(404); // refunded
    clock.advance(3 * 60_000); // 2030-01-02
    expect((await c.put('/v1/journals/editor/create', { title: 'Day two' })).status).toBe(200); // 100
    expect((await c.patch('/v1/journals/editor/rename', { journal_id: id, title: 'Renamed' })).status).toBe(200); // 50
    expect((await c.patch('/v1/journals/editor/rename', { journal_id: id, title: '' })).status).toBe(422); // nothing

    const r = await c.get('/v1/usage?days=3');
    expect(r.status).toBe(200);
    expect(r.body.spend.from).toBe('2029-12-31');
    expect(r.body.spend.to).toBe('2030-01-02');
    expect(r.body.spend.days.map((d: any) => d.date)).toEqual(['2029-12-31', '2030-01-01', '2030-01-02']);
    expect(spendOf(r.body, '2029-12-31')).toEqual({ date: '2029-12-31', usd: 0, micros: 0, endpoints: [] });
    expect(spendOf(r.body, '2030-01-01')).toEqual({
      date: '2030-01-01',
      usd: 0.00024,
      micros: 240,
      endpoints: [
        { endpoint: 'PUT /journals/editor/import_from_markdown', usd: 0.00022, micros: 220, charges: 1 },
        { endpoint: 'GET /journals/content/{id}', usd: 0.00002, micros: 20, charges: 2 },
      ],
    });
    expect(spendOf(r.body, '2030-01-02').endpoints).toEqual([
      { endpoint: 'PUT /journals/editor/create', usd: 0.0001, micros: 100, charges: 1 },
      { endpoint: 'PATCH /journals/editor/rename', usd: 0.00005, micros: 50, charges: 1 },
    ]);
    expect(r.body.spend.total_micros).toBe(390);
    expect(5_000_000 - r.body.credit_balance_micros).toBe(r.body.spend.total_micros);

    // The same once written to the store (from memory until then).
    await server.svc.ctx.billing.flush();
    const stored = await c.get('/v1/usage?days=3');
    expect(stored.body.spend).toEqual(r.body.spend);
    const rows = await server.svc.ctx.engine.all('SELECT day, endpoint, micros FROM spend_daily WHERE org_id = ? ORDER BY day, endpoint', [c.orgId]);
    expect(rows.length).toBe(4);
  });

  it('counts a practice set when it is settled, at its cost', async () => {
    const before = (await c.get('/v1/usage?days=1')).body;
    const made = await c.post('/v1/interactives/practice/create', { set_description: 'linear equations', count: 2, problem_type: 'frq', engine: 'offline' });
    expect(made.status).toBe(200);
    let status: any;
    for (let i = 0; i < 300; i++) {
      status = (await c.get(`/v1/interactives/practice/status/${made.body.set_id}`)).body;
      if (status.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status.status, JSON.stringify(status)).toBe('completed');
    // The chart is told once the settlement has committed (after it, not inside it): another
    // connection can read the completed set a moment before that.
    const find = (u: any) => u.spend.days[0]?.endpoints.find((e: any) => e.endpoint === 'POST /interactives/practice/create');
    let after = (await c.get('/v1/usage?days=1')).body;
    for (let i = 0; i < 100 && !find(after); i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = (await c.get('/v1/usage?days=1')).body;
    }
    const entry = find(after);
    expect(entry).toEqual({ endpoint: 'POST /interactives/practice/create', usd: 0.02, micros: 20_000, charges: 1 });
    expect(before.credit_balance_micros - after.credit_balance_micros).toBe(after.spend.total_micros - before.spend.total_micros);
  });

  it('shows the limits in force with what is left of each window', async () => {
    clock.advance(60_000); // a fresh minute
    const id = await c.importMarkdown('Text\n');
    for (let i = 0; i < 3; i++) expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200);
    const r = await c.get('/v1/usage');
    const content = r.body.limits.find((l: any) => l.endpoint === 'GET /journals/content/{id}');
    expect(content).toEqual({ endpoint: 'GET /journals/content/{id}', per_minute: 10, per_day: null, custom: false, used: { minute: 3, day: 3 }, remaining: { minute: 7, day: null } });
    const video = r.body.limits.find((l: any) => l.endpoint === 'POST /video/create');
    expect(video).toEqual({ endpoint: 'POST /video/create', per_minute: 3, per_day: 50, custom: false, used: { minute: 0, day: 0 }, remaining: { minute: 3, day: 50 } });
    // The RateLimit header of the next read agrees: 6 left after it.
    const next = await c.get(`/v1/journals/content/${id}`);
    expect(next.headers.get('ratelimit')).toBe(`"minute";r=6;t=${next.headers.get('ratelimit')!.split('t=')[1]}`);
  });

  it('refuses a bad days with 422', async () => {
    for (const q of ['days=0', 'days=91', 'days=abc', 'days=1.5']) {
      const r = await c.get(`/v1/usage?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', 'days']);
    }
    expect((await c.get('/v1/usage?days=90')).body.spend.days).toHaveLength(90);
  });
});
