/**
 * Math grading by class of mistake once made: each rule both ways (a right answer still accepted,
 * a near-miss refused with an explanation of what is missing), and its parse bounded.
 */
import { describe, expect, it } from 'vitest';
import { expectCostWithin } from '../helpers/cost.ts';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { gradeMath } from '../../server/practice/grading/math/index.ts';
import { bracketFactors, incompleteFactorisation, isSumAtTop } from '../../server/practice/grading/math/factor.ts';
import { readForms, sigFigsOf } from '../../server/practice/grading/math/forms.ts';
import { readMatrix } from '../../server/practice/grading/math/matrix.ts';
import { normalizeMath } from '../../server/practice/grading/math/normalize.ts';
import { afterConclusion, trailingSolutions } from '../../server/practice/grading/math/working.ts';

const grade = (problem_statement: string, correct_answer: string, user_answer: string, scoring_details?: string) =>
  gradeAnswer({ problem_type: 'frq', problem_statement, correct_answer, user_answer, scoring_details });

type Case = [statement: string, reference: string, answer: string, score: number];
const check = ([q, ref, answer, score]: Case) => expect(grade(q, ref, answer).score).toBe(score);

describe('1. factorise completely: no bracket that still factors or keeps a common factor', () => {
  it.each<Case>([
    ['Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '5(x+3)(x-3)', 1],
    ['Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '-5(3 - x)(x + 3)', 1],
    ['Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '5(x^2 - 9)', 0],
    ['Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '(5x - 15)(x + 3)', 0],
    ['Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '(x - 3)(5x + 15)', 0],
    ['Factor fully 2x^3 - 8x', '2x(x - 2)(x + 2)', '2x(x-2)(x+2)', 1],
    ['Factor fully 2x^3 - 8x', '2x(x - 2)(x + 2)', '2(x^3 - 4x)', 0],
    ['Factor fully 2x^3 - 8x', '2x(x - 2)(x + 2)', 'x(2x^2 - 8)', 0],
    ['Factor fully 2x^3 - 8x', '2x(x - 2)(x + 2)', '2x(x^2 - 4)', 0],
    ['Factorise 6x^2 + x - 2', '(2x - 1)(3x + 2)', '(3x+2)(2x-1)', 1],
    ['Factorise completely x^4 - 81', '(x - 3)(x + 3)(x^2 + 9)', '(x-3)(x+3)(x^2+9)', 1],
    ['Factorise completely x^4 - 81', '(x - 3)(x + 3)(x^2 + 9)', '(x^2 - 9)(x^2 + 9)', 0],
    ['Factorise completely 3p^2 - 12q^2', '3(p - 2q)(p + 2q)', '3(p+2q)(p-2q)', 1],
    ['Factorise completely 3p^2 - 12q^2', '3(p - 2q)(p + 2q)', '3(p^2 - 4q^2)', 0],
    ['Factorise x^2 + 7x + 12', '(x + 3)(x + 4)', 'x(x + 7) + 12', 0],
    // A question that asks only for the common factor: the reference keeps x^2 - 9, so may the answer.
    ['Factor out the greatest common factor of 5x^2 - 45', '5(x^2 - 9)', '5(x^2-9)', 1],
    // A quadratic with no rational roots is complete as it is.
    ['Factorise completely 2x^3 + 2x', '2x(x^2 + 1)', '2x(x^2+1)', 1],
    ['Factorise x^2 - 3', '(x - √3)(x + √3)', '(x+√3)(x-√3)', 1],
  ])('%s: %s vs %s -> %d', (...c) => check(c));

  it('says which bracket still factors, and how', () => {
    expect(grade('Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '5(x^2 - 9)').explanation).toContain('x^2 - 9 still factors (x - 3 is a factor of it)');
    expect(grade('Factorise completely 5x^2 - 45', '5(x - 3)(x + 3)', '(5x - 15)(x + 3)').explanation).toContain('5x - 15 still has the common factor 5');
    expect(grade('Factor fully 2x^3 - 8x', '2x(x - 2)(x + 2)', '2(x^3 - 4x)').explanation).toContain('common factor x');
    expect(grade('Factorise completely x^4 - 81', '(x - 3)(x + 3)(x^2 + 9)', '(x^2 - 9)(x^2 + 9)').explanation).toContain('not factorised completely');
  });

  it('reads products and finds what still factors', () => {
    expect(bracketFactors('3(x - 2)(x + 2)^2')).toEqual(['x-2', 'x+2']);
    expect(bracketFactors('2x(x + 1)')).toEqual(['x+1']);
    expect(bracketFactors('sqrt(2)(x + 1)')).toBeUndefined();
    expect(isSumAtTop('x(x + 1) + 2(x + 1)')).toBe(true);
    expect(isSumAtTop('-(x - 1)(x + 1)')).toBe(false);
    expect(incompleteFactorisation('(2x + 1)(x - 5)')).toBeNull();
    expect(incompleteFactorisation('(x^2 + x + 1)')).toBeNull();
    expect(incompleteFactorisation('(6x^2 - 5x + 1)')).toMatch(/2x - 1|3x - 1/);
    expect(incompleteFactorisation('(x^4 - 3)')).toBeNull();
    expect(incompleteFactorisation('(x^4 - 9)')).toContain('polynomial in x^2');
    expect(incompleteFactorisation('(x^2 - 0.25)')).toBeNull();
  });
});

describe('2. working before the solutions: what it concludes is the answer', () => {
  it.each<Case>([
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 so x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28, therefore x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 ⇒ x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 ∴ x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 \\Rightarrow x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28, x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28\nx = 28/7 = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 hence the answer is 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 28 so x = 5', 0],
    ['Solve 7x + 2 = 30.', 'x = 4', '7x = 32, x = 32/7', 0],
    // A value corrected on the way does not count, whichever way round.
    ['Solve 7x + 2 = 30.', 'x = 4', 'At first x = 4, but 7(4) + 2 = 30 is wrong, so x = 3', 0],
    ['Solve 7x + 2 = 30.', 'x = 4', 'I had x = 5, but then 7(5) + 2 = 37, thus x = 4', 1],
    ['Solve 7x + 2 = 30.', 'x = 4', 'x = 5, x = 4', 0],
    ['Solve x^2 + 2x - 15 = 0.', 'x = 3 or x = -5', '(x + 5)(x - 3) = 0 so x = 3 or x = -5', 1],
    ['Solve x^2 + 2x - 15 = 0.', 'x = 3 or x = -5', '(x + 5)(x - 3) = 0, x = -5 or 3', 1],
    ['Solve x^2 + 2x - 15 = 0.', 'x = 3 or x = -5', '(x + 5)(x - 3) = 0 so x = 3', 0.5],
    ['Solve x + y = 9 and x - y = 3.', 'x = 6, y = 3', '2x = 12, x = 6, y = 3', 1],
  ])('%s: %s vs %j -> %d', (...c) => check(c));

  it('finds the conclusion and the trailing assignments', () => {
    expect(afterConclusion('2x = 6 so x = 3')).toBe('x = 3');
    expect(afterConclusion('so also x = 3 so')).toBeNull();
    expect(afterConclusion('x = 3')).toBeNull();
    expect(trailingSolutions('4x = 8, 2x = 4, x = 2')).toBe('x = 2');
    expect(trailingSolutions('x = 2, y = 1')).toBeNull();
    expect(trailingSolutions('x = 2, 2x = 4')).toBeNull();
  });
});

describe('3. form phrases that end in π (not a word character)', () => {
  it.each<Case>([
    ['Find the circumference of a circle of diameter 10 cm. Leave your answer in terms of π.', '10π cm', '31.42 cm', 0],
    ['Find the circumference of a circle of diameter 10 cm. Leave your answer in terms of π.', '10π cm', '10π cm', 1],
    ['Give the area of a circle of radius 5 in terms of π.', '25π', '78.5', 0],
    ['Give the area of a circle of radius 5 in terms of π.', '25π', '25\\pi', 1],
    ['Give the area of a circle of radius 5 as a multiple of π.', '25π', '78.54', 0],
    ['Give the area of a circle of radius 5 in terms of \\pi.', '25\\pi', '78.54', 0],
    // No form asked: a good rounding stands.
    ['Find the area of a circle of radius 5.', '25π', '78.54', 1],
  ])('%s: %s vs %s -> %d', (...c) => check(c));

  it('reads the form', () => {
    expect(readForms('Give your answer in terms of π').exact).toBe(true);
    expect(readForms('Give your answer in terms of pi').exact).toBe(true);
    expect(readForms('Give your answer in terms of pints').exact).toBe(false);
  });
});

describe("4. the mark scheme's stated form counts with the statement's", () => {
  const q = 'A rectangle has an area of 42 m^2 and a width of 6 m. Find its length.';
  it.each<[string, string, string, number]>([
    ['Units are required.', '7 m', '7', 0],
    ['Units are required.', '7 m', '7 m', 1],
    ['Units are required.', '7 m', '700 cm', 1],
    ['No marks for an answer without units.', '7 m', '7', 0],
    ['An answer without units earns no marks.', '7 m', '7 metres', 1],
    ['An answer without units earns no marks.', '7 m', '7', 0],
    ['Accept with or without units.', '7 m', '7', 1],
    ['Units not required.', '7 m', '7', 1],
  ])('scheme %j: %s vs %s -> %d', (scheme, ref, answer, score) => expect(grade(q, ref, answer, scheme).score).toBe(score));

  it('explains, and reads other forms from the scheme too', () => {
    expect(grade(q, '7 m', '7', 'Units are required.').explanation).toContain('units');
    const p = 'A bag has 5 red and 3 blue counters. What is the probability of red?';
    expect(grade(p, '0.625', '5/8', 'Answer must be given as a decimal.').score).toBe(0);
    expect(grade(p, '0.625', '5/8').score).toBe(1);
    // What a scheme allows demands nothing.
    expect(readForms('Find the mass.', 'Accept the answer with units or as a decimal.').decimal).toBe(false);
  });
});

describe('5. interval notation and inequality notation when asked for', () => {
  it.each<Case>([
    ['Write 2 <= x < 7 in interval notation.', '[2, 7)', '[2, 7)', 1],
    ['Write 2 <= x < 7 in interval notation.', '[2, 7)', '2 ≤ x < 7', 0],
    ['Write 2 <= x < 7 in interval notation.', '[2, 7)', '(2, 7]', 0],
    ['Solve 5 - x > 1. Give your answer in interval notation.', 'x < 4', '(-∞, 4)', 1],
    ['Solve 5 - x > 1. Give your answer in interval notation.', 'x < 4', 'x < 4', 0],
    ['Write (-∞, 6] as an inequality.', 'x <= 6', 'x ≤ 6', 1],
    ['Write (-∞, 6] as an inequality.', 'x <= 6', '6 >= x', 1],
    ['Write (-∞, 6] as an inequality.', 'x <= 6', '(-inf, 6]', 0],
    ['Solve x^2 >= 16 using inequality notation.', 'x <= -4 or x >= 4', 'x ≤ -4 or x ≥ 4', 1],
    ['Solve x^2 >= 16 using inequality notation.', 'x <= -4 or x >= 4', '(-∞, -4] ∪ [4, ∞)', 0],
    // No notation asked: either is fine.
    ['Solve 5 - x > 1.', 'x < 4', '(-∞, 4)', 1],
    ['Solve 5 - x > 1.', 'x < 4', '4 > x', 1],
  ])('%s: %s vs %s -> %d', (...c) => check(c));

  it('says which notation is asked for, in that notation', () => {
    expect(grade('Write 2 <= x < 7 in interval notation.', '[2, 7)', '2 ≤ x < 7').explanation).toContain('interval notation, in which it is [2, 7)');
    expect(grade('Write (-∞, 6] as an inequality.', 'x <= 6', '(-inf, 6]').explanation).toContain('inequality, in which it is x ≤ 6');
  });
});

describe('6. a percent sign on a plain quantity', () => {
  it.each<Case>([
    ['What is 30% of 70?', '21', '21', 1],
    ['What is 30% of 70?', '21', '21%', 0],
    ['What is 30% of 70?', '21', '21 percent', 0],
    ['What is 30% of 70?', '21', '0.21', 0],
    ['A bill of $40 rises by 5%. What is the new bill?', '$42', '42%', 0],
    // The question asks for a percentage: the sign is right, with or without the reference's.
    ['What percentage of 80 is 12?', '15', '15%', 1],
    ['A population grows from 200 to 250. Find the percent increase.', '25', '25%', 1],
    ['Express 7/20 as a percentage.', '35%', '35', 1],
    ['What fraction of the class is absent if 3 of 12 are away?', '1/4', '25%', 1],
  ])('%s: %s vs %s -> %d', (...c) => check(c));

  it('explains the slip', () => {
    expect(grade('What is 30% of 70?', '21', '21%').explanation).toContain('asks for a quantity');
  });
});

describe('7. decimal places and significant figures exactly as asked', () => {
  it.each<Case>([
    ['Round 5.2783 to 2 decimal places.', '5.28', '5.28', 1],
    ['Round 5.2783 to 2 decimal places.', '5.28', '5.280', 0],
    ['Round 5.2783 to 2 decimal places.', '5.28', '5.278', 0],
    ['Round 3.0049 to 2 decimal places.', '3.00', '3.00', 1],
    ['Round 3.0049 to 2 decimal places.', '3.00', '3', 0],
    ['Round 3.0049 to 2 decimal places.', '3.00', '3.0', 0],
    ['Round 14.62 to the nearest whole number.', '15', '15.0', 0],
    ['Round 8.96 to the nearest tenth.', '9.0', '9.0', 1],
    ['Write 1.9996 to 3 significant figures.', '2.00', '2.00', 1],
    ['Write 1.9996 to 3 significant figures.', '2.00', '2.0', 0],
    ['Write 1.9996 to 3 significant figures.', '2.00', '2.000', 0],
    ['Write 0.30519 to 2 significant figures.', '0.31', '0.310', 0],
    // A whole number's trailing zeros may or may not be significant.
    ['Round 4951 to 2 significant figures.', '5000', '5000', 1],
    ['Round 7963 to 3 significant figures.', '7960', '7960', 1],
    ['Round 7963 to 3 significant figures.', '7960', '7960.0', 0],
  ])('%s: %s vs %s -> %d', (...c) => check(c));

  it('says how it is written and what was asked', () => {
    expect(grade('Round 5.2783 to 2 decimal places.', '5.28', '5.280').explanation).toContain('has the right value, but it is written with 3 decimal place(s), and the question asks for 2 decimal place(s)');
    expect(sigFigsOf('0.0400')).toEqual([3, 3]);
    expect(sigFigsOf('3500')).toEqual([2, 4]);
  });
});

describe('8. vectors in angle brackets and LaTeX columns', () => {
  const q = 'Given p = (4, -2) and q = (1, 3), find p - q.';
  it.each<[string, number]>([
    ['(3, -5)', 1],
    ['⟨3, -5⟩', 1],
    ['\\langle 3, -5 \\rangle', 1],
    ['\\left\\langle 3, -5 \\right\\rangle', 1],
    ['\\begin{pmatrix} 3 \\\\ -5 \\end{pmatrix}', 1],
    ['\\begin{bmatrix} 3 & -5 \\end{bmatrix}', 1],
    ['⟨-5, 3⟩', 0],
    ['\\begin{pmatrix} 5 \\\\ 1 \\end{pmatrix}', 0],
    ['⟨3, -5, 0⟩', 0],
  ])('%s -> %d', (answer, score) => expect(grade(q, '(3, -5)', answer).score).toBe(score));

  it('reads a LaTeX column as the reference too', () => {
    expect(grade('Find a + b.', '\\begin{pmatrix} 2 \\\\ 0 \\\\ -1 \\end{pmatrix}', '(2, 0, -1)').score).toBe(1);
    expect(normalizeMath('\\begin{pmatrix} 2 \\\\ 0 \\end{pmatrix}')).toBe('(2, 0)');
  });
});

describe('9. matrices, entry by entry', () => {
  const q = 'Given M = [[2, 1], [-1, 3]], find M + M.';
  const ref = '[[4, 2], [-2, 6]]';
  it.each<[string, number]>([
    ['[[4,2],[-2,6]]', 1],
    ['[[4, 2], [-2, 6]]', 1],
    ['\\begin{pmatrix} 4 & 2 \\\\ -2 & 6 \\end{pmatrix}', 1],
    ['\\begin{bmatrix} 4 & 2 \\\\ -2 & 6 \\end{bmatrix}', 1],
    ['\\begin{matrix} 4 & 2 \\\\ -2 & 6 \\end{matrix}', 1],
    ['[[4, 2], [-2, 3]]', 0],
    ['[[4, -2], [2, 6]]', 0],
    ['[[4, 2, -2, 6]]', 0],
    ['[[4, 2], [-2, 6], [0, 0]]', 0],
    ['10', 0],
  ])('%s -> %d', (answer, score) => expect(grade(q, ref, answer).score).toBe(score));

  it('compares entries as numbers, and names a different shape or the entries that differ', () => {
    expect(grade('Halve [[1, 3], [2, 5]].', '[[1/2, 3/2], [1, 5/2]]', '[[0.5, 1.5], [1, 2.5]]').score).toBe(1);
    expect(grade(q, ref, '[[4, 2], [-2, 6], [0, 0]]').explanation).toContain('3×2 matrix; the expected matrix is 2×2');
    expect(grade(q, ref, '[[4, 2], [-2, 3]]').explanation).toContain('row 2, column 2');
    expect(grade(q, ref, '(4, 2, -2, 6)').explanation).toContain('2×2 matrix is expected');
    expect(readMatrix('[[1, 2], [3]]')).toBeNull();
    expect(readMatrix('[[1], [2]]')).toMatchObject({ kind: 'solutions', tuple: true });
  });
});

describe('new parses stay bounded on hostile input', () => {
  it.each([
    ['\\begin{pmatrix}'.repeat(5000)],
    ['[['.repeat(5000)],
    ['<' + ', 1'.repeat(5000)],
    ['so x = 1 '.repeat(2000)],
    ['x = 1, '.repeat(3000)],
    ['\\langle'.repeat(5000)],
    ['(x+1)'.repeat(40)],
  ])('answer of %#: graded at the cost of an ordinary answer', async (answer) => {
    const against = (a: string) => () => {
      for (const ref of ['x = 1', '[[1, 2], [3, 4]]', '(1, 2)', '(x + 1)^2']) grade('Factorise completely and solve', ref, a);
    };
    await expectCostWithin(against(answer), against('(x + 1)(x - 1) so x = 1'), 50, 'the hostile answer');
  });

  it('a polynomial with huge coefficients is not searched for roots', async () => {
    expect(incompleteFactorisation('(999983x^12 + 999979)')).toBeNull();
    await expectCostWithin(() => incompleteFactorisation('(999983x^12 + 999979)'), () => incompleteFactorisation('(3x^12 + 5)'), 20, 'huge coefficients');
  });
});

describe('electrical units', () => {
  it.each([
    ['12 volts', '12 V', 1],
    ['12000 mV', '12 V', 1],
    ['5 amps', '5 A', 1],
    ['500 mA', '0.5 A', 1],
    ['6 ohms', '6 Ω', 1],
    ['2 kΩ', '2000 ohms', 1],
    ['12 A', '12 V', 0],
  ] as const)('%s against %s -> %i', (answer, reference, score) => {
    expect(gradeMath(answer, reference).score).toBe(score);
  });
});

describe('prose and plurals around a value', () => {
  it.each([
    ['1989', 'in 1989', 1],
    ['1990', 'in 1989', 0],
    ['about 40', 'about 40', 1],
    ['12 inches', '12 in', 1],
    ['3 boxes', '3 boxes', 1],
  ] as const)('%s against %s -> %i', (answer, reference, score) => {
    expect(gradeMath(answer, reference).score).toBe(score);
  });
});

