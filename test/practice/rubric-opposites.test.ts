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
