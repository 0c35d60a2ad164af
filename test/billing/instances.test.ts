/**
 * Several instances on one store: what billing and authentication guarantee when more than one
 * server shares the database. Each test runs on SQLite and on PostgreSQL (skipped, saying how to
 * enable it, without a server). On PostgreSQL every instance has its own engine (its own pool),
 * as separate servers would. SQLite serves one process by design, and several engines on one file
 * in one thread would wait for each other's write locks synchronously, so there the instances of
 * the concurrency tests are separate services sharing the process's engine; the caches are still
 * one per engine (two engines on the file), and the admin command line test covers a separate
 * process.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_CHECK_MS, noteChange } from '../../server/auth/changes.ts';
import { bootstrapIfEmpty, createApiKey, createOrganization, resolveApiKey, type Tier } from '../../server/auth/keys.ts';
import { ManualClock } from '../../server/billing/clock.ts';
import { CreditLedger } from '../../server/billing/credits.ts';
import { ProcessRateLimitStore, SharedRateLimitStore } from '../../server/billing/rate-limit-store.ts';
import { BillingService, ORG_CACHE_TTL_MS } from '../../server/billing/service.ts';
import { ORG_QUOTAS } from '../../server/billing/limits.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';
import { DAY_START } from './helpers.ts';
import { ENDPOINT_CATALOG } from '../../server/endpoints.ts';

const cases = await engineCases();

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    /** One engine per instance (PostgreSQL), or the process's one engine (SQLite). */
    let engines: StorageEngine[];
    const services: BillingService[] = [];
    const clock = new ManualClock(DAY_START + 3_600_000 + 30_000);

    beforeAll(async () => {
      db = await c.freshDatabase();
      const first = await db.open();
      engines = c.kind === 'postgres' ? [first, await db.open(), await db.open()] : [first, first, first];
    });
    afterAll(async () => {
      for (const s of services) await s.close();
      await db?.drop();
    });

    /** A billing service per instance, on the store exact across instances (the default). */
    const instances = () => {
      const made = engines.map((e) => new BillingService(e, clock, ENDPOINT_CATALOG));
      services.push(...made);
      return made;
    };

    async function newOrg(tier: Tier = 'developer') {
      const org = await createOrganization(engines[0]!, `org-${Math.random().toString(36).slice(2, 8)}`, tier);
      const principal = (await resolveApiKey(engines[0]!, (await createApiKey(engines[0]!, org.id)).api_key))!;
      return { org, principal };
    }

    describe('rate limits', () => {
      it('30 parallel requests over 3 instances against a limit of 10 admit exactly 10', async () => {
        const [a, b, c3] = instances();
        const { principal } = await newOrg('developer'); // GET /journals/content/{id}: 10 per minute
        const all = [a!, b!, c3!];
        const results = await Promise.all(Array.from({ length: 30 }, (_, i) => all[i % 3]!.admit(principal, 'GET /journals/content/{id}')));
        expect(results.filter((r) => r.ok)).toHaveLength(10);
        expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(20);
        const usage = await b!.usage(principal);
        expect(usage.usage.minute.requests['GET /journals/content/{id}']).toBe(10);
        expect(usage.usage.day.requests['GET /journals/content/{id}']).toBe(10);
        // the RateLimit headers of the admitted ones count 9..0 left, each once
        const left = results.filter((r) => r.ok).map((r) => Number(/r=(\d+)/.exec(r.headers.RateLimit)![1]));
        expect(left.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      });

      it('counts a request in both windows or in neither, when both have limits', async () => {
        const [a, b, c3] = instances();
        const { org, principal } = await newOrg('developer'); // POST /video/create: 3 per minute, 50 per day
        await a!.setLimit(org.id, 'POST /video/create', 'day', 4);
        const all = [a!, b!, c3!];
        const burst = () => Promise.all(Array.from({ length: 30 }, (_, i) => all[i % 3]!.admit(principal, 'POST /video/create')));
        expect((await burst()).filter((r) => r.ok)).toHaveLength(3); // the minute is full
        clock.advance(60_000);
        const second = await burst();
        expect(second.filter((r) => r.ok)).toHaveLength(1); // the day is full: 4
        expect(second.filter((r) => !r.ok && 'limit_type' in r.body && r.body.limit_type === 'day')).toHaveLength(29);
        const usage = await c3!.usage(principal);
        expect(usage.usage.day.requests['POST /video/create']).toBe(4);
        expect(usage.usage.minute.requests['POST /video/create']).toBe(1); // refused ones were not counted
      });

      it('a limit of 0 blocks the endpoint without counting', async () => {
        const [a] = instances();
        const { org, principal } = await newOrg('scale');
        await a!.setLimit(org.id, 'GET /journals/list', 'minute', 0);
        const r = await a!.admit(principal, 'GET /journals/list');
        expect(r).toMatchObject({ ok: false, status: 429, body: { limit_type: 'minute' } });
        expect((await a!.usage(principal)).usage.minute.requests).toEqual({});
      });

      it('the one-process store keeps counts in memory and writes them on flush, for the next start', async () => {
        const { principal } = await newOrg('developer');
        const checks = [
          { window: 'day' as const, start: 0, limit: Infinity },
          { window: 'minute' as const, start: 60, limit: 5 },
        ];
        const first = new ProcessRateLimitStore(engines[0]!);
        for (let i = 1; i <= 3; i++) expect(await first.hit(principal.orgId, 'x', checks)).toEqual({ ok: true, counts: { day: i, minute: i } });
        expect(await new SharedRateLimitStore(engines[0]!).counts(principal.orgId, 'minute', 60)).toEqual({});
        await first.flush();
        const next = new ProcessRateLimitStore(engines[1]!);
        expect(await next.hit(principal.orgId, 'x', checks)).toEqual({ ok: true, counts: { day: 4, minute: 4 } });
        expect(await next.hit(principal.orgId, 'x', checks)).toEqual({ ok: true, counts: { day: 5, minute: 5 } });
        expect(await next.hit(principal.orgId, 'x', checks)).toEqual({ ok: false, window: 'minute', count: 5 });
      });
    });

    describe('organization quotas', () => {
      it("realtime bytes per minute are one total over the instances: each refuses once every instance's flushed bytes reach the quota", async () => {
        const table = { ...ORG_QUOTAS, developer: { realtimeBytesPerMinute: 100_000, storedBytes: ORG_QUOTAS.developer.storedBytes } };
        // A clock of their own: this test moves it to the next minute.
        const own = new ManualClock(DAY_START + 3_600_000 + 30_000);
        const [a, b, c3] = engines.map((e) => new BillingService(e, own, ENDPOINT_CATALOG, undefined, table));
        services.push(a!, b!, c3!);
        const { principal } = await newOrg('developer');
        expect(a!.quotas.receive(principal, 60_000)).toBeUndefined();
        await a!.quotas.flush();
        expect(b!.quotas.receive(principal, 30_000)).toBeUndefined();
        await b!.quotas.flush(); // b learns the total: 90,000
        expect(b!.quotas.receive(principal, 20_000)?.message).toMatch(/realtime quota: 100000 bytes per minute/);
        expect(b!.quotas.receive(principal, 10_000)).toBeUndefined(); // exactly to the quota
        await b!.quotas.flush();
        // An instance that received nothing since learns the total on its next flush; one new to
        // the organization on the upgrade of its first editor.
        await a!.quotas.flush();
        expect(a!.quotas.receive(principal, 1)?.message).toMatch(/realtime quota/);
        expect(await c3!.quotas.realtimeFull(principal)).toBeDefined();
        expect(c3!.quotas.receive(principal, 1)?.message).toMatch(/realtime quota/);
        expect((await c3!.quotas.realtimeUsed(principal.orgId)).used).toBe(100_000);
        // The next minute starts from zero everywhere.
        own.advance(60_000);
        expect(a!.quotas.receive(principal, 50_000)).toBeUndefined();
      });
    });

    describe('credits', () => {
      it('parallel charges on several instances never overdraw: exactly what the balance covers is paid', async () => {
        const ledgers = engines.map((e) => new CreditLedger(e));
        const { org } = await newOrg();
        await ledgers[0]!.set(org.id, 1_050);
        // Each charge in a transaction with the effect it pays for, as the journal writes do.
        const attempts = await Promise.allSettled(
          Array.from({ length: 40 }, (_, i) =>
            engines[i % engines.length]!.transaction(async (tx) => {
              await ledgers[i % ledgers.length]!.debit(org.id, 100, tx);
              await tx.run("UPDATE organizations SET name = name || '.' WHERE id = ?", [org.id]);
            }),
          ),
        );
        expect(attempts.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
        const refusals = attempts.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(refusals).toHaveLength(30);
        for (const r of refusals) expect(r.reason.status).toBe(402);
        expect(await ledgers[1]!.balance(org.id)).toBe(50);
        const name = (await engines[0]!.get<{ name: string }>('SELECT name FROM organizations WHERE id = ?', [org.id]))!.name;
        expect(name.endsWith('.'.repeat(10)) && !name.endsWith('.'.repeat(11))).toBe(true); // refused charges rolled their effect back
      });

      it('pending read charges of several instances take the stored balance to zero at most', async () => {
        const ledgers = engines.map((e) => new CreditLedger(e));
        const { org } = await newOrg();
        await ledgers[0]!.set(org.id, 100);
        // Each instance believes the whole balance is there (none has flushed yet).
        for (const l of ledgers) for (let i = 0; i < 10; i++) expect(l.holdRead(org.id, 10, 100)).toBe(true);
        for (const l of ledgers) expect(l.holdRead(org.id, 10, 100)).toBe(false);
        await Promise.all(ledgers.map((l) => l.flush()));
        expect((await engines[0]!.get('SELECT credit_balance_micros AS b FROM organizations WHERE id = ?', [org.id]))).toEqual({ b: 0 });
      });

      it('settling and refunding one reservation from several instances at once pays or refunds exactly once', async () => {
        const ledgers = engines.map((e) => new CreditLedger(e));
        const { org } = await newOrg();
        await ledgers[0]!.set(org.id, 1_000_000);
        for (let round = 0; round < 10; round++) {
          const r = await ledgers[round % ledgers.length]!.reserve(org.id, 10_000, 'job');
          const before = await ledgers[0]!.balance(org.id);
          const outcomes = await Promise.allSettled([
            ledgers[0]!.settle(r.id, 4_000),
            ledgers[1]!.refund(r.id),
            ledgers[2]!.settle(r.id, 15_000),
            ledgers[0]!.refund(r.id),
          ]);
          const won = outcomes.findIndex((o) => o.status === 'fulfilled');
          expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
          for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toMatch(/already (settled|refunded)/);
          const after = await ledgers[0]!.balance(org.id);
          const stored = await ledgers[0]!.reservation(r.id);
          // settle(4,000) gives 6,000 back; refund gives 10,000 back; settle(15,000) takes 5,000 more
          const expected = [
            { delta: 6_000, status: 'settled', cost: 4_000 },
            { delta: 10_000, status: 'refunded', cost: 0 },
            { delta: -5_000, status: 'settled', cost: 15_000 },
            { delta: 10_000, status: 'refunded', cost: 0 },
          ][won]!;
          expect(after - before).toBe(expected.delta);
          expect(stored).toMatchObject({ status: expected.status, cost_micros: expected.cost });
        }
      });
    });

    describe('caches see changes made by another instance or process', () => {
      it('a key revoked or a tier changed elsewhere is refused / applied within CHANGE_CHECK_MS', async () => {
        const here = engines[0]!;
        // A second engine on the same database: its own connection and its own caches.
        const there = await db.open();
        const org = await createOrganization(there, 'elsewhere', 'developer');
        const { key_id, api_key } = await createApiKey(there, org.id);
        expect(await resolveApiKey(here, api_key)).toMatchObject({ keyId: key_id, tier: 'developer' });
        // Changed by raw SQL plus the change counter, as another process would (this process's own
        // functions would also drop the cache locally).
        await there.transaction(async (tx) => {
          await tx.run("UPDATE organizations SET tier = 'scale' WHERE id = ?", [org.id]);
          await noteChange(tx);
        });
        await sleep(CHANGE_CHECK_MS + 5);
        expect(await resolveApiKey(here, api_key)).toMatchObject({ keyId: key_id, tier: 'scale' });
        await there.transaction(async (tx) => {
          await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [new Date().toISOString(), key_id]);
          await noteChange(tx);
        });
        await sleep(CHANGE_CHECK_MS + 5);
        expect(await resolveApiKey(here, api_key)).toBeUndefined();
      });

      it('custom limits and balances set elsewhere reach admission within CHANGE_CHECK_MS', async () => {
        const there = await db.open();
        const here = new BillingService(engines[0]!, clock, ENDPOINT_CATALOG);
        const elsewhere = new BillingService(there, clock, ENDPOINT_CATALOG);
        services.push(here, elsewhere);
        const { org, principal } = await newOrg('developer');
        const a = await here.admit(principal, 'GET /journals/list');
        expect(a.headers['RateLimit-Policy']).toBe('"minute";q=25;w=60');
        await elsewhere.setLimit(org.id, 'GET /journals/list', 'minute', 7);
        await elsewhere.credits.set(org.id, 0);
        await sleep(CHANGE_CHECK_MS + 5);
        const b = await here.admit(principal, 'GET /journals/list');
        expect(b).toMatchObject({ ok: false, status: 402 });
        expect(b.headers['RateLimit-Policy']).toBe('"minute";q=7;w=60');
      });

      it("another instance's debits reach a cached balance within ORG_CACHE_TTL_MS", async () => {
        const there = await db.open();
        const here = new BillingService(engines[0]!, clock, ENDPOINT_CATALOG);
        const elsewhere = new CreditLedger(there);
        services.push(here);
        const { org, principal } = await newOrg('enterprise');
        // Read before the admission: read after it, a flush of `here` (every second) landing in
        // between would let the debit leave 15 with nothing pending, and the read be admitted.
        const balance = await elsewhere.balance(org.id);
        expect((await here.admit(principal, 'GET /journals/list')).ok).toBe(true); // caches the balance
        await elsewhere.debit(org.id, balance - 15); // not a change the counter carries
        await sleep(ORG_CACHE_TTL_MS + 10);
        expect((await here.admit(principal, 'GET /journals/list')).ok).toBe(false); // 15 - 10 pending < 10
      });
    });

    it('bootstraps one organization when instances start together on an empty database', async () => {
      const fresh = await c.freshDatabase();
      try {
        const first = await fresh.open();
        const all = c.kind === 'postgres' ? [first, await fresh.open(), await fresh.open()] : [first, first, first];
        const boots = await Promise.all(all.map((e) => bootstrapIfEmpty(e)));
        expect(boots.filter((b) => b !== undefined)).toHaveLength(1);
        expect(await first.get('SELECT COUNT(*) AS n FROM organizations')).toEqual({ n: 1 });
        expect(await resolveApiKey(all[2]!, boots.find((b) => b)!.api_key)).toMatchObject({ orgName: 'Default organization', tier: 'developer' });
      } finally {
        await fresh.drop();
      }
    });
  });
});
