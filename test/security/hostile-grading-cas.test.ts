/**
 * CAS work in grading is bounded by the size of what it is asked (issue 26): answers of a few
 * dozen characters whose expansion is enormous (large powers of sums, long products, nested
 * powers, many variables, huge numbers) held the event loop for seconds (`(x+y)^30 = (x-y)^30`:
 * 7.1 s). Each is now either compared by sampling or refused with the limit named, while
 * /healthz answers; and overflow scores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_POWER_OF_SUM, MAX_SYMBOLIC_TERMS } from '../../server/practice/grading/math/bounds.ts';
import { problemDefect } from '../../server/practice/llm-checks.ts';
import type { PracticeProblem } from '../../server/practice/types.ts';
import { expectCostWithin } from '../helpers/cost.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { expectResponsive, whileProbingHealth } from './health-probe.ts';

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient();
  // The grader loads on first use (CAS, WordNet): not the work measured here.
  await grade('x = 2', 'x = 2');
});
afterAll(() => server.close());

const grade = (user_answer: string, correct_answer: string, problem_statement = 'Solve.') =>
  c.post('/v1/interactives/practice/grade', { problem: { problem_type: 'frq', problem_statement, user_answer, correct_answer } });

const brackets = (n: number, v = 'x') => Array.from({ length: n }, (_, i) => `(${v}+${i + 1})`).join('');
const nest = (n: number, f: (s: string) => string) => Array.from({ length: n }).reduce<string>((s) => f(s), 'x');
const sumOf = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i)).join('+');

/** The whole class, not three inputs: each family at a size well past the bounds. */
const HOSTILE: [string, string, string, string][] = [
  ['a large power of a sum, as an equation', '(x+y)^30 = (x-y)^30', 'x^2 + y^2 = 1', 'Find the equation of the circle.'],
  ['a large power of a sum, as an inequality', '(x+1)^50 > 0', 'x > 0', 'Solve the inequality.'],
  ['a long product, as an equation', `${brackets(20)} = 0`, 'x^2 = 1', 'Write the equation.'],
  ['a long product, as an expression to simplify', brackets(20), 'x^2 + 3x + 2', 'Simplify fully.'],
  ['nested powers of sums', nest(20, (s) => `(${s}+1)^2`), 'x + 1', 'Simplify fully.'],
  ['nested powers of sums, as an equation', `${nest(12, (s) => `(${s}+1)^2`)} = 1`, 'y = x + 1', 'Write the equation.'],
  ['many variables', `(${sumOf(20)})^6 = 1`, 'a + b = 1', 'Write the equation.'],
  ['many variables, to simplify', `(${sumOf(20)})^9`, 'a + b', 'Simplify fully.'],
  ['a denominator raised high', '1/(x+1)^40 = 2', 'y = 2x', 'Write the equation.'],
  ['a huge exponent on a variable', 'x^(10^9) + (x+1)^(10^9)', 'x', 'Simplify.'],
  ['a tower of powers', '9^9^9^9^9^9^9^9^9', '5', 'What is 2 + 3?'],
  ['a huge integer', '9'.repeat(190), '5', 'What is 2 + 3?'],
];

