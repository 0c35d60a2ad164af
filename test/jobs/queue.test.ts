/**
 * The durable job queue on both engines, with two instances (two engines opened on one fresh
 * database, as two processes would): each job is claimed by exactly one, a job of a killed
 * instance is taken over once its lease has run out, shutdown puts a running job back without
 * counting the attempt, and a job given up is recorded by its domain in the same transaction.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore, type JobRow } from '../../server/jobs/store.ts';
import { JobWorker, RetryLater, type WorkerOptions } from '../../server/jobs/worker.ts';
import { createLogger } from '../../server/logger.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';
import { until } from '../helpers/wait.ts';

const cases = await engineCases();
const logger = createLogger('silent');
const options = (o: Partial<WorkerOptions> = {}): WorkerOptions => ({ concurrency: 4, leaseMs: 5_000, pollMs: 20, maxAttempts: 3, ...o });

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    let a: StorageEngine;
    let b: StorageEngine;
    let kind = 0;
    /** A job kind of its own for each test: tests share the database, not each other's jobs. */
    const newKind = () => `test_kind_${++kind}`;

    beforeAll(async () => {
      db = await c.freshDatabase();
      a = await db.open();
      b = await db.open(); // a second instance on the same database
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('enqueue and claim: due jobs of the asked kinds, oldest first; every write needs the lease', async () => {
      const k = newKind();
      const other = newKind();
      const store = new JobStore(a);
      const first = await store.enqueue({ kind: k, payload: { n: 1 }, runAt: 1_000 }, 3);
      const second = await store.enqueue({ kind: k, payload: { n: 2 }, runAt: 2_000 }, 3);
      await store.enqueue({ kind: k, payload: { n: 3 }, runAt: Date.now() + 60_000 }, 3);
      await store.enqueue({ kind: other, payload: {} }, 3);
      expect(first).toMatchObject({ kind: k, payload: '{"n":1}', state: 'queued', attempts: 0, max_attempts: 3, lease_owner: null });

      const claimed = await store.claim('me', [k], 1_000, 10);
      expect(claimed.map((j) => j.id)).toEqual([first.id, second.id]);
      expect(claimed[0]).toMatchObject({ state: 'running', attempts: 1, lease_owner: 'me' });
      expect(await store.claim('me', [k], 1_000, 10)).toEqual([]);

      expect(await store.heartbeat(first.id, 'someone else', 1_000)).toBe(false);
      expect(await store.finish(first.id, 'someone else', 'done')).toBe(false);
      expect(await store.heartbeat(first.id, 'me', 1_000)).toBe(true);
      expect(await store.finish(first.id, 'me', 'done')).toBe(true);
      expect((await store.get(first.id))!.state).toBe('done');
      expect(await store.release(second.id, 'me')).toBe(true);
      expect(await store.get(second.id)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null, lease_expires_at: null });
    });

    it('two instances claiming concurrently take each job exactly once', async () => {
      const k = newKind();
      const n = 60;
      const ids = new Set<string>();
      for (let i = 0; i < n; i++) ids.add((await new JobStore(a).enqueue({ kind: k, payload: i }, 3)).id);
      const taken: string[][] = [[], []];
      await Promise.all(
        [a, b].map(async (engine, i) => {
          const store = new JobStore(engine);
          for (;;) {
            // Several claims in flight per instance, as several pumps would.
            const got = (await Promise.all([1, 2, 3].map(() => store.claim(`instance-${i}`, [k], 60_000, 2)))).flat();
            if (got.length === 0) return;
            taken[i]!.push(...got.map((j) => j.id));
          }
        }),
      );
      const all = [...taken[0]!, ...taken[1]!];
      expect(all).toHaveLength(n);
      expect(new Set(all)).toEqual(ids);
    });

    it('two workers on two instances run each of N jobs exactly once', async () => {
      const k = newKind();
      const n = 40;
      const runs = new Map<string, number>();
      const ranOn = [0, 0];
      const workers = [a, b].map((engine, i) => {
        const w = new JobWorker(new JobStore(engine), options({ concurrency: 3 }), logger);
        w.register<number>(k, {
          async run(ctx) {
            runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
            ranOn[i]!++;
            await sleep(2);
          },
        });
        return w;
      });
      for (const w of workers) w.start();
      const enqueued: JobRow[] = [];
      for (let i = 0; i < n; i++) enqueued.push(await workers[i % 2]!.enqueue({ kind: k, payload: i }));
      try {
        await until(async () => {
          const done = await a.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE kind = ? AND state = 'done'`, [k]);
          return done!.n === n;
        }, 'every job done');
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
      }
      expect(runs.size).toBe(n);
      expect([...runs.values()].every((r) => r === 1)).toBe(true);
      expect(new Set(runs.keys())).toEqual(new Set(enqueued.map((j) => j.id)));
      expect(ranOn[0]! + ranOn[1]!).toBe(n);
    });

    it('a killed instance\'s job is taken over after its lease runs out', async () => {
      const k = newKind();
      const dead = new JobStore(a);
      const job = await dead.enqueue({ kind: k, payload: 'x' }, 3);
      // Instance A claims it, then "dies": no heartbeat, no finish.
      const [held] = await dead.claim('dead-instance', [k], 300);
      expect(held!.id).toBe(job.id);
      const survivor = new JobWorker(new JobStore(b), options({ leaseMs: 5_000 }), logger);
      const attempts: number[] = [];
      survivor.register(k, {
        async run(ctx) {
          attempts.push(ctx.attempt);
        },
      });
      const started = Date.now();
      survivor.start();
      try {
        await until(() => attempts.length > 0, 'the takeover');
        expect(Date.now() - started).toBeGreaterThanOrEqual(200); // not before the lease ran out
        const row = await until(async () => {
          const r = await new JobStore(b).get(job.id);
          return r?.state === 'done' && r;
        }, 'done');
        expect(row).toMatchObject({ attempts: 2, lease_owner: null });
        expect(attempts).toEqual([2]);
        // The dead instance's late writes are refused: it no longer holds the lease.
        expect(await dead.finish(job.id, 'dead-instance', 'failed', 'late')).toBe(false);
        expect(await dead.heartbeat(job.id, 'dead-instance', 300)).toBe(false);
      } finally {
        await survivor.stop();
      }
    });

    it('stop puts a running job back at once, the attempt not counted; another instance then runs it', async () => {
      const k = newKind();
      const first = new JobWorker(new JobStore(a), options(), logger);
      let started = false;
      first.register(k, {
        async run(ctx) {
          started = true;
          await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        },
      });
      first.start();
      const job = await first.enqueue({ kind: k, payload: null });
      await until(() => started, 'the job to start');
      await first.stop();
      expect(await first.store.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null });

      const second = new JobWorker(new JobStore(b), options(), logger);
      const seen: number[] = [];
      second.register(k, { run: async (ctx) => void seen.push(ctx.attempt) });
      second.start();
      try {
        await until(async () => (await second.store.get(job.id))?.state === 'done', 'done on the other instance');
        expect(seen).toEqual([1]);
      } finally {
        await second.stop();
      }
    });

    it('retries, then gives up, recording the failure in the transaction that fails the job', async () => {
      const k = newKind();
      const w = new JobWorker(new JobStore(a), options({ maxAttempts: 2 }), logger);
      const runs: number[] = [];
      w.register<{ note: string }>(k, {
        async run(ctx) {
          runs.push(ctx.attempt);
          throw new RetryLater('not yet', 10);
        },
        async onGiveUp(job, payload, reason, tx) {
          await tx.run(`UPDATE jobs SET last_error = ? WHERE id = ?`, [`${payload.note}: ${reason}`, job.id]);
        },
      });
      w.start();
      try {
        const job = await w.enqueue({ kind: k, payload: { note: 'recorded' } });
        const row = await until(async () => {
          const r = await w.store.get(job.id);
          return r?.state === 'failed' && r;
        }, 'given up');
        expect(runs).toEqual([1, 2]);
        expect(row.last_error).toBe('recorded: not yet');
      } finally {
        await w.stop();
      }
    });

    it('a job whose domain record fails to commit stays claimed by no one and runs again', async () => {
      const k = newKind();
      const w = new JobWorker(new JobStore(a), options({ maxAttempts: 1, leaseMs: 200 }), logger);
      let gaveUp = 0;
      w.register(k, {
        async run() {
          throw new Error('boom');
        },
        async onGiveUp(_job, _payload, _reason, tx) {
          gaveUp++;
          if (gaveUp === 1) await tx.run('SELECT no_such_column FROM jobs');
        },
      });
      w.start();
      try {
        const job = await w.enqueue({ kind: k, payload: null });
        // The first give-up rolled back (job still running under its lease); after the lease it is
        // claimed again, over its attempts, and given up for good.
        const row = await until(async () => {
          const r = await w.store.get(job.id);
          return r?.state === 'failed' && r;
        }, 'given up for good');
        expect(gaveUp).toBe(2);
        expect(row.last_error).toMatch(/interrupted 1 times/);
      } finally {
        await w.stop();
      }
    });
  });
});
