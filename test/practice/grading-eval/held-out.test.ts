import { beforeAll, describe, expect, it } from 'vitest';
import { BinaryItem, gradeBinary, gradeRubric, maxByLayout, type Outcome, parseItems, pct, RubricItem, stats, type Stats, table } from './evaluate.ts';

/**
 * Held-out sets (held-out/README.md): labelled by hand before the grader saw them, in topics and
 * rubric layouts the main set does not use. Set A was then used to find classes of mistakes (so
 * its figures are no longer unseen); set B was written last and measured as it came. The test
 * prints both and fails when grading agrees less than the floors below, the figures of the last
 * measurement: it guards against regressions, it does not claim the main set's goals.
 */
const SETS = [
  { name: 'A: math', file: 'held-out/math-a.json', kind: 'binary', floor: 0.99 },
  { name: 'A: short answer', file: 'held-out/short-a.json', kind: 'binary', floor: 0.93 },
  { name: 'A: rubric', file: 'held-out/rubric-a.json', kind: 'rubric', floor: 0.58, maxFloor: 1 },
  { name: 'B: short answer', file: 'held-out/short-b.json', kind: 'binary', floor: 0.82 },
  { name: 'B: rubric', file: 'held-out/rubric-b.json', kind: 'rubric', floor: 0.42, maxFloor: 1 },
  // Set C: written by a session that had not read the grader, frozen before it was graded; measured
  // once unseen (93.3%, 88.0%, 39.4%), then studied: the rules tuned on it are listed in rules.ts.
  // Floors: the measurement after those rules (2026-11-28: 99.3%, 92.3%, 40.0%), slightly below.
  { name: 'C: math', file: 'held-out/math-c.json', kind: 'binary', floor: 0.98 },
  { name: 'C: short answer', file: 'held-out/short-c.json', kind: 'binary', floor: 0.91 },
  { name: 'C: rubric', file: 'held-out/rubric-c.json', kind: 'rubric', floor: 0.39, maxFloor: 1 },
  // Set D: written by a session that had not read the grader, frozen before it was graded; unseen
  // both by the rules before set C's and by those tuned on C (95.7% -> 96.0%, 88.4% -> 89.3%,
  // 32.6%, max_score 72.7%), then studied: the rules tuned on it are listed in rules.ts ("D").
  // Floors: the measurement after those rules (2026-11-28: 98.2%, 92.0%, 37.1%, max_score 100%), slightly below.
  { name: 'D: math', file: 'held-out/math-d.json', kind: 'binary', floor: 0.98 },
  { name: 'D: short answer', file: 'held-out/short-d.json', kind: 'binary', floor: 0.91 },
  { name: 'D: rubric', file: 'held-out/rubric-d.json', kind: 'rubric', floor: 0.36, maxFloor: 1 },
  // Set E: written by a session that had not read the grader, frozen before it was graded; unseen by
  // the rules tuned on C and on D (93.8%, 90.1%, 26.6%, max_score 58.1%), then studied: the rules
  // tuned on it are listed in rules.ts ("E"). Floors: the measurement after those rules
  // (2026-11-28: 97.2%, 90.9%, 26.6%, max_score 100%), slightly below.
  { name: 'E: math', file: 'held-out/math-e.json', kind: 'binary', floor: 0.96 },
  { name: 'E: short answer', file: 'held-out/short-e.json', kind: 'binary', floor: 0.9 },
  { name: 'E: rubric', file: 'held-out/rubric-e.json', kind: 'rubric', floor: 0.25, maxFloor: 1 },
  // Set F: written by a session that had not read the grader, frozen before it was graded; unseen by
  // the rules tuned on D and on E (90.0%, 89.9%, 37.5%, max_score 56.7%), then studied: the rules
  // tuned on it are listed in rules.ts ("F"). Floors: the measurement after those rules
  // (2026-11-28: 93.7%, 89.9%, 40.8%, max_score 96.7%), slightly below; max_score 100% since the
  // rules tuned on G (a marked line heading indented unmarked ones).
  { name: 'F: math', file: 'held-out/math-f.json', kind: 'binary', floor: 0.93 },
  { name: 'F: short answer', file: 'held-out/short-f.json', kind: 'binary', floor: 0.89 },
  { name: 'F: rubric', file: 'held-out/rubric-f.json', kind: 'rubric', floor: 0.4, maxFloor: 1 },
  // Set G: written by a session that had not read the grader, frozen before it was graded; unseen by
  // the rules tuned on E and on F (94.2%, 88.6%, 32.5%, max_score 46.7%), then studied: the rules
  // tuned on it are listed in rules.ts ("G"). Floors: the measurement after those rules
  // (2026-11-28: 96.6%, 89.5%, 39.2%, max_score 100%), slightly below.
  { name: 'G: math', file: 'held-out/math-g.json', kind: 'binary', floor: 0.96 },
  { name: 'G: short answer', file: 'held-out/short-g.json', kind: 'binary', floor: 0.89 },
  { name: 'G: rubric', file: 'held-out/rubric-g.json', kind: 'rubric', floor: 0.38, maxFloor: 1 },
  // Set H: written by a session that had not read the grader, frozen before it was graded; unseen by
  // the rules tuned on F and on G (87.5%, 88.1%, 31.3%, max_score 53.6%; README), then studied: the
  // rules tuned on it are listed in rules.ts ("H"). Floors: the measurement after those rules
  // (2026-11-28: 98.3%, 90.7%, 33.9%, max_score 100%), slightly below.
  { name: 'H: math', file: 'held-out/math-h.json', kind: 'binary', floor: 0.98 },
  { name: 'H: short answer', file: 'held-out/short-h.json', kind: 'binary', floor: 0.9 },
  { name: 'H: rubric', file: 'held-out/rubric-h.json', kind: 'rubric', floor: 0.33, maxFloor: 1 },
  // Set I: written by a session that had not read the grader, frozen before it was graded; unseen by
  // the rules tuned on G and on H (94.0%, 89.8%, 30.8%, max_score 53.8%; README), then studied: the
  // rules tuned on it are listed in rules.ts ("I"). Floors: the measurement after those rules
  // (2026-11-28: 97.9%, 89.8%, 37.5%, max_score 100%), slightly below.
  { name: 'I: math', file: 'held-out/math-i.json', kind: 'binary', floor: 0.97 },
  { name: 'I: short answer', file: 'held-out/short-i.json', kind: 'binary', floor: 0.89 },
  { name: 'I: rubric', file: 'held-out/rubric-i.json', kind: 'rubric', floor: 0.37, maxFloor: 1 },
  // Set J: written by a session that had not read the grader, frozen before it was graded; unseen by
  // every rule (graded after the rules tuned on H and again after those tuned on I: 93.9%, 89.6%,
  // 30.4% both times; README). Floors: slightly below. No rule has been tuned on it.
  { name: 'J: math', file: 'held-out/math-j.json', kind: 'binary', floor: 0.93 },
  { name: 'J: short answer', file: 'held-out/short-j.json', kind: 'binary', floor: 0.89 },
  { name: 'J: rubric', file: 'held-out/rubric-j.json', kind: 'rubric', floor: 0.3 },
] as const;

