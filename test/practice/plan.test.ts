import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { planSet } from '../../server/practice/offline/index.ts';
import type { GenerateRequest, PracticeProblem } from '../../server/practice/types.ts';

function run(req: Partial<GenerateRequest> & { description: string }): { engine: string; setName: string; problems: PracticeProblem[] } {
  const plan = planSet({ count: 6, problemType: 'mixed', difficulty: 'medium', seed: 42, ...req });
  if (!plan.ok) throw new Error(plan.message);
  return { engine: plan.engine, setName: plan.setName, problems: Array.from({ length: plan.total }, (_, i) => plan.next(i)) };
}

/** A wrong answer for any problem: another key, a different key set, or a value that is not the answer. */
function wrongAnswer(p: PracticeProblem): string {
  const keys = Object.keys(p.answer_choices);
  if (p.problem_type === 'mcq') return keys.find((k) => k !== p.correct_answer)!;
  if (p.problem_type === 'select_all') {
    const correct = p.correct_answer.split(',');
    return keys.filter((k) => !correct.includes(k)).join(',');
  }
  return /\d/.test(p.correct_answer) ? 'x = 987654' : 'completely unrelated words';
}

function gradeOwn(p: PracticeProblem, user: string) {
  return gradeAnswer({ ...p, user_answer: user });
}

const DESCRIPTIONS: [string, string][] = [
  ['grade 8 linear equations', 'one-step-equations+two-step-equations+multi-step-equations'],
  ['quadratic equations by factoring', 'quadratic-factoring'],
  ['systems of linear equations', 'systems-substitution+systems-elimination'],
  ['derivatives of polynomials', 'derivatives'],
  ['integration of polynomials', 'integrals'],
  ['percentages word problems', 'percent-of+percent-change+simple-interest+percent-conversion'],
  ['adding and subtracting fractions', 'fraction-addition+fraction-subtraction'],
  ['laws of exponents', 'exponents'],
  ['order of operations', 'arithmetic'],
  ['vocabulary: cell organelles', 'vocabulary:organelle'],
  ['planets of the solar system', 'vocabulary:planet'],
  ['chemical elements vocabulary', 'vocabulary:chemical element'],
];

