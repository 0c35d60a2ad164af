import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { distinctDistractors, type TopicGenerator } from '../../server/practice/offline/item.ts';
import { MATH_GENERATORS } from '../../server/practice/offline/detect.ts';
import { planSet } from '../../server/practice/offline/index.ts';
import { arithmetic } from '../../server/practice/offline/math/arithmetic.ts';
import { derivatives } from '../../server/practice/offline/math/derivatives.ts';
import { exponents } from '../../server/practice/offline/math/exponents.ts';
import { integrals } from '../../server/practice/offline/math/integrals.ts';
import { makeRng } from '../../server/practice/offline/rng.ts';
import type { Difficulty } from '../../server/practice/types.ts';
import { close, evalExpr } from './helpers.ts';

const LEVELS: Difficulty[] = ['easy', 'medium', 'hard'];
const SEEDS = [1, 2, 3, 4, 5, 6];

function* items(gen: TopicGenerator, seeds = SEEDS) {
  for (const d of LEVELS) for (const s of seeds) yield { d, item: gen.make(makeRng(s * 101 + d.length), d, s) };
}

describe('math generators compute correct answers (checked independently with kas arithmetic)', () => {
  it("derivatives: f'(x) matches a numeric central difference of f", () => {
    for (const { item } of items(derivatives)) {
      const f = item.params.f as string;
      for (const x of [-1.7, 0.3, 2.2]) {
        const h = 1e-4;
        const numeric = (evalExpr(f, { x: x + h }) - evalExpr(f, { x: x - h })) / (2 * h);
        expect(close(evalExpr(item.answer, { x }), numeric, 1e-5), `${f} -> ${item.answer}`).toBe(true);
      }
    }
  });

  it('integrals: the antiderivative differentiates back to f; definite values match Simpson integration', () => {
    for (const { item } of items(integrals)) {
      const f = item.params.f as string;
      if (item.params.definite) {
        const { lo, hi } = item.params as { lo: number; hi: number };
        const n = 200;
        const h = (hi - lo) / n;
        let sum = evalExpr(f, { x: lo }) + evalExpr(f, { x: hi });
        for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * evalExpr(f, { x: lo + i * h });
        expect(close(evalExpr(item.answer), (sum * h) / 3, 1e-6), `${item.prompt} -> ${item.answer}`).toBe(true);
      } else {
        expect(item.answer).toMatch(/\+ C$/);
        for (const x of [-1.3, 0.4, 1.9]) {
          const h = 1e-4;
          const F = (v: number) => evalExpr(item.answer, { x: v, C: 0 });
          expect(close((F(x + h) - F(x - h)) / (2 * h), evalExpr(f, { x }), 1e-5), `${f} -> ${item.answer}`).toBe(true);
        }
      }
    }
  });

  it('arithmetic and exponents: the answer equals the expression evaluated by kas', () => {
    for (const gen of [arithmetic, exponents]) {
      for (const { item } of items(gen)) {
        const expr = item.params.expression as string;
        for (const x of [1.3, 2.1]) {
          expect(close(evalExpr(item.answer, { x }), evalExpr(expr, { x }), 1e-4), `${gen.id}: ${expr} -> ${item.answer}`).toBe(true);
        }
      }
    }
  });

  it('every generator: own answer grades full, each distractor is distinct and grades below full', () => {
    for (const gen of MATH_GENERATORS) {
      for (const { item } of items(gen, SEEDS.slice(0, 3))) {
        const ds = distinctDistractors(item.answer, item.distractors);
        expect(ds.length, `${gen.id}: ${item.prompt}`).toBeGreaterThanOrEqual(2);
        expect(new Set(ds.map((d) => d.value)).size).toBe(ds.length);
        const grade = (user: string) => gradeAnswer({ problem_type: 'frq', problem_statement: item.prompt, user_answer: user, correct_answer: item.answer });
        expect(grade(item.answer).score, `${gen.id}: ${item.answer}`).toBe(1);
        for (const d of ds) expect(grade(d.value).score, `${gen.id}: ${d.value} vs ${item.answer}`).toBeLessThan(1);
        expect(item.explanation.length).toBeGreaterThan(20);
      }
    }
    // Every sub-topic, a few hundred grades: tens of seconds on a loaded 2-core machine.
  }, 120_000);
});

describe('multiple choice is always possible', () => {
  it('a set asked for mcq gets mcq for every seed, though some draws leave fewer than two distinct wrong choices', () => {
    for (const description of ['fractions', 'systems of linear equations', 'exponents', 'linear equations']) {
      for (let seed = 1; seed <= 16; seed++) {
        const plan = planSet({ description, count: 15, problemType: 'mcq', difficulty: (['easy', 'medium', 'hard'] as const)[seed % 3], seed });
        if (!plan.ok) throw new Error(`${description}: ${plan.message}`);
        for (let i = 0; i < plan.total; i++) expect(plan.next(i).problem_type, `${description} seed ${seed} #${i}`).toBe('mcq');
      }
    }
    // Thousands of CAS draws: on a loaded 2-core machine this takes tens of seconds.
  }, 120_000);
});
