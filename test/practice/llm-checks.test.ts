/**
 * LLM answers are re-validated before they are returned, against a fake OpenAI-compatible
 * provider on loopback (a real HTTP server) and the real service: a wrong mathematical verdict is
 * overruled by the CAS, a duplicate problem and an invalid multiple-choice problem are asked for
 * again with the reason, and a set whose problems keep failing the checks fails honestly (nothing
 * charged) instead of being returned unchecked.
 */
import { describe, expect, it } from 'vitest';
import type { Client, TestServer } from '../helpers/server.ts';
import { defaultReply, goodProblem, llmSuite, type FakeProvider, type FakeRequest } from '../llm/fake-openai.ts';
import { createSet, grade, waitForSet } from '../practice-api/helpers.ts';

let fake: FakeProvider;
let server: TestServer;
let client: Client;

llmSuite({ env: { LLM_API_KEY: 'k', LLM_MAX_ATTEMPTS: '2' } }, (f, s, c) => {
  [fake, server, client] = [f, s, c];
});

const gradeReply = (score: number, max: number) => ({ content: JSON.stringify({ score, max_score: max, explanation: `LLM says ${score}/${max}.`, met: [], missed: [] }) });
const userText = (r: FakeRequest) => r.body.messages.find((m: any) => m.role === 'user').content as string;
const problemRequests = (from: number) => fake.requests.slice(from).filter((r) => r.schema === 'practice_problem');

describe('grading: the CAS checks a mathematical reference', () => {
  const problem = { problem_type: 'frq', problem_statement: 'Solve 2x + 1 = 7.', correct_answer: 'x = 3' };

  it('the LLM gives full credit to a wrong value: the CAS decides (no credit) and says so', async () => {
    fake.reply = () => gradeReply(1, 1);
    // engine "llm": every free-response answer goes to the LLM (without it, a sure offline grade stays offline).
    const g = await grade(client, { ...problem, user_answer: 'x = 4' }, { engine: 'llm' });
    expect(g).toMatchObject({ score: 0, method: 'math', engine: 'offline' });
    expect(g.explanation).toMatch(/Checked by the computer algebra system against the reference answer x = 3: the answer is not equal to it\. The LLM \(llm:fake-model\) gave 1\/1; the CAS decides\./);
  });

  it('the LLM refuses credit to a right value written another way: the CAS gives full credit', async () => {
    fake.reply = () => gradeReply(0, 1);
    const g = await grade(client, { problem_type: 'frq', problem_statement: 'Compute 3/4 + 3/4.', correct_answer: '3/2', user_answer: '1.5' }, { engine: 'llm' });
    expect(g).toMatchObject({ score: 1, max_score: 1, method: 'math', engine: 'offline' });
    expect(g.explanation).toMatch(/equal to it \(full credit\)\. The LLM \(llm:fake-model\) gave 0\/1; the CAS decides/);
  });

  it('when they agree, the LLM grade stands and the explanation says the CAS checked it', async () => {
    fake.reply = () => gradeReply(1, 1);
    const g = await grade(client, { ...problem, user_answer: '3' }, { engine: 'llm' });
    expect(g).toMatchObject({ score: 1, max_score: 1, method: 'llm', engine: 'llm:fake-model' });
    expect(g.explanation).toMatch(/LLM says 1\/1\.\nChecked by the computer algebra system against the reference answer x = 3: equal, as graded\./);
  });

  it('a prose reference is the LLM\'s to grade: no CAS check', async () => {
    fake.reply = () => gradeReply(1, 1);
    const g = await grade(client, { problem_type: 'frq', problem_statement: 'What do plants make?', correct_answer: 'Glucose and oxygen.', user_answer: 'sugar' }, { engine: 'llm' });
    expect(g).toMatchObject({ score: 1, method: 'llm', engine: 'llm:fake-model' });
    expect(g.explanation).not.toMatch(/computer algebra/);
  });
});

