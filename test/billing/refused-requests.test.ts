/**
 * Quotas spent only on work (issue 16, item 3): requests refused before they do anything (402,
 * 405, 413, 415, 422) give their rate-limit slot back; a per-key flood guard still stops a client
 * that sends refused requests without end; a 429 names where its limit comes from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/billing/clock.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { DAY_START } from './helpers.ts';

const clock = new ManualClock(DAY_START + 3_600_000);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { REFUSED_REQUESTS_PER_MINUTE: '8' } });
});
afterAll(() => server.close());

const billing = () => server.svc.ctx.billing;
const CREATE = 'PUT /journals/editor/create' as const;

async function orgWithDayLimit(limit: number): Promise<Client> {
  const c = await server.newClient('developer');
  await billing().setLimit(c.orgId, CREATE, 'day', limit);
  return c;
}

describe('a refused request keeps no rate-limit slot', () => {
  it('422, 415 and 413 before a day limit of 1 leave it for a request that works', async () => {
    const c = await orgWithDayLimit(1);
    expect((await c.put('/v1/journals/editor/create', { title: 5 })).status).toBe(422);
    expect((await c.put('/v1/journals/editor/create', '{"title":"x"}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await c.put('/v1/journals/editor/create', { title: 'x'.repeat(3 * 1024 * 1024) })).status).toBe(413);
    expect((await c.put('/v1/journals/editor/create', '{"title":', {})).status).toBe(422);
    const ok = await c.put('/v1/journals/editor/create', { title: 'works' });
    expect(ok.status).toBe(200);
    const next = await c.put('/v1/journals/editor/create', { title: 'one too many' });
    expect(next.status).toBe(429);
    // The organization's own limit, not the tier's, is what refused it.
    expect(next.body.error).toContain("organization's own limit");
    expect(next.body.error).not.toContain('developer tier');
  });

  it('a 402 leaves the slot too: after a top-up the next request is served, not a 429 for a day', async () => {
    const c = await orgWithDayLimit(1);
    await billing().credits.set(c.orgId, 0);
    const refused = await c.put('/v1/journals/editor/create', { title: 'no credit' });
    expect(refused.status).toBe(402);
    await billing().credits.set(c.orgId, 5_000_000);
    const served = await c.put('/v1/journals/editor/create', { title: 'after top-up' });
    expect(served.status).toBe(200);
    expect(served.headers.get('retry-after')).toBeNull();
  });

  it('work that was done still counts: the tier limit is named when it is the tier’s', async () => {
    const c = await server.newClient('developer');
    const limit = Number(/q=(\d+)/.exec((await c.get('/v1/journals/list')).headers.get('ratelimit-policy') ?? '')?.[1]);
    expect(limit).toBeGreaterThan(1);
    let last;
    for (let i = 0; i < limit; i++) last = await c.get('/v1/journals/list');
    expect(last!.status).toBe(429);
    expect(last!.body.error).toContain("developer tier's limit");
  });
});

describe('the flood guard', () => {
  it('answers 429 to a key past REFUSED_REQUESTS_PER_MINUTE refused requests, until the minute ends', async () => {
    const c = await server.newClient('enterprise');
    const other = await server.sameOrgClient(c);
    for (let i = 0; i < 8; i++) expect((await c.put('/v1/journals/editor/create', { title: i })).status).toBe(422);
    const blocked = await c.put('/v1/journals/editor/create', { title: 'valid now' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/more than 8 invalid requests per minute.*flood guard/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per key: another key of the organization is served.
    expect((await other.put('/v1/journals/editor/create', { title: 'other key' })).status).toBe(200);
    clock.advance(60_000);
    expect((await c.put('/v1/journals/editor/create', { title: 'next minute' })).status).toBe(200);
  });
});
