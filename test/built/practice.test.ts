/**
 * Practice on the built server (`node dist/server/main.mjs`): one set per chosen generator and
 * difficulty (the first engine's CAS-heavy ones, a few school sub-topics of issue 29, "Systems of
 * linear equations" as the issue words it, the vocabulary examples, journal context), each
 * problem's own answer graded full and a wrong one not through the built grader; every catalogue
 * sub-topic makes a set in the bundle (read from the catalogue, so one added later is covered);
 * and each grading method with a right and a wrong answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOCABULARY_EXAMPLES } from '../../server/practice/offline/coverage.ts';
import { CATALOGUE, subTopic } from '../../server/practice/offline/school/catalogue.ts';
import { difficulties } from '../../server/practice/schema.ts';
import { killChildServers, prepareDataDir, startChildServer } from '../helpers/child-server.ts';
import { Client } from '../helpers/server.ts';
import { createSet, grade, waitForSet, wrongAnswer } from '../practice-api/helpers.ts';

let c: Client;

interface Case {
  name: string;
  body: { set_description: string; search_for_problems?: boolean };
  /** Whether the set's engine (`offline:<generator ids joined by +>`) names this generator. */
  made: (ids: string[]) => boolean;
}

/** Sub-topics graded at every level in the bundle: the CAS-heavy ones and a few of issue 29. */
const GRADED = ['derivatives', 'integrals', 'arithmetic', 'exponents', 'fraction-addition', 'one-step-equations', 'pythagorean-theorem', 'quadratic-formula', 'literal-equations', 'circles'];

// A sub-topic is asked for by its first example description ("adding fractions").
const CASES: Case[] = [
  ...GRADED.map((id) => ({ name: id, body: { set_description: subTopic(id).examples[0]! }, made: (ids: string[]) => ids.length === 1 && ids[0] === id })),
  // In the built server this once failed with an internal error (nerdamer's Solve add-on missing from the bundle).
  { name: 'Systems of linear equations', body: { set_description: 'Systems of linear equations' }, made: (ids: string[]) => ids.join('+') === 'systems-substitution+systems-elimination' },
  ...VOCABULARY_EXAMPLES.map((d) => ({ name: `vocabulary "${d}"`, body: { set_description: d }, made: (ids: string[]) => ids.length === 1 && ids[0]!.startsWith('vocabulary:') })),
  { name: 'context (search_for_problems)', body: { set_description: 'biology revision', search_for_problems: true }, made: (ids: string[]) => ids.includes('context') },
];

/** Mixed sets of three: one mcq, one frq, one select_all. */
const COUNT = 3;
const sets = new Map<string, Promise<string>>();
/** One set per catalogue sub-topic, the level taking turns. */
const everyTopic = new Map<string, Promise<string>>();
const key = (name: string, level: string) => `${name}|${level}`;

beforeAll(async () => {
  const { dataDir, key: apiKey, orgId } = await prepareDataDir();
  const server = await startChildServer(dataDir);
  c = new Client(server.url, apiKey, orgId);
  // The notes the context generator asks about (sentences of the form "X is Y").
  await c.importMarkdown(
    '# Biology notes\n\nPhotosynthesis is the process by which plants turn light, water and carbon dioxide into glucose.\n\nOsmosis is the diffusion of water across a semipermeable membrane.\n\nA catalyst is a substance that speeds up a reaction without being used up.\n\nDiffusion is the movement of particles from high to low concentration.\n',
    'Biology',
  );
  // Every set at once: the built server's job runner works through them while the cases read.
  for (const cs of CASES) for (const level of difficulties) sets.set(key(cs.name, level), createSet(c, { ...cs.body, difficulty: level, count: COUNT }));
  CATALOGUE.forEach((t, i) => everyTopic.set(t.id, createSet(c, { set_description: t.examples[0]!, difficulty: difficulties[i % 3], count: COUNT })));
  await Promise.all([...sets.values(), ...everyTopic.values()]);
});
afterAll(() => killChildServers());

describe.each(CASES)('offline generator $name', (cs) => {
  it.each(difficulties)('%s: completes; its answers grade full and wrong answers do not', async (level) => {
    const s = await waitForSet(c, await sets.get(key(cs.name, level))!, undefined, 60_000);
    expect(s.status, s.message).toBe('completed');
    expect(s).toMatchObject({ success: true, total_problems: COUNT, completed_problems: COUNT });
    expect(cs.made(s.engine.replace(/^offline:/, '').split('+')), s.engine).toBe(true);
    const problems = s.response.problems;
    expect(problems.map((p: any) => p.problem_type)).toEqual(['mcq', 'frq', 'select_all']);
    for (const p of problems) {
      expect(p.difficulty).toBe(level);
      const full = await grade(c, { ...p, user_answer: p.correct_answer });
      expect(full.score, `${p.problem_statement} / ${p.correct_answer}: ${full.explanation}`).toBe(full.max_score);
      const wrongValue = wrongAnswer(p, problems);
      const wrong = await grade(c, { ...p, user_answer: wrongValue });
      expect(wrong.score, `${p.problem_statement} / ${wrongValue}: ${wrong.explanation}`).toBeLessThan(wrong.max_score);
    }
  });
});

