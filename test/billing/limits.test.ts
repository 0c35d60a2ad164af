import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIERS, type Principal, type Tier } from '../../server/auth/keys.ts';
import { ManualClock } from '../../server/billing/clock.ts';
import { meterNameOf, type EndpointKey, type MeteredEndpoint } from '../../server/billing/endpoints.ts';
import { DEFAULT_MINUTE_LIMIT, windowAt, type WindowName } from '../../server/billing/limits.ts';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DAY_START, newPrincipal } from './helpers.ts';

const clock = new ManualClock(DAY_START);
/** A body that passes validation and is then refused with 404: work was done, so it is counted. */
const MISSING_JOURNAL = { journal_id: '00000000-0000-4000-8000-000000000000' };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.close());

const billing = () => server.svc.ctx.billing;

/**
 * Admits `n` requests, expecting each to pass; returns nothing. In parallel batches: with the
 * store exact across instances every admission is a commit, and parallel ones share a flush.
 */
async function admitOk(p: Principal, endpoint: EndpointKey, n: number): Promise<void> {
  for (let done = 0; done < n; ) {
    const batch = Math.min(100, n - done);
    const results = await Promise.all(Array.from({ length: batch }, () => billing().admit(p, endpoint)));
    for (const [i, a] of results.entries()) {
      if (!a.ok) throw new Error(`request ${done + i + 1} of ${n} to ${endpoint} refused: ${JSON.stringify(a.body)}`);
    }
    done += batch;
  }
}

/** Past this many, a test counts the earlier requests of a window straight in the store (below). */
const ADMITTED_FOR_REAL = 200;

/**
 * Records `n` requests as already made in the current `window` of a new organization's endpoint,
 * straight in the counters' table, so that the large quotas (10,000 a day) are tested at their
 * edge without admitting every request (each one a commit with the store exact across instances).
 * Call it before the organization's first admission of `endpoint` (the one-process store reads a
 * counter once).
 */
