/**
 * The LLM engine against a fake OpenAI-compatible provider on loopback (a real HTTP server):
 * generation with JSON-schema output, validation of malformed replies, retries, failures reported
 * in the set's message, progress per problem, grading by the LLM with fallback, and the key kept
 * out of logs and messages.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import { createSet, grade, GRADE, STATUS, until, waitForSet } from '../practice-api/helpers.ts';
import { defaultReply, goodProblem, llmSuite, type FakeProvider, type Reply } from './fake-openai.ts';

const KEY = 'sk-fake-provider-SECRET-0123456789';
let fake: FakeProvider;
let server: TestServer;
let client: Client;
const logLines: string[] = [];

const sink = new Writable({
  write(chunk, _enc, cb) {
    logLines.push(chunk.toString());
    cb();
  },
});
llmSuite({ env: { LLM_API_KEY: KEY, LLM_MAX_ATTEMPTS: '3' }, logger: pino({ level: 'debug' }, sink) }, (f, s, c) => {
  [fake, server, client] = [f, s, c];
});

const problemRequests = (from: number) => fake.requests.slice(from).filter((r) => r.schema === 'practice_problem');

describe('LLM generation', () => {
  it('generates a mixed set through the provider, one JSON-schema request per problem, validated and normalised', async () => {
    const from = fake.requests.length;
    const id = await createSet(client, { set_description: 'doubling numbers', count: 3, difficulty: 'easy' });
    const s = await waitForSet(client, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.engine).toBe('llm:fake-model');
    expect(s.response.engine).toBe('llm:fake-model');
    expect(s.response.cost).toBe(0.03);
    const reqs = problemRequests(from);
    expect(reqs.map((r) => [r.problem, r.type])).toEqual([[1, 'mcq'], [2, 'frq'], [3, 'select_all']]);
    for (const r of reqs) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.body.model).toBe('fake-model');
      expect(r.body.response_format.type).toBe('json_schema');
      expect(r.body.response_format.json_schema.strict).toBe(true);
    }
    // later requests list the earlier problems so the model does not repeat them
    expect(reqs[2]!.body.messages[1].content).toContain('(fake 1)');
    const [mcq, frq, sa] = s.response.problems;
    expect(mcq).toMatchObject({ problem_type: 'mcq', correct_answer: 'B', difficulty: 'easy', answer_choices: { A: '3', B: '2', C: '4' } });
    expect(frq).toMatchObject({ problem_type: 'frq', correct_answer: '6', answer_choices: {} });
    expect(sa).toMatchObject({ problem_type: 'select_all', correct_answer: 'B,D' });
    for (const p of s.response.problems) {
      const g = await grade(client, { ...p, user_answer: p.correct_answer }, { engine: 'offline' });
      expect(g.score).toBe(g.max_score);
    }
  });

  it('a malformed reply is retried; the set completes', async () => {
    let bad = 0;
    fake.reply = (r) => (r.problem === 2 && bad++ < 2 ? { content: bad === 1 ? 'Sure! Here is your problem: {' : '{"problem_type":"frq"}' } : defaultReply(r));
    const from = fake.requests.length;
    const s = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 2, problem_type: 'frq' }));
    expect(s.status, s.message).toBe('completed');
    expect(problemRequests(from).map((r) => r.problem)).toEqual([1, 2, 2, 2]);
  });

  it('a reply that stays malformed fails the set with a message that says why, and refunds', async () => {
    const usage = async () => (await client.get('/v1/usage')).body.credit_balance_micros as number;
    const before = await usage();
    // schema-valid JSON whose mcq answer is not one of its keys
    fake.reply = (r) => ({ content: goodProblem(r).replace('"b"', '"Z"') });
    const s = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 4, problem_type: 'mcq' }));
    expect(s).toMatchObject({ status: 'failed', success: false, engine: 'llm:fake-model', completed_problems: 0 });
    expect(s.message).toMatch(/LLM generation failed at problem 1 of 4/);
    expect(s.message).toMatch(/correct_answer/);
    expect(before - (await usage())).toBeLessThan(1_000); // reads only; the $0.04 came back

    fake.reply = () => ({ content: 'definitely not json' });
    const t = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 1 }));
    expect(t.status).toBe('failed');
    expect(t.message).toMatch(/not valid JSON/);
  });

  it('provider errors: 401 is not retried; 503 is retried and then reported; the key never appears', async () => {
    fake.reply = () => ({ status: 401, raw: JSON.stringify({ error: { message: 'Incorrect API key provided' } }) });
    let from = fake.requests.length;
    const s = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 2 }));
    expect(s.status).toBe('failed');
    expect(s.message).toMatch(/HTTP 401: Incorrect API key provided/);
    expect(fake.requests.length - from).toBe(1);

    fake.reply = () => ({ status: 503, raw: 'upstream overloaded' });
    from = fake.requests.length;
    const t = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 2 }));
    expect(t.status).toBe('failed');
    expect(t.message).toMatch(/HTTP 503/);
    expect(fake.requests.length - from).toBe(3);
    for (const m of [s.message, t.message]) expect(m).not.toContain(KEY);
  });

  it('progress: completed_problems rises one problem at a time', async () => {
    const gates: (() => void)[] = [];
    fake.reply = (r) => new Promise<Reply>((resolve) => gates.push(() => resolve(defaultReply(r))));
    const id = await createSet(client, { set_description: 'anything', count: 3, problem_type: 'frq' });
    const seen: number[] = [];
    for (let k = 0; k < 3; k++) {
      await until(() => gates.length > 0, 'a provider request');
      const s = await waitForSet(client, id, () => true);
      expect(s.status).toBe('pending');
      seen.push(s.completed_problems);
      gates.shift()!();
      await waitForSet(client, id, (x) => x.completed_problems === k + 1);
    }
    expect(seen).toEqual([0, 1, 2]);
    expect((await waitForSet(client, id)).status).toBe('completed');
  });

  it('engine "offline" still uses the offline engine when an LLM is configured', async () => {
    const s = await waitForSet(client, await createSet(client, { set_description: 'fractions', count: 2, engine: 'offline' }));
    expect(s.engine).toBe('offline:fraction-addition+fraction-subtraction+fraction-multiplication+fraction-division');
  });
});

describe('LLM grading', () => {
  const frq = { problem_type: 'frq', problem_statement: 'Describe photosynthesis.', user_answer: 'Plants use light to make glucose.', scoring_details: '- light\n- glucose\n- oxygen' };

  it('free response is graded by the LLM; choice problems stay exact and offline', async () => {
    const from = fake.requests.length;
    const g = await grade(client, frq);
    expect(g).toMatchObject({ score: 2, max_score: 3, method: 'llm', engine: 'llm:fake-model', met: ['light', 'glucose'], missed: ['oxygen'] });
    const req = fake.requests.at(-1)!;
    expect(req.schema).toBe('grade');
    expect(req.body.messages[1].content).toContain('<answer>\nPlants use light to make glucose.\n</answer>');
    const mcq = await grade(client, { problem_type: 'mcq', problem_statement: 'q', user_answer: 'A', correct_answer: 'A', answer_choices: { A: '1', B: '2' } });
    expect(mcq).toMatchObject({ method: 'choice', engine: 'offline', score: 1 });
    expect(fake.requests.length - from).toBe(1);
  });

  it('a high-confidence offline grade stays offline; a low one goes to the LLM, which the answer names', async () => {
    const from = fake.requests.length;
    const sure = await grade(client, { problem_type: 'frq', problem_statement: 'Solve 2x = 6.', user_answer: 'x = 3', correct_answer: 'x = 3' });
    expect(sure).toMatchObject({ score: 1, confidence: 'high', engine: 'offline', decided_by: 'offline' });
    expect(fake.requests.length).toBe(from);
    // A paraphrase the offline grader cannot read: low, so the LLM decides.
    fake.reply = () => ({ content: JSON.stringify({ score: 1, max_score: 1, explanation: 'Recursion, in other words.', met: ['recursion'], missed: [] }) });
    const unsure = await grade(client, { problem_type: 'frq', problem_statement: 'What is a function calling itself called?', user_answer: 'a recursive function', correct_answer: 'recursion' });
    expect(unsure).toMatchObject({ score: 1, method: 'llm', engine: 'llm:fake-model', decided_by: 'llm' });
    expect(unsure.explanation).toMatch(/offline grader was not sure/);
    expect(fake.requests.length).toBe(from + 1);
  });

  it('math the LLM grades after a low offline grade is still checked by the CAS', async () => {
    // "in the year 1945" is read as a number in prose with a word the question does not use (a fallback reading: low); the LLM says wrong, the CAS says equal.
    fake.reply = () => ({ content: JSON.stringify({ score: 0, max_score: 1, explanation: 'Wrong.', met: [], missed: ['1945'] }) });
    const g = await grade(client, { problem_type: 'frq', problem_statement: 'When did the war end?', user_answer: 'it ended in the year 1945', correct_answer: '1945' });
    expect(g).toMatchObject({ score: 1, engine: 'offline', decided_by: 'cas' });
  });

  it('an LLM failure falls back to the offline grader, or says clearly why it cannot', async () => {
    fake.reply = () => ({ content: JSON.stringify({ score: 5, max_score: 3, explanation: 'x', met: [], missed: [] }) });
    const g = await grade(client, frq);
    expect(g.engine).toBe('offline');
    expect(g.method).toBe('rubric');
    expect(g.fallback_reason).toMatch(/LLM grading failed: .*score 5 is above max_score 3/);
    fake.reply = () => ({ status: 500, raw: '{"error":{"message":"boom"}}' });
    const r = await client.post(GRADE, { problem: { problem_type: 'frq', problem_statement: 'Why?', user_answer: 'because' } });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/LLM grading failed: .*HTTP 500: boom.*offline grader cannot take over/);
  });
});

describe('configuration and secrecy', () => {
  it('LLM_BASE_URL and LLM_MODEL go together; the key is never logged', async () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(/LLM_BASE_URL and LLM_MODEL/);
    expect(loadConfig({}).llm).toBeUndefined();
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('')).toContain('LLM generation failed');
    expect(logLines.join('')).not.toContain(KEY);
    const status = await client.get(`${STATUS}/00000000-0000-4000-8000-000000000000`);
    expect(JSON.stringify(status.body)).not.toContain(KEY);
  });
});
