/**
 * Durable jobs: the server runs as a child process (server/main.ts under tsx) and is killed with
 * SIGKILL while one set is half generated (its LLM provider holds the next reply) and another
 * waits in the queue. After a restart on the same DATA_DIR both complete; the problems made before
 * the crash are kept (the provider is not asked for them again).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { killChildServers, prepareDataDir, startChildServer as startChild, withStore } from '../helpers/child-server.ts';
import { Client } from '../helpers/server.ts';
import { defaultReply, startFakeOpenAI, type FakeProvider } from '../llm/fake-openai.ts';
import { close, evalExpr, solutions } from '../practice/helpers.ts';
import { createSet, until, waitForSet } from './helpers.ts';

let fake: FakeProvider | undefined;

afterEach(async () => {
  killChildServers();
  await fake?.close();
});

describe('durable jobs', () => {
  it('kill -9 mid-generation: after a restart the running and the queued set both complete, progress kept', async () => {
    let phase = 1;
    fake = await startFakeOpenAI((r) => (phase === 1 && (r.problem ?? 0) >= 3 ? 'hang' : defaultReply(r)));
    const { dataDir, key, orgId } = await prepareDataDir();
    const env = { LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-crash-test', JOB_CONCURRENCY: '1', JOB_LEASE_SECONDS: '1', JOB_POLL_MS: '50', LLM_TIMEOUT_MS: '120000' };

    const first = await startChild(dataDir, env);
    let api = new Client(first.url, key, orgId);
    const llmSet = await createSet(api, { set_description: 'doubling numbers', count: 5, problem_type: 'frq' });
    // Two problems stored, the third requested and held by the provider.
    await waitForSet(api, llmSet, (s) => s.completed_problems === 2);
    await until(() => fake!.requests.some((r) => r.problem === 3), 'the third request');
    // With one worker busy, this set waits in the queue.
    const offlineSet = await createSet(api, { set_description: 'linear equations', count: 4, problem_type: 'frq', engine: 'offline' });
    const queued = await waitForSet(api, offlineSet, () => true);
    expect(queued).toMatchObject({ status: 'pending', completed_problems: 0, message: 'Waiting for a worker' });
    const pendingLlm = await waitForSet(api, llmSet, () => true);
    expect(pendingLlm).toMatchObject({ status: 'pending', completed_problems: 2, total_problems: 5 });

    first.child.kill('SIGKILL');
    await first.exited;
    phase = 2;

    const second = await startChild(dataDir, env);
    api = new Client(second.url, key, orgId);
    const a = await waitForSet(api, llmSet);
    expect(a.status, a.message).toBe('completed');
    expect(a.response.problems.map((p: any) => p.correct_answer)).toEqual(['3', '6', '9', '12', '15']);
    const asked = fake.requests.filter((r) => r.schema === 'practice_problem').map((r) => r.problem);
    // 1 and 2 were made once, before the crash; 3 was asked again after it.
    expect(asked.filter((n) => n === 1)).toHaveLength(1);
    expect(asked.filter((n) => n === 2)).toHaveLength(1);
    expect(asked.filter((n) => n === 3)).toHaveLength(2);

    const b = await waitForSet(api, offlineSet);
    expect(b.status, b.message).toBe('completed');
    expect(b.engine).toBe('offline:one-step-equations+two-step-equations+multi-step-equations');
    for (const p of b.response.problems) {
      const [l, r] = /Solve for x: (.+)$/.exec(p.problem_statement)![1]!.split('=');
      const x = solutions(p.correct_answer).x![0]!;
      expect(close(evalExpr(l!, { x }), evalExpr(r!, { x })), `${p.problem_statement} -> ${p.correct_answer}`).toBe(true);
    }
    // credits: both reservations settled, nothing left held
    const held = await withStore(dataDir, (db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM credit_reservations WHERE status = 'held'"));
    expect(held!.n).toBe(0);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('SIGTERM while a job runs: the job is put back without counting an attempt and finishes after restart', async () => {
    let phase = 1;
    fake = await startFakeOpenAI((r) => (phase === 1 && (r.problem ?? 0) >= 2 ? 'hang' : defaultReply(r)));
    const { dataDir, key, orgId } = await prepareDataDir();
    const env = { LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', JOB_LEASE_SECONDS: '30', JOB_POLL_MS: '50' };
    const first = await startChild(dataDir, env);
    let api = new Client(first.url, key, orgId);
    const id = await createSet(api, { set_description: 'anything', count: 3, problem_type: 'frq' });
    await until(() => fake!.requests.some((r) => r.problem === 2), 'the second request');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const job = await withStore(dataDir, (db) => db.get('SELECT j.state, j.attempts, j.lease_owner FROM jobs j JOIN practice_sets s ON s.job_id = j.id WHERE s.id = ?', [id]));
    // Released on shutdown: queued at once (no lease to wait out), attempt not counted.
    expect(job).toEqual({ state: 'queued', attempts: 0, lease_owner: null });
    phase = 2;
    const second = await startChild(dataDir, env);
    api = new Client(second.url, key, orgId);
    const s = await waitForSet(api, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.completed_problems).toBe(3);
  }, 60_000);
});
