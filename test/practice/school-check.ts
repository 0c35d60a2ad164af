/**
 * The checks of the school sub-topic suites (school-topics-*.test.ts): what each generator made,
 * read from the structure it records, not from the text.
 */
import { expect } from 'vitest';
import { MATH_GENERATORS } from '../../server/practice/offline/detect.ts';
import { planSet } from '../../server/practice/offline/index.ts';
import { distinctDistractors } from '../../server/practice/offline/item.ts';
import { questionKey } from '../../server/practice/offline/question-key.ts';
import { makeRng } from '../../server/practice/offline/rng.ts';
import { subTopic } from '../../server/practice/offline/school/catalogue.ts';
import type { Difficulty } from '../../server/practice/types.ts';

export const LEVELS: Difficulty[] = ['easy', 'medium', 'hard'];
export const SEEDS = 50;

/**
 * For every level and 50 seeds: the item records this sub-topic; its answer passes the CAS check
 * of the problem; every wrong choice fails it, and there are at least two distinct ones. Then sets
 * made from the sub-topic's first example description: drawn from this sub-topic alone (the set's
 * engine), no two problems alike.
 */
export function checkSubTopic(id: string): void {
  const gen = MATH_GENERATORS.find((g) => g.id === id);
  expect(gen, `no generator for ${id}`).toBeDefined();
  for (const [l, level] of LEVELS.entries()) {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const item = gen!.make(makeRng(seed * 7919 + l), level, seed);
      const where = `${id} ${level} seed ${seed}: ${item.prompt} -> ${item.answer}`;
      expect(item.params.subtopic, where).toBe(id);
      expect(item.verify, where).toBeDefined();
      expect(item.verify!(item.answer), where).toBe(true);
      const wrong = distinctDistractors(item.answer, item.distractors);
      expect(wrong.length, where).toBeGreaterThanOrEqual(2);
      for (const d of wrong) expect(item.verify!(d.value), `${where}; wrong choice ${d.value}`).toBe(false);
    }
    const description = subTopic(id).examples[0]!;
    for (const seed of [1, 2]) {
      const plan = planSet({ description, count: 8, problemType: 'mixed', difficulty: level, seed });
      if (!plan.ok) throw new Error(`${id} ${level}: ${plan.message}`);
      expect(plan.engine).toBe(`offline:${id}`);
      const problems = Array.from({ length: plan.total }, (_, i) => plan.next(i));
      expect(new Set(problems.map(questionKey)).size, `${id} ${level} seed ${seed}: a problem repeats`).toBe(problems.length);
      for (const p of problems.filter((x) => x.problem_type === 'select_all')) {
        const statements = Object.values(p.answer_choices);
        expect(new Set(statements).size, `${id}: a select-all statement repeats`).toBe(statements.length);
      }
    }
  }
}
