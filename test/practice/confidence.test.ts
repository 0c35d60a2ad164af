/**
 * Confidence and evidence on every grade (issue 28): `high` only when every rule that decided it
 * can be checked; per-criterion evidence quotes the answer's words; rubric totals are the stated ones.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';

const frq = (extra: Record<string, string>) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: '', ...extra });

describe('confidence', () => {
  it('is high for a CAS decision and for an exact term, both ways', () => {
    for (const g of [
      frq({ problem_statement: 'Solve 2x = 6.', user_answer: 'x = 3', correct_answer: 'x = 3' }),
      frq({ problem_statement: 'Solve 2x = 6.', user_answer: 'x = 4', correct_answer: 'x = 3' }),
      frq({ problem_statement: 'What is the capital of France?', user_answer: 'Paris', correct_answer: 'Paris' }),
      frq({ problem_statement: 'What is the capital of France?', user_answer: 'London', correct_answer: 'Paris' }),
      gradeAnswer({ problem_type: 'mcq', problem_statement: 'Pick', user_answer: 'B', correct_answer: 'A', answer_choices: { A: 'a', B: 'b' } }),
    ]) expect(g, g.explanation).toMatchObject({ confidence: 'high', needs_review: false });
  });

  it('is low for a synonym, an unchecked added claim, an unread answer or a borderline criterion', () => {
    for (const g of [
      frq({ problem_statement: 'Who wrote War and Peace?', user_answer: 'Tolstoy, who also wrote Crime and Punishment', correct_answer: 'Leo Tolstoy' }),
      frq({ problem_statement: 'What is 2 + 2?', user_answer: 'it is certainly the number that comes after three', correct_answer: '4' }),
      frq({ user_answer: 'Water moves.', scoring_details: 'Explains that water moves across a partially permeable membrane (2 marks)' }),
      frq({ problem_statement: 'Which programming idea is a function calling itself?', user_answer: 'a recursive function', correct_answer: 'recursion' }),
    ]) expect(g, g.explanation).toMatchObject({ confidence: 'low', needs_review: true });
  });
});

describe('rubric criteria and evidence', () => {
  it('lists each criterion with its points, the points awarded and the words that met it', () => {
    const g = frq({
      problem_statement: 'Explain osmosis.',
      user_answer: 'Osmosis is the movement of water across a membrane. It stops at equilibrium.',
      scoring_details: '- names osmosis (1 mark)\n- water moves across a membrane (2 marks)\n- gives an example in plant roots (1 mark)',
    });
    expect(g.max_score).toBe(4);
    expect(g.criteria).toHaveLength(3);
    expect(g.criteria![1]).toMatchObject({ criterion: 'water moves across a membrane', points: 2, awarded: 2 });
    expect(g.criteria![1]!.evidence).toMatch(/water .*membrane/);
    expect(g.criteria![2]).toMatchObject({ awarded: 0, evidence: '' });
  });
});

describe('rubric totals', () => {
  const answer = 'Osmosis is water moving across a membrane down a gradient, for example in roots.';
  it.each([
    ['[6 marks]', 'Names osmosis (2 marks)\nExplains concentration (2 marks)\nGives an example (2 marks)\n[6 marks]', 6],
    ['— N pts', 'Names osmosis — 2 pts\nExplains the concentration gradient — 1 pt\nGives an example — 2 pts', 5],
    ['Award N marks for: over lines', 'Award 3 marks for:\nnames osmosis\nexplains the concentration gradient\ngives an example', 3],
    ['Award N marks for: over fewer lines', 'Award 3 marks for:\nnames osmosis\nexplains the concentration gradient', 3],
    ['a table', '| Criterion | Marks |\n|---|---|\n| Names osmosis | 2 |\n| Explains gradient | 1 |', 3],
    ['a table with its total row', '| Criterion | Marks |\n|---|---|\n| Names osmosis | 2 |\n| Explains gradient | 1 |\n| Total | 3 |', 3],
    ['/N after a criterion', 'Names osmosis /2\nExplains gradient /3', 5],
    ['a stated total its points do not reach', 'Award 4 marks:\nNames osmosis (1 mark)\nExplains gradient (1 mark)', 4],
  ])('%s', (_layout, scoring_details, total) => {
    const g = frq({ user_answer: answer, scoring_details });
    expect(g.max_score, g.explanation).toBe(total);
  });

  it('a total that disagrees with the points asks for a review; a rubric with no points or total says so', () => {
    expect(frq({ user_answer: answer, scoring_details: 'Award 4 marks:\nNames osmosis (1 mark)\nExplains gradient (1 mark)' })).toMatchObject({ needs_review: true, score: 4 });
    expect(frq({ user_answer: answer, scoring_details: '- names osmosis\n- mentions a membrane' }).needs_review).toBe(true);
  });
});