describe('held-out grading sets', () => {
  const bySet = new Map<string, Stats>();
  const layouts: string[] = [];

  beforeAll(async () => {
    for (const set of SETS) {
      const outcomes: Outcome[] = [];
      if (set.kind === 'binary') for (const item of parseItems(set.file, BinaryItem)) outcomes.push(await gradeBinary(set.name, item));
      else for (const item of parseItems(set.file, RubricItem)) outcomes.push(await gradeRubric(item));
      bySet.set(set.name, stats(outcomes));
      if (set.kind === 'rubric') layouts.push(...maxByLayout(outcomes).map(([l, n, s]) => `${set.name} | ${l} | ${n} | ${pct(s)}`));
    }
    console.log(`\nHeld-out sets: free-response grading vs teacher labels\n${table([...bySet])}\n`);
    console.log(`max_score equal to the rubric's total, per layout:\nset | layout | items | equal\n${layouts.join('\n')}\n`);
  }, 300_000);

  for (const set of SETS) {
    it(`${set.name}: agreement stays at or above ${set.floor * 100}%`, () => {
      expect(bySet.get(set.name)!.agreement).toBeGreaterThanOrEqual(set.floor);
    });
    if ('maxFloor' in set) {
      it(`${set.name}: max_score equals the rubric's stated total on at least ${set.maxFloor * 100}% of items`, () => {
        expect(bySet.get(set.name)!.maxAgreement).toBeGreaterThanOrEqual(set.maxFloor);
      });
    }
  }
});