describe('generation: each problem is checked before it is kept', () => {
  it('a duplicate problem is asked for again with the reason; the set has no repeat', async () => {
    const from = fake.requests.length;
    // Problem 2 comes back as a copy of problem 1 until the model is told it was rejected.
    fake.reply = (r) => {
      if (r.problem === 2 && !/were rejected/.test(userText(r))) return { content: goodProblem({ ...r, problem: 1 }) };
      return defaultReply(r);
    };
    const s = await waitForSet(client, await createSet(client, { set_description: 'doubling numbers', count: 3, problem_type: 'frq' }));
    expect(s.status, s.message).toBe('completed');
    const statements = s.response.problems.map((p: any) => p.problem_statement);
    expect(new Set(statements).size).toBe(3);
    const asked = problemRequests(from);
    expect(asked.map((r) => r.problem)).toEqual([1, 2, 2, 3]);
    expect(userText(asked[2]!)).toMatch(/Earlier replies for this problem were rejected:\n- it repeats problem 1 of the set/);
    for (const p of s.response.problems) expect(p.explanation).toMatch(/Source: written by the LLM \(llm:fake-model\) and checked by this service/);
  });

  it('an invalid mcq (two choices with one value, 1/2 and 0.5) is asked for again', async () => {
    const from = fake.requests.length;
    fake.reply = (r) => {
      if (r.problem === 1 && !/were rejected/.test(userText(r))) {
        return {
          content: JSON.stringify({
            problem_type: 'mcq',
            problem_statement: 'What is 1 ÷ 2?',
            correct_answer: 'A',
            answer_choices: [
              { key: 'A', text: '1/2' },
              { key: 'B', text: '2' },
              { key: 'C', text: '0.5' },
              { key: 'D', text: '1' },
            ],
            explanation: '1 ÷ 2 = 1/2.',
            scoring_details: '',
          }),
        };
      }
      return defaultReply(r);
    };
    const s = await waitForSet(client, await createSet(client, { set_description: 'halves', count: 1, problem_type: 'mcq' }));
    expect(s.status, s.message).toBe('completed');
    expect(s.response.problems[0].problem_statement).not.toBe('What is 1 ÷ 2?');
    const asked = problemRequests(from);
    expect(asked).toHaveLength(2);
    expect(userText(asked[1]!)).toMatch(/choice C \("0\.5"\) equals the right choice A \("1\/2"\), so more than one choice is right/);
  });

  it('repeated choices, a select-all with no wrong statement, and unparseable mathematics are rejected too', async () => {
    const cases: [string, 'mcq' | 'select_all' | 'frq', object, RegExp][] = [
      ['same text', 'mcq', { correct_answer: 'A', answer_choices: [{ key: 'A', text: 'Paris' }, { key: 'B', text: 'paris' }, { key: 'C', text: 'Rome' }] }, /choices A and B are the same/],
      ['all right', 'select_all', { correct_answer: 'A,B', answer_choices: [{ key: 'A', text: '4' }, { key: 'B', text: '2 + 2' }] }, /at least one right and one wrong statement/],
      ['broken math', 'frq', { correct_answer: 'x = (3 +', answer_choices: [] }, /correct_answer "x = \(3 \+" is meant as mathematics but does not parse/],
    ];
    for (const [label, type, fields, reason] of cases) {
      const from = fake.requests.length;
      fake.reply = (r) => {
        if (/were rejected/.test(userText(r))) return defaultReply(r);
        return { content: JSON.stringify({ problem_type: type, problem_statement: `Bad ${label}?`, explanation: 'x', scoring_details: '', ...fields }) };
      };
      const s = await waitForSet(client, await createSet(client, { set_description: 'anything', count: 1, problem_type: type }));
      expect(s.status, `${label}: ${s.message}`).toBe('completed');
      expect(s.response.problems[0].problem_statement).not.toMatch(/^Bad /);
      const asked = problemRequests(from);
      expect(asked, label).toHaveLength(2);
      expect(userText(asked[1]!), label).toMatch(reason);
    }
  });

  it('a problem that keeps failing the checks fails the set honestly, and it costs nothing', async () => {
    const usage = async () => (await client.get('/v1/usage')).body.credit_balance_micros as number;
    const before = await usage();
    const from = fake.requests.length;
    // Problem 2 is always a copy of problem 1.
    fake.reply = (r) => ({ content: goodProblem({ ...r, problem: 1 }) });
    const s = await waitForSet(client, await createSet(client, { set_description: 'doubling numbers', count: 3, problem_type: 'frq' }));
    expect(s).toMatchObject({ status: 'failed', success: false, completed_problems: 1 });
    expect(s.message).toMatch(/^LLM generation failed at problem 2 of 3 \(engine llm:fake-model\): the model's problem failed the checks 3 times \(last: it repeats problem 1 of the set/);
    expect(s.message).toMatch(/The reserved credit was refunded\.$/);
    expect(problemRequests(from).map((r) => r.problem)).toEqual([1, 2, 2, 2]);
    // Only the reads (status polls at $0.00001) were paid: the $0.03 reservation came back.
    expect(before - (await usage())).toBeLessThan(5_000);
  });
});
