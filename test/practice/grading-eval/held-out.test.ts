import { beforeAll, describe, expect, it } from 'vitest';
import { BinaryItem, gradeBinary, gradeRubric, type Outcome, parseItems, RubricItem, stats, type Stats, table } from './evaluate.ts';

/**
 * Held-out sets (held-out/README.md): labelled by hand before the grader saw them, in topics and
 * rubric layouts the main set does not use. Set A was then used to find classes of mistakes (so
 * its figures are no longer unseen); set B was written last and measured as it came. The test
 * prints both and fails when grading agrees less than the floors below, the figures of the last
 * measurement: it guards against regressions, it does not claim the main set's goals.
 */
const SETS = [
  { name: 'A: math', file: 'held-out/math-a.json', kind: 'binary', floor: 0.97 },
  { name: 'A: short answer', file: 'held-out/short-a.json', kind: 'binary', floor: 0.9 },
  { name: 'A: rubric', file: 'held-out/rubric-a.json', kind: 'rubric', floor: 0.58 },
  { name: 'B: short answer', file: 'held-out/short-b.json', kind: 'binary', floor: 0.8 },
  { name: 'B: rubric', file: 'held-out/rubric-b.json', kind: 'rubric', floor: 0.4 },
] as const;

describe('held-out grading sets', () => {
  const bySet = new Map<string, Stats>();

  beforeAll(async () => {
    for (const set of SETS) {
      const outcomes: Outcome[] = [];
      if (set.kind === 'binary') for (const item of parseItems(set.file, BinaryItem)) outcomes.push(await gradeBinary(set.name, item));
      else for (const item of parseItems(set.file, RubricItem)) outcomes.push(await gradeRubric(item));
      bySet.set(set.name, stats(outcomes));
    }
    console.log(`\nHeld-out sets: free-response grading vs teacher labels\n${table([...bySet])}\n`);
  }, 300_000);

  for (const set of SETS) {
    it(`${set.name}: agreement stays at or above ${set.floor * 100}%`, () => {
      expect(bySet.get(set.name)!.agreement).toBeGreaterThanOrEqual(set.floor);
    });
  }
});