it('every catalogue sub-topic makes a set of itself in the built server', async () => {
  for (const t of CATALOGUE) {
    const s = await waitForSet(c, await everyTopic.get(t.id)!, undefined, 60_000);
    expect(s.status, `${t.id}: ${s.message}`).toBe('completed');
    expect(s.engine).toBe(`offline:${t.id}`);
    expect(s.response.problems).toHaveLength(COUNT);
  }
}, 180_000);

it('the vocabulary examples ask for kinds and for parts', async () => {
  const names = await Promise.all(VOCABULARY_EXAMPLES.map(async (d) => (await waitForSet(c, await sets.get(key(`vocabulary "${d}"`, 'easy'))!)).response.set_name as string));
  expect(names.some((n) => n.startsWith('Vocabulary: parts of '))).toBe(true);
  expect(names.some((n) => !n.startsWith('Vocabulary: parts of '))).toBe(true);
});

describe('each grading method, right and wrong', () => {
  const choices = { A: 'Mars', B: 'Venus', C: 'Jupiter', D: 'Mercury' };

  it('choice: mcq', async () => {
    const problem = { problem_type: 'mcq', problem_statement: 'Which planet is largest?', correct_answer: 'C', answer_choices: choices };
    expect(await grade(c, { ...problem, user_answer: 'c' })).toMatchObject({ score: 1, max_score: 1, method: 'choice' });
    expect(await grade(c, { ...problem, user_answer: 'A' })).toMatchObject({ score: 0, max_score: 1, method: 'choice' });
  });

  it('choice: select_all, with partial credit', async () => {
    const problem = { problem_type: 'select_all', problem_statement: 'Which planets are rocky?', correct_answer: 'A,B,D', answer_choices: choices };
    const full = await grade(c, { ...problem, user_answer: 'D, A, B' });
    expect(full).toMatchObject({ method: 'choice' });
    expect(full.score).toBe(full.max_score);
    const partial = await grade(c, { ...problem, user_answer: 'A,B' });
    expect(partial.score).toBeGreaterThan(0);
    expect(partial.score).toBeLessThan(partial.max_score);
    const wrong = await grade(c, { ...problem, user_answer: 'C' });
    expect(wrong.score).toBeLessThan(partial.score);
  });

  it('math: symbolic equivalence (the bundled CAS)', async () => {
    const problem = { problem_type: 'frq', problem_statement: 'Expand (x+1)^2.' , correct_answer: 'x^2 + 2x + 1' };
    const right = await grade(c, { ...problem, user_answer: '(1+x)*(x+1)' });
    expect(right).toMatchObject({ score: 1, max_score: 1, method: 'math' });
    expect(await grade(c, { ...problem, user_answer: 'x^2 + 1' })).toMatchObject({ score: 0, method: 'math' });
    const roots = { problem_type: 'frq', problem_statement: 'Solve x^2 - 5x + 6 = 0.', correct_answer: 'x = 2, x = 3' };
    expect((await grade(c, { ...roots, user_answer: 'x = 3 or x = 2' })).score).toBe(1);
    expect((await grade(c, { ...roots, user_answer: 'x = 3' })).score).toBeLessThan(1);
  });

  it('short answer: a term, spelled loosely', async () => {
    const problem = { problem_type: 'frq', problem_statement: 'Which organelle releases energy from food?', correct_answer: 'mitochondrion' };
    const right = await grade(c, { ...problem, user_answer: 'the mitochondria' });
    expect(right.score, right.explanation).toBe(right.max_score);
    const wrong = await grade(c, { ...problem, user_answer: 'the ribosome' });
    expect(wrong.score, wrong.explanation).toBe(0);
  });

  it('rubric: criteria with points, partial credit', async () => {
    const problem = {
      problem_type: 'frq',
      problem_statement: 'Describe the water cycle.',
      correct_answer: 'Water evaporates, condenses into clouds and falls as rain.',
      scoring_details: '- water evaporates (2 pts)\n- vapour condenses into clouds (1 pt)\n- falls as precipitation (1 pt)',
    };
    const full = await grade(c, { ...problem, user_answer: 'Water evaporates from the sea, the vapour condenses into clouds, and it falls back as precipitation.' });
    expect(full, full.explanation).toMatchObject({ score: 4, max_score: 4, method: 'rubric' });
    const partial = await grade(c, { ...problem, user_answer: 'Water evaporates when the sun heats it.' });
    expect(partial.score, partial.explanation).toBe(2);
    const wrong = await grade(c, { ...problem, user_answer: 'Plants make glucose from light.' });
    expect(wrong.score, wrong.explanation).toBe(0);
    expect(wrong.missed).toHaveLength(3);
  });
});