describe('planSet (offline engine)', () => {
  it.each(DESCRIPTIONS)('"%s" is detected as %s and names its engine', (description, id) => {
    const { engine, setName, problems } = run({ description });
    expect(engine).toBe(`offline:${id}`);
    expect(setName.length).toBeGreaterThan(3);
    expect(problems).toHaveLength(6);
  });

  it.each(DESCRIPTIONS)('"%s": every problem is well formed; its own answer grades full and a wrong one does not', (description) => {
    for (const difficulty of ['easy', 'medium', 'hard'] as const) {
      const { problems } = run({ description, difficulty, count: 9 });
      for (const p of problems) {
        expect(p.difficulty).toBe(difficulty);
        expect(p.problem_statement.length).toBeGreaterThan(5);
        expect(p.explanation.length).toBeGreaterThan(5);
        if (p.problem_type === 'frq') expect(p.answer_choices).toEqual({});
        else {
          const values = Object.values(p.answer_choices);
          expect(new Set(values).size, JSON.stringify(p.answer_choices)).toBe(values.length);
          for (const k of p.correct_answer.split(',')) expect(p.answer_choices).toHaveProperty(k);
        }
        const full = gradeOwn(p, p.correct_answer);
        expect(full.score, `${p.problem_statement} / ${p.correct_answer}`).toBe(full.max_score);
        const wrong = gradeOwn(p, wrongAnswer(p));
        expect(wrong.score, `${p.problem_statement} / ${wrongAnswer(p)}`).toBeLessThan(wrong.max_score);
      }
    }
  });

  it('mcq choices other than the key are not mathematically equivalent to the answer', () => {
    for (const [description] of DESCRIPTIONS.slice(0, 9)) {
      for (const seed of [7, 8, 9]) {
      const { problems } = run({ description, problemType: 'mcq', count: 15, seed, difficulty: (['easy', 'medium', 'hard'] as const)[seed % 3] });
      for (const p of problems) {
        expect(p.problem_type).toBe('mcq');
        const right = p.answer_choices[p.correct_answer];
        for (const [k, v] of Object.entries(p.answer_choices)) {
          if (k === p.correct_answer) continue;
          const g = gradeAnswer({ problem_type: 'frq', problem_statement: '', user_answer: v, correct_answer: right });
          expect(g.score, `${description}: ${v} vs ${right}`).toBeLessThan(1);
        }
      }
      }
    }
  }, 120_000);

  it('honours problem_type and the count bounds 1..15', () => {
    for (const type of ['mcq', 'frq', 'select_all'] as const) {
      const { problems } = run({ description: 'linear equations', problemType: type, count: 15 });
      expect(problems).toHaveLength(15);
      expect(problems.every((p) => p.problem_type === type)).toBe(true);
    }
    const mixed = run({ description: 'derivatives', count: 3 }).problems.map((p) => p.problem_type);
    expect(mixed).toEqual(['mcq', 'frq', 'select_all']);
    expect(run({ description: 'fractions', count: 1 }).problems).toHaveLength(1);
    for (const count of [0, 16, 2.5 - 2.5]) expect(planSet({ description: 'fractions', count, problemType: 'mixed', difficulty: 'medium' }).ok).toBe(false);
    const plan = planSet({ description: 'fractions', count: 2, problemType: 'mixed', difficulty: 'medium' });
    if (!plan.ok) throw new Error('plan failed');
    expect(() => plan.next(2)).toThrow(RangeError);
  });

  it('is deterministic with a seed, independent of call order, and varies across seeds', () => {
    const a = run({ description: 'systems of equations and quadratics', seed: 9, count: 8 });
    const b = run({ description: 'systems of equations and quadratics', seed: 9, count: 8 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const plan = planSet({ description: 'systems of equations and quadratics', count: 8, problemType: 'mixed', difficulty: 'medium', seed: 9 });
    if (!plan.ok) throw new Error('plan failed');
    expect(JSON.stringify(plan.next(5))).toBe(JSON.stringify(a.problems[5]));
    const c = run({ description: 'systems of equations and quadratics', seed: 10, count: 8 });
    expect(JSON.stringify(c.problems)).not.toBe(JSON.stringify(a.problems));
    expect(a.engine).toBe('offline:quadratic-factoring+quadratic-formula+completing-the-square+systems-substitution+systems-elimination');
  });

  it('no question twice: easy draws that repeat an earlier problem are drawn again, deterministically', () => {
    for (const [description] of DESCRIPTIONS.slice(0, 9)) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const { problems } = run({ description, difficulty: 'easy', problemType: 'frq', count: 15, seed });
        const statements = problems.map((p) => p.problem_statement.replace(/\s+/g, ' ').toLowerCase());
        expect(new Set(statements).size, `${description} seed ${seed}`).toBe(15);
        // Made out of order, problem 14 is the same (the earlier ones are made first).
        const plan = planSet({ description, count: 15, problemType: 'frq', difficulty: 'easy', seed });
        if (!plan.ok) throw new Error(plan.message);
        expect(plan.next(14)).toEqual(problems[14]);
      }
    }
  });

  it('fails honestly for a topic no generator covers, naming the LLM settings', () => {
    for (const description of ['history of the roman empire', 'vocabulary: xyzzyqq plorks', 'write a sonnet about love']) {
      const plan = planSet({ description, count: 5, problemType: 'mixed', difficulty: 'medium' });
      expect(plan.ok).toBe(false);
      if (plan.ok) continue;
      expect(plan.message).toContain('No offline generator covers');
      for (const v of ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL']) expect(plan.message).toContain(v);
    }
  });

  it('refuses a WordNet category with too few terms instead of inventing some', () => {
    const plan = planSet({ description: 'vocabulary: types of pluton', count: 5, problemType: 'mixed', difficulty: 'medium' });
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(plan.message).toMatch(/WordNet lists only \d+ term|No offline generator/);
  });

  it('makes definition and cloze questions from journal context, grading its own answers', () => {
    const context = [
      'Photosynthesis is the process by which plants turn light, water and carbon dioxide into glucose and oxygen.',
      'Notes: Osmosis is the diffusion of water across a semipermeable membrane. It is important.\n- Diffusion is the movement of particles from high to low concentration.',
      'A catalyst is a substance that speeds up a reaction without being used up.',
      '# Cell notes\n\nMitosis is the division of one cell nucleus into two identical nuclei.\nAn enzyme is a protein that catalyses a chemical reaction.\nA ribosome is the site of protein synthesis in the cell.',
    ];
    const { engine, problems } = run({ description: 'biology revision from my notes', context, count: 8 });
    // One question per sentence: six questions (and two select-all) from six sentences, none twice.
    expect(new Set(problems.map((p) => p.problem_statement)).size).toBe(8 - 2 + 1);
    expect(problems.filter((p) => /Mitosis|enzyme|ribosome/.test(p.problem_statement + p.correct_answer)).every((p) => p.explanation.includes('Source: your journal "Cell notes"'))).toBe(true);
    const tooMany = planSet({ description: 'biology revision', context, count: 12, problemType: 'frq', difficulty: 'medium' });
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.message).toMatch(/give only 6 distinct question\(s\) where this set needs 12/);
    expect(engine).toBe('offline:context');
    const text = JSON.stringify(problems);
    expect(text).toContain('Photosynthesis');
    expect(text).not.toContain('It is important');
    for (const p of problems) {
      expect(gradeOwn(p, p.correct_answer).score).toBe(gradeOwn(p, p.correct_answer).max_score);
      const wrong = gradeOwn(p, wrongAnswer(p));
      expect(wrong.score).toBeLessThan(wrong.max_score);
    }
    const withMath = run({ description: 'linear equations', context, count: 4 });
    expect(withMath.engine).toBe('offline:one-step-equations+two-step-equations+multi-step-equations');
  });
});
