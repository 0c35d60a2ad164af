import { describe, expect, it } from 'vitest';
import { gradeAnswer, GradingInputError } from '../../server/practice/grading/index.ts';
import { parseRubric } from '../../server/practice/grading/rubric/index.ts';
import type { GradeInput } from '../../server/practice/types.ts';

const frq = (user_answer: string, rest: Partial<GradeInput>) => gradeAnswer({ problem_type: 'frq', problem_statement: 'q', user_answer, ...rest });
const CHOICES = { A: '2', B: '3', C: '5', D: '7' };

describe('choice grading', () => {
  it('mcq is exact; keys are case-insensitive and the choice text is accepted', () => {
    const g = (u: string) => gradeAnswer({ problem_type: 'mcq', problem_statement: 'q', user_answer: u, correct_answer: 'C', answer_choices: CHOICES });
    expect(g('C').score).toBe(1);
    expect(g(' c ').score).toBe(1);
    expect(g('5').score).toBe(1);
    expect(g('B').score).toBe(0);
    expect(g('B, C').score).toBe(0);
    expect(g('').explanation).toContain('C (5)');
  });

  it('select_all gives partial credit: wrong picks cancel right ones, never below zero', () => {
    const g = (u: string) => gradeAnswer({ problem_type: 'select_all', problem_statement: 'q', user_answer: u, correct_answer: 'A,C', answer_choices: CHOICES });
    expect(g('C, A')).toMatchObject({ score: 1, max_score: 1 });
    expect(g('A').score).toBe(0.5);
    expect(g('A and C and D').score).toBe(0.5);
    expect(g('A,B').score).toBe(0);
    expect(g('B,D').score).toBe(0);
    expect(g('').score).toBe(0);
    expect(g('A').missed[0]).toContain('C (5)');
  });
});

describe('math grading by symbolic equivalence', () => {
  it.each([
    ['3x^2+2', '2 + 3*x^2'],
    ['2+3x²', '2 + 3*x^2'],
    ['0.5', '1/2'],
    ['-7/3', '-(7/3)'],
    ['x = 3', 'x = 3'],
    ['3', 'x = 3'],
    ['x=3, x=-1/2', 'x = -1/2, x = 3'],
    ['x = 3 or x = -0.5', 'x = -1/2, x = 3'],
    ['y = 1, x = 2', 'x = 2, y = 1'],
    ['(2, 1)', 'x = 2, y = 1'],
    ['20', '20%'],
    ["f'(x) = 12x^3 - 4x", '12x^3 - 4x'],
    ['x^3/3 + x + C', '(1/3)x^3 + x + C'],
    ['9.09', '9.0909%'],
    ['(x+1)^2', 'x^2 + 2x + 1'],
  ])('%s equals %s', (user, ref) => {
    const g = frq(user, { correct_answer: ref });
    expect(g.method).toBe('math');
    expect(g.score, g.explanation).toBe(1);
  });

  it.each([
    ['3x^2-2', '2 + 3*x^2'],
    ['x = -3', 'x = 3'],
    ['x^3/3 + x', '(1/3)x^3 + x + C'],
    ['2/3', '3/2'],
    ['x = 1, y = 2', 'x = 2, y = 1'],
    ['banana', 'x = 2'],
  ])('%s differs from %s', (user, ref) => {
    expect(frq(user, { correct_answer: ref }).score).toBe(0);
  });

  it('gives partial credit per solution, extra wrong ones cancel', () => {
    expect(frq('x = 3', { correct_answer: 'x = 2, x = 3' }).score).toBe(0.5);
    expect(frq('x = 3, x = 4', { correct_answer: 'x = 2, x = 3' }).score).toBe(0.5);
    expect(frq('x = 3, x = 4, x = 5', { correct_answer: 'x = 2, x = 3' }).score).toBe(0);
    const g = frq('x = 2, y = 5', { correct_answer: 'x = 2, y = 1' });
    expect(g).toMatchObject({ score: 0.5, met: ['x = 2'] });
    expect(g.explanation).toContain('missing y = 1');
  });
});