async function alreadyMade(p: Principal, endpoint: EndpointKey, window: WindowName, n: number): Promise<void> {
  if (n <= 0) return;
  await server.svc.ctx.engine.run(
    `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (org_id, endpoint, win) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
    [p.orgId, endpoint, window, windowAt(window, clock.now()).start, n],
  );
}

describe('the specification tables, as enforced at each tier', () => {
  // The spec's per-minute table, spelled out here so the test does not read it from the code.
  const minuteTable: [EndpointKey, number, number, number][] = [
    ['GET /journals/list', 25, 100, 10_000],
    ['GET /journals/content/{id}', 10, 100, 1_000],
    ['POST /video/create', 3, 10, 100],
    ['POST /interactives/flashcards/create', 5, 50, 500],
    ['POST /interactives/practice/create', 3, 10, 1_000],
    ['POST /interactives/practice/grade', 2, 10, 1_000],
  ];
  // Endpoints the specification does not have, with limits of their own (docs/billing.md):
  // grading a class's answers in one call is limited as grading one answer is.
  const beyondSpecification: [EndpointKey, number, number, number][] = [['POST /interactives/practice/grade/batch', 2, 10, 1_000]];
  const dayTable: [EndpointKey, number, number, number][] = [
    ['POST /video/create', 50, 1_000, 10_000],
    ['POST /interactives/flashcards/create', 100, 2_000, 20_000],
  ];

  it('has exactly the rows of the specification', async () => {
    // The endpoints that declare a limit class of their own, per window.
    const metered = ENDPOINTS.filter((e) => e.auth === 'key') as MeteredEndpoint[];
    const declaring = (w: WindowName) => metered.filter((e) => e.limits?.[w]).map(meterNameOf).sort();
    expect(declaring('minute')).toEqual([...minuteTable, ...beyondSpecification].map((r) => r[0]).sort());
    expect(declaring('day')).toEqual(dayTable.map((r) => r[0]).sort());
    expect(DEFAULT_MINUTE_LIMIT).toEqual({ developer: 60, scale: 600, enterprise: 6_000 });
  });

  for (const [endpoint, ...limits] of [...minuteTable, ...beyondSpecification]) {
    for (const [i, tier] of TIERS.entries()) {
      const limit = limits[i]!;
      it(`${endpoint}: ${limit} per minute on ${tier}`, async () => {
        clock.set(DAY_START + 3_600_000 + 15_000); // 01:00:15, mid-minute
        const p = await newPrincipal(server.svc.ctx.engine, tier);
        const made = Math.max(0, limit - ADMITTED_FOR_REAL);
        await alreadyMade(p, endpoint, 'minute', made);
        await admitOk(p, endpoint, limit - made);
        const refused = await billing().admit(p, endpoint);
        expect(refused).toMatchObject({ ok: false, status: 429, body: { limit_type: 'minute', retry_after: 45 } });
        // the minute window resets at the end of the UTC minute
        clock.set(DAY_START + 3_600_000 + 59_999);
        expect((await billing().admit(p, endpoint)).ok).toBe(false);
        clock.set(DAY_START + 3_600_000 + 60_000);
        expect((await billing().admit(p, endpoint)).ok).toBe(true);
      });
    }
  }

  for (const [endpoint, ...limits] of dayTable) {
    for (const [i, tier] of TIERS.entries()) {
      const perDay = limits[i]!;
      const perMinute = minuteTable.find((r) => r[0] === endpoint)![i + 1] as number;
      it(`${endpoint}: ${perDay} per day on ${tier}`, async () => {
        clock.set(DAY_START);
        const p = await newPrincipal(server.svc.ctx.engine, tier);
        let done = perDay > ADMITTED_FOR_REAL ? perDay - 2 * perMinute : 0; // the last two minutes for real
        await alreadyMade(p, endpoint, 'day', done);
        while (done < perDay) {
          const n = Math.min(perMinute, perDay - done);
          await admitOk(p, endpoint, n);
          done += n;
          clock.advance(60_000);
        }
        const refused = await billing().admit(p, endpoint);
        expect(refused.ok).toBe(false);
        if (refused.ok) return;
        const secondsLeft = Math.ceil((DAY_START + 86_400_000 - clock.now()) / 1000);
        expect(refused.body).toMatchObject({ limit_type: 'day', retry_after: secondsLeft });
        expect(refused.headers['Retry-After']).toBe(String(secondsLeft));
        // a new minute does not help; the next UTC day does
        clock.advance(60_000);
        expect((await billing().admit(p, endpoint)).ok).toBe(false);
        clock.set(DAY_START + 86_400_000);
        expect((await billing().admit(p, endpoint)).ok).toBe(true);
      });
    }
  }

  for (const [i, tier] of (TIERS as readonly Tier[]).entries()) {
    const limit = [60, 600, 6_000][i]!;
    it(`unlisted endpoints allow ${limit} per minute on ${tier}`, async () => {
      clock.set(DAY_START + 7_200_000);
      const p = await newPrincipal(server.svc.ctx.engine, tier);
      const made = Math.max(0, limit - ADMITTED_FOR_REAL);
      await alreadyMade(p, 'GET /journals/editor/model/{journal_id}', 'minute', made);
      await admitOk(p, 'GET /journals/editor/model/{journal_id}', limit - made);
      expect((await billing().admit(p, 'GET /journals/editor/model/{journal_id}')).ok).toBe(false);
      // each endpoint has its own bucket
      expect((await billing().admit(p, 'PATCH /journals/editor/edit')).ok).toBe(true);
    });
  }

  it('counts the realtime upgrade as an endpoint through checkRateLimit', async () => {
    clock.set(DAY_START + 10_800_000);
    const p = await newPrincipal(server.svc.ctx.engine, 'developer');
    for (let i = 0; i < 60; i++) expect((await billing().checkRateLimit(p, 'GET /journals/realtime/{journal_id}')).ok).toBe(true);
    const r = await billing().checkRateLimit(p, 'GET /journals/realtime/{journal_id}');
    expect(r).toMatchObject({ ok: false, status: 429, body: { limit_type: 'minute' } });
  });
});

describe('over HTTP', () => {
  it('answers 429 {error, retry_after, limit_type} with Retry-After and RateLimit headers', async () => {
    clock.set(DAY_START + 4 * 3_600_000 + 18_000); // 04:00:18
    const alice = await server.newClient('developer');
    const id = await alice.importMarkdown('# Limits\n');
    for (let i = 1; i <= 10; i++) {
      const r = await alice.get(`/v1/journals/content/${id}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60');
      expect(r.headers.get('ratelimit')).toBe(`"minute";r=${10 - i};t=42`);
    }
    const r = await alice.get(`/v1/journals/content/${id}`);
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: expect.any(String), retry_after: 42, limit_type: 'minute' });
    expect(r.headers.get('retry-after')).toBe('42');
    expect(r.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60');
    expect(r.headers.get('ratelimit')).toBe('"minute";r=0;t=42');
    // refused requests are not counted: the next minute has the whole quota again
    clock.advance(42_000);
    const next = await alice.get(`/v1/journals/content/${id}`);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit')).toBe('"minute";r=9;t=60');
  });

  it('shares one bucket among the keys of an organization, not across organizations', async () => {
    clock.set(DAY_START + 5 * 3_600_000);
    const a1 = await server.newClient('developer');
    const a2 = await server.sameOrgClient(a1);
    const b = await server.newClient('developer');
    for (let i = 0; i < 25; i++) expect((await (i % 2 ? a1 : a2).get('/v1/journals/list')).status).toBe(200);
    expect((await a1.get('/v1/journals/list')).status).toBe(429);
    expect((await a2.get('/v1/journals/list')).status).toBe(429);
    expect((await b.get('/v1/journals/list')).status).toBe(200);
  });

  it('limits endpoints whatever their route answers, and reports the tightest window', async () => {
    clock.set(DAY_START + 6 * 3_600_000 + 30_000);
    const c = await server.newClient('developer');
    const first = await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect(first.status).toBe(404); // counted: the journal was looked up (a 422 would give its slot back)
    expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60');
    expect(first.headers.get('ratelimit')).toBe('"minute";r=2;t=30');
    await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    const refused = await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect(refused.status).toBe(429);
    expect(refused.body.limit_type).toBe('minute');
    // with a day limit of 4 set for this organization, the day becomes the tightest window
    await server.svc.ctx.billing.setLimit(c.orgId, 'POST /video/create', 'day', 4);
    clock.advance(60_000);
    const last = await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect(last.status).not.toBe(429);
    expect(last.headers.get('ratelimit-policy')).toBe('"day";q=4;w=86400');
    expect(last.headers.get('ratelimit')).toBe(`"day";r=0;t=${86_400 - 6 * 3600 - 90}`);
    clock.advance(60_000);
    const dayRefused = await c.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect(dayRefused.status).toBe(429);
    expect(dayRefused.body).toMatchObject({ limit_type: 'day', retry_after: 86_400 - 6 * 3600 - 150 });
  });

  it('applies per-organization custom limits to that organization only', async () => {
    clock.set(DAY_START + 7 * 3_600_000);
    const big = await server.newClient('enterprise');
    const other = await server.newClient('enterprise');
    await server.svc.ctx.billing.setLimit(big.orgId, 'POST /video/create', 'minute', 2);
    expect((await big.request('POST', '/v1/video/create', MISSING_JOURNAL)).headers.get('ratelimit-policy')).toBe('"minute";q=2;w=60');
    await big.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect((await big.request('POST', '/v1/video/create', MISSING_JOURNAL)).status).toBe(429);
    const o = await other.request('POST', '/v1/video/create', MISSING_JOURNAL);
    expect(o.status).not.toBe(429);
    expect(o.headers.get('ratelimit-policy')).toBe('"minute";q=100;w=60');
    const usage = await big.get('/v1/usage');
    expect(usage.body.limits).toContainEqual(expect.objectContaining({ endpoint: 'POST /video/create', per_minute: 2, per_day: 10_000, custom: true }));
  });
});

