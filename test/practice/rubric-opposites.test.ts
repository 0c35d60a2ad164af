import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';

const grade = (answer: string, rubric: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: answer, scoring_details: rubric });

/** When an opposite in the answer contradicts a criterion (rubric/concept.ts, rubric/swap.ts; rules.ts "opposites said of something else"). */
describe('rubric: opposites that do not contradict', () => {
  it('the criterion said in other words, and its opposite said of another stage', () => {
    const rubric = 'The story begins with a quiet village (1)\nA dragon attacks (1)';
    expect(grade('The story starts with a quiet village, then a dragon attacks, and at the end the village is rebuilt.', rubric).score).toBe(2);
  });

  it('an opposite the answer denies affirms the criterion', () => {
    const rubric = 'Explains that the beam can be lighter (1)';
    expect(grade("The beam doesn't need to be heavy any more.", rubric).score).toBe(1);
  });

  it('an opposite said plainly still contradicts', () => {
    const rubric = 'Explains that the beam can be lighter (1)';
    const g = grade('The beam has to be heavier.', rubric);
    expect(g.score).toBe(0);
    expect(g.explanation).toMatch(/Contradicted/);
  });
});

/** A hyphenated word of a criterion said by its parts (rubric/match.ts, "compound words"). */
describe('rubric: compound words', () => {
  it.each([
    ['Less rain runs off the roof.', 1],
    ['The runoff from the roof is smaller.', 1],
    ['The roof stays dry.', 0],
  ])('"%s" for "reduces run-off"', (answer, score) => {
    expect(grade(answer, 'Reduces run-off from the roof (1)').score).toBe(score);
  });
});

/** Labelled parts "(a) … (b) …" in the rubric and the answer (rubric/score.ts, "labelled parts"). */
describe('rubric: labelled parts', () => {
  const rubric = '(a) Paris (b) Rome (c) Madrid — 1 mark each';
  it.each([
    ['(a) Rome (b) Paris (c) Madrid', 1],
    ['(a) Paris (b) Rome (c) Madrid', 3],
    ['(a) Paris (b) Rome', 2],
    // Without labels the answer is read whole, as before.
    ['Paris, Rome and Madrid', 3],
  ])('"%s"', (answer, score) => {
    expect(grade(answer, rubric).score).toBe(score);
  });

  it('labels on separate lines too', () => {
    expect(grade('a) Madrid\nb) Rome\nc) Paris', rubric).score).toBe(1);
  });
});
