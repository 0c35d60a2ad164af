/**
 * Forms a teacher accepts (issue 28): roots written as √, sqrt() or a power ½; interval notation
 * and inequalities either way; scientific notation with ×10^, x10^, e and E. A question that
 * demands one form still gets it.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';

const grade = (user_answer: string, correct_answer: string, problem_statement: string) => gradeAnswer({ problem_type: 'frq', problem_statement, user_answer, correct_answer });

describe('equivalent forms are accepted', () => {
  it.each([
    ['2√3', 'sqrt(12)', 'Simplify sqrt(12).'],
    ['2*3^(1/2)', '2√3', 'Simplify √12.'],
    ['sqrt(12)', '2√3', 'Find the exact length.'],
    ['√3 · 2', '2√3', 'Find the exact length.'],
    ['3^(1/2)', '√3', 'Find the exact length.'],
    ['x > 3', '(3, ∞)', 'Solve 2x > 6.'],
    ['(3, ∞)', 'x > 3', 'Solve 2x > 6.'],
    ['2 <= x < 5', '[2, 5)', 'Solve.'],
    ['x ≥ 2 and x < 5', '[2, 5)', 'Solve.'],
    ['[2, 5)', '2 ≤ x < 5', 'Solve.'],
    ['x<1 or x>4', '(-∞, 1) U (4, ∞)', 'Solve.'],
    ['x ∈ (3, ∞)', 'x > 3', 'Solve.'],
    ['3 x 10^8', '3.0 × 10^8', 'What is the speed of light in m/s?'],
    ['3x10^8', '3.0 × 10^8', 'What is the speed of light in m/s?'],
    ['3e8', '3.0 × 10^8', 'What is the speed of light in m/s?'],
    ['3.0e+8', '3.0 × 10^8', 'What is the speed of light in m/s?'],
    ['6.02 × 10²³', '6.02 × 10^23', 'State Avogadro’s number.'],
    ['1.6E-19', '1.6 × 10^-19', 'What is the charge of an electron in coulombs?'],
    ['1.6 × 10⁻¹⁹', '1.6 × 10^-19', 'What is the charge of an electron in coulombs?'],
  ])('%s for %s', (answer, reference, statement) => {
    const g = grade(answer, reference, statement);
    expect(g.score, g.explanation).toBe(1);
    expect(g.confidence).toBe('high');
  });
});

describe('unless the question demands one form, or the value differs', () => {
  it.each([
    ['300000000', '3 × 10^8', 'Write the speed of light in scientific notation.'],
    ['x > 3', '(3, ∞)', 'Solve 2x > 6. Give your answer in interval notation.'],
    ['3.1 × 10^8', '3 × 10^8', 'What is the speed of light in m/s?'],
    ['2√2', '2√3', 'Simplify √12.'],
    ['x ≥ 3', '(3, ∞)', 'Solve 2x > 6.'],
    ['3 x 10^9', '3 × 10^8', 'What is the speed of light in m/s?'],
  ])('%s for %s', (answer, reference, statement) => {
    expect(grade(answer, reference, statement).score).toBe(0);
  });
});