describe('rubric grading of text', () => {
  const rubric = '- Mitochondria produce energy (ATP) for the cell (2 pts)\n- They have their own DNA (1 pt)\n- Found in the cytoplasm (1 pt)';

  it('parses concepts and points', () => {
    expect(parseRubric(rubric, false).map((c) => [c.text, c.points])).toEqual([
      ['Mitochondria produce energy (ATP) for the cell', 2],
      ['They have their own DNA', 1],
      ['Found in the cytoplasm', 1],
    ]);
  });

  it('awards full marks with lemmas, synonyms and misspellings', () => {
    const g = frq('The mitochondrion makes energy as ATP for cells; it contains its own DNA and is located in the cytoplasm.', { scoring_details: rubric });
    expect(g).toMatchObject({ method: 'rubric', max_score: 4 });
    expect(g.score, g.explanation).toBeGreaterThanOrEqual(3.5);
    expect(frq('fotosynthesis', { correct_answer: 'photosynthesis' }).score).toBe(1);
    expect(frq('Mitochondria', { correct_answer: 'mitochondrion' }).score).toBe(1);
    expect(frq('the chondriosome', { correct_answer: 'mitochondrion', scoring_details: 'mitochondrion (also accepted: chondriosome)' }).score).toBe(1);
  });

  it('gives partial credit and names what was met and missed', () => {
    const g = frq('Mitochondria produce energy for the cell.', { scoring_details: rubric });
    expect(g.score).toBe(2);
    expect(g.met).toEqual(['Mitochondria produce energy (ATP) for the cell']);
    expect(g.missed).toEqual(['They have their own DNA', 'Found in the cytoplasm']);
    expect(g.explanation).toMatch(/Met: Mitochondria produce energy.*Missed: They have their own DNA/);
  });

  it('is negation-aware: a negated concept earns nothing, a matching negation does', () => {
    const g = frq("Mitochondria produce energy for the cell, but they don't have their own DNA.", { scoring_details: rubric });
    expect(g.score).toBe(2);
    expect(g.missed).toContain('They have their own DNA (contradicted)');
    expect(g.explanation).toContain('Contradicted');
    expect(frq('Plants never make glucose from light.', { correct_answer: 'Plants make glucose from light.' }).score).toBe(0);
    expect(frq("It won't dissolve in water.", { correct_answer: 'does not dissolve in water' }).score).toBe(1);
    expect(frq('It dissolves in water.', { correct_answer: 'does not dissolve in water' }).score).toBe(0);
  });

  it('does not count a reference inside a longer name of something else', () => {
    const g = (u: string, ref: string) => frq(u, { correct_answer: ref });
    expect(g('subthalamic nucleus', 'nucleus').score).toBe(0);
    expect(g('subthalamic nucleus', 'nucleus').explanation).toContain('"subthalamic nucleus" names someone or something else');
    expect(g('George Washington Carver', 'George Washington').score).toBe(0);
    // Another name of the same thing, or the reference among other words, still counts.
    expect(g('cell nucleus', 'nucleus').score).toBe(1);
    expect(g('the nucleus of the cell', 'nucleus').score).toBe(1);
    expect(g('George Washington', 'Washington').score).toBe(1);
  });

  it('uses the reference answer sentence by sentence when there is no rubric', () => {
    const g = frq('Plants make glucose from light.', { correct_answer: 'Plants make glucose from light. They release oxygen.' });
    expect(g).toMatchObject({ score: 1, max_score: 2 });
  });
});

describe('missing reference', () => {
  it('throws GradingInputError with a loc and a message that says what is needed', () => {
    const attempt = (p: Partial<GradeInput>) => () => gradeAnswer({ problem_type: 'frq', problem_statement: 'q', user_answer: 'x', ...p });
    expect(attempt({})).toThrow(GradingInputError);
    try {
      attempt({ correct_answer: '  ' })();
    } catch (e) {
      expect(e).toBeInstanceOf(GradingInputError);
      expect((e as GradingInputError).loc).toEqual(['body', 'problem', 'correct_answer']);
      expect((e as Error).message).toMatch(/correct_answer.*scoring_details/);
    }
    expect(attempt({ problem_type: 'mcq', correct_answer: 'A' })).toThrow(/answer_choices/);
    expect(attempt({ problem_type: 'select_all', answer_choices: CHOICES })).toThrow(/correct_answer/);
  });
});