describe('persistence', () => {
  it('keeps day windows across a restart on the same data directory', async () => {
    const restartClock = new ManualClock(DAY_START + 9 * 3_600_000);
    const first = await startTestServer({ clock: restartClock });
    const c = await first.newClient('developer');
    await first.svc.ctx.billing.setLimit(c.orgId, 'POST /interactives/flashcards/create', 'day', 4);
    for (let i = 0; i < 3; i++) expect((await c.request('POST', '/v1/interactives/flashcards/create', MISSING_JOURNAL)).status).not.toBe(429);
    // read charges are held in memory and written at shutdown at the latest
    for (let i = 0; i < 2; i++) expect((await c.get('/v1/journals/list')).status).toBe(200);
    await first.close();

    restartClock.advance(3_600_000); // an hour later, same UTC day
    const second = await startTestServer({ dataDir: first.dataDir, clock: restartClock });
    try {
      const again = new (c.constructor as typeof import('../helpers/server.ts').Client)(second.url, c.key, c.orgId);
      const usage = await again.get('/v1/usage');
      expect(usage.body.usage.day.requests).toEqual({ 'POST /interactives/flashcards/create': 3, 'GET /journals/list': 2, 'GET /usage': 1 });
      expect(usage.body.usage.minute.requests).toEqual({ 'GET /usage': 1 }); // a new minute
      expect(usage.body.credit_balance_micros).toBe(5_000_000 - 2 * 10);
      expect((await again.request('POST', '/v1/interactives/flashcards/create', MISSING_JOURNAL)).status).not.toBe(429);
      const refused = await again.request('POST', '/v1/interactives/flashcards/create', MISSING_JOURNAL);
      expect(refused.status).toBe(429);
      expect(refused.body.limit_type).toBe('day');
    } finally {
      await second.close();
    }
  });
});