describe('CAS work in grading is bounded by the size of the expansion', () => {
  it.each(HOSTILE)('%s: graded or refused with the limit named, while /healthz answers', async (_name, answer, reference, statement) => {
    const probe = await whileProbingHealth(server.url, () => grade(answer, reference, statement));
    const r = probe.result;
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.score).toBe(0);
    if (r.body.needs_review) expect(r.body.explanation).toMatch(/could not be checked by the CAS: .*(?:\d+|overflow|too large)|could not be read as/);
    expectResponsive(probe);
  });

  it('names the limit it met', async () => {
    // Right value, but whether it is simplified would take the symbolic expansion.
    const power = await grade('(x+1)^10', '(x+1)^10', 'Simplify fully.');
    expect(power.body).toMatchObject({ score: 0, needs_review: true, confidence: 'low' });
    expect(power.body.explanation).toContain(`it raises a sum to a power above ${MAX_POWER_OF_SUM}`);
    const product = await grade(brackets(6, 'a'), brackets(6, 'a'), 'Simplify fully.');
    expect(product.body).toMatchObject({ score: 0, needs_review: true });
    expect(product.body.explanation).toContain(`more than ${MAX_SYMBOLIC_TERMS} terms`);
    const tower = await grade('9^9^9 + 1', '9^9^9', 'Evaluate.');
    expect(tower.body).toMatchObject({ score: 0, needs_review: true });
    expect(tower.body.explanation).toMatch(/too large .* to be compared exactly/);
  });

  it('the same answers within the bounds are still graded as before', async () => {
    expect((await grade('(x-1)^2 + (y+2)^2 = 25', 'x^2 - 2x + y^2 + 4y = 20', 'Write the equation of the circle.')).body.score).toBe(1);
    expect((await grade('(x+1)(x+2)(x+3)', 'x^3 + 6x^2 + 11x + 6', 'Write the polynomial.')).body.score).toBe(1);
    expect((await grade('2y = 4x + 6', 'y = 2x + 3', 'Write the equation of the line.')).body.score).toBe(1);
    expect((await grade('x/y = 2', 'x = 2y', 'Write the relation.')).body.score).toBe(1);
    expect((await grade('(x+y)^3 = 8', 'x^3 + 3x^2y + 3xy^2 + y^3 = 8', 'Write the equation.')).body.score).toBe(1);
  });
});

describe('overflow is no answer', () => {
  // Five wrong answers that each scored full marks: 10^999 and 9^9^9 overflowed to Infinity, and
  // two infinities compared equal.
  it.each([
    ['What is 6 × 7?', '42'],
    ['How many sides has a hexagon?', '6'],
    ['What is 2^10?', '1024'],
    ['Evaluate 3/4 + 1/4.', '1'],
    ['Solve 2x = 9.', 'x = 4.5'],
  ])('%s', async (statement, reference) => {
    for (const answer of ['9^9^9', '10^999', '-10^999', 'x = 9^9^9']) {
      const r = await grade(answer, reference, statement);
      expect(r.status).toBe(200);
      expect(r.body.score, `${answer}: ${r.body.explanation}`).toBe(0);
    }
  });
});

describe('CAS work in generation is bounded too', () => {
  // The offline generators build every CAS input from template parameters of fixed ranges (no
  // text of the request reaches nerdamer); an LLM's problem is checked with the grader's CAS,
  // whose bounds hold there as well.
  const problem = (correct_answer: string, choices: string[] = []): PracticeProblem => ({
    problem_type: choices.length ? 'mcq' : 'frq',
    problem_statement: 'Solve.',
    correct_answer: choices.length ? 'A' : correct_answer,
    difficulty: 'medium',
    answer_choices: Object.fromEntries(choices.map((c, i) => [String.fromCharCode(65 + i), c])),
    explanation: 'x',
    scoring_details: '',
    include_graph: false,
    graph_description: '',
    graph_url: '',
  });
  it("an LLM's problem holding hostile mathematics costs about what an ordinary one does", async () => {
    await problemDefect(problem('x = 2'), []);
    const hostile = [problem('(x+y)^30 = (x-y)^30'), problem('', ['(x+y)^30 = (x-y)^30', `${brackets(20)} = 0`, nest(20, (s) => `(${s}+1)^2`), '9^9^9'])];
    const ordinary = [problem('x^2 + y^2 = 1'), problem('', ['x = 2', 'x = 3', 'x = 4', 'x = 5'])];
    await expectCostWithin(
      async () => { for (const p of hostile) await problemDefect(p, []); },
      async () => { for (const p of ordinary) await problemDefect(p, []); },
      20,
      'checking hostile generated problems',
    );
  });
});
