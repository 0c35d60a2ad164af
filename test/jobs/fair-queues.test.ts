/**
 * One organization's queued work cannot keep another's waiting (issue 26, "one tenant against the
 * others"): the worker pool serves organizations in turns, so a small import of organization B,
 * sent while organization A's large imports fill the pool's queue, waits only for the tasks the
 * workers are running when it arrives: at most one task (one task's time limit) per worker. The
 * checks are orders of events (how many of A's imports finished while B's waited), with B's
 * latency alone as the baseline it is compared with; no wall-clock bound.
 */
import { expect, it } from 'vitest';
import { generateMarkdown } from '../../bench/markdown.ts';
import { serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { createSet, STATUS, until, waitForSet } from '../practice-api/helpers.ts';

let server: TestServer;
let a: Client;
serverSuite({}, (s, c) => {
  server = s;
  a = c;
});

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

it("organization B's small import waits for at most the tasks running when it arrives, not for A's queue", async () => {
  const pool = server.svc.ctx.journals.markdown.pool;
  const workers = pool.limits.workers;
  const b = await server.newClient();
  const small = generateMarkdown(2 * 1024); // past the inline limit: converted in the pool
  const large = generateMarkdown(512 * 1024);
  // Baseline: B's import alone (workers started and warm).
  await b.importMarkdown(small);
  await a.importMarkdown(small);
  const alone = await timed(() => b.importMarkdown(small));

  // A floods: 12 large imports at once.
  let aDone = 0;
  const flood = Array.from({ length: 12 }, () => a.importMarkdown(large).then(() => aDone++));
  await until(() => pool.queued >= 6, "A's imports to queue in the pool", 60_000);
  const aDoneBefore = aDone;
  const queuedBefore = pool.queued;
  let aDoneDuring = 0;
  const during = await timed(async () => {
    await b.importMarkdown(small);
    aDoneDuring = aDone - aDoneBefore;
  });
  await Promise.all(flood);
  console.log(`B's import: ${alone.toFixed(0)} ms alone, ${during.toFixed(0)} ms behind ${queuedBefore} queued imports of A (${aDoneDuring} of A's finished meanwhile)`);
  // Only the tasks the workers held when B's arrived can finish first (one per worker, plus one a
  // worker may have taken between the count and B's task reaching the pool).
  expect(aDoneDuring, `${aDoneDuring} of A's imports finished while B's waited`).toBeLessThanOrEqual(workers + 1);
  expect(aDoneDuring).toBeLessThan(queuedBefore);
}, 180_000);

it("organization B's practice set is claimed in its turn, not after A's backlog of jobs", async () => {
  const b = await server.newClient();
  const { engine } = server.svc.ctx;
  const concurrency = server.svc.ctx.config.jobs.concurrency;
  const status = async (c: Client, id: string) => (await c.get(`${STATUS}/${id}`)).body.status as string;
  // A queues 24 sets of 10 problems at once: a backlog of jobs.
  const setsA = await Promise.all(Array.from({ length: 24 }, () => createSet(a, { set_description: 'linear equations', count: 10, difficulty: 'hard' })));
  const queued = async () => Number((await engine.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'`))!.n);
  const backlog = await queued();
  const doneA = async () => (await Promise.all(setsA.map((id) => status(a, id)))).filter((s) => s !== 'pending').length;
  const before = await doneA();
  const setB = await createSet(b, { set_description: 'fractions', count: 1 });
  await waitForSet(b, setB, undefined, 120_000);
  const during = (await doneA()) - before;
  console.log(`B's set finished while ${during} of A's ${setsA.length} sets did (${backlog} of A's jobs were queued)`);
  // Claimed at the first free slot: only the jobs running when B's was queued (one per slot, and
  // one more a slot may have taken meanwhile) finish first. Before organizations took turns, B's
  // waited behind A's whole backlog.
  expect(backlog, 'a backlog formed').toBeGreaterThan(concurrency + 3);
  expect(during).toBeLessThanOrEqual(concurrency + 1 + 1);
  for (const id of setsA) await waitForSet(a, id, undefined, 120_000);
}, 240_000);
