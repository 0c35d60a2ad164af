/**
 * Numbers are compared as numbers: never as two floats that overflowed (Infinity = Infinity), a
 * NaN, or two large integers one float apart. Each pair here was scored full marks before
 * (issue 26: `9^9^9` and `10^999` were a universal answer).
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { exactEqual, exactOf } from '../../server/practice/grading/math/exact.ts';
import { parse } from '../../server/practice/grading/math/kas.ts';

const grade = (user_answer: string, correct_answer: string, problem_statement = 'What is the value?') =>
  gradeAnswer({ problem_type: 'frq', problem_statement, user_answer, correct_answer });

describe('overflow, NaN and Infinity never make two numbers equal', () => {
  it.each([
    ['9^9^9', '5'],
    ['10^999', '5'],
    ['10^999', '10^998'],
    ['-10^999', '-5'],
    ['10^(10^10)', '7'],
    ['9^9^9', '12'],
    ['10^999', '3/4'],
    ['2^1024', '0'],
    ['1/0', '5'],
    ['0/0', '5'],
  ])('%s is not %s', (answer, reference) => {
    const g = grade(answer, reference);
    expect(g.score, g.explanation).toBe(0);
  });

  it.each([
    ['10^999 + x', '10^998 + x'],
    ['x + 9^9^9', 'x + 5'],
    ['x^2 * 10^999', 'x^2 * 10^998'],
  ])('%s is not %s (with a variable)', (answer, reference) => {
    const g = grade(answer, reference, 'Simplify the expression.');
    expect(g.score, g.explanation).toBe(0);
  });

  it.each([
    ['x + 10^999 = 0', 'x + 10^998 = 0'],
    ['y = 10^999 x', 'y = 10^998 x'],
  ])('%s is not %s (equations)', (answer, reference) => {
    const g = grade(answer, reference, 'Write the equation of the line.');
    expect(g.score, g.explanation).toBe(0);
  });

  it('an interval endpoint that overflows is no endpoint', () => {
    expect(grade('x < 10^999', 'x < 10^998', 'Solve the inequality.').score).toBe(0);
  });
});

describe('large numbers are compared exactly', () => {
  it.each([
    ['2^1000', '2^1000 + 1', 0],
    ['2^1000', '2^1000', 1],
    ['2^60', '2^60 + 1', 0],
    ['1000000001', '1000000000', 0],
    ['2^100', '1267650600228229401496703205376', 1],
    ['10^20', '100000000000000000000', 1],
    ['3^200 / 3^199', '3', 1],
    ['0.1 + 0.2', '0.3', 1],
    ['1/3', '2/6', 1],
  ])('%s against %s scores %i', (answer, reference, score) => {
    const g = grade(answer, reference);
    expect(g.score, g.explanation).toBe(score);
  });

  it('a number typed with more digits than a float holds is compared digit by digit', () => {
    expect(grade('12345678901234567891', '12345678901234567890').score).toBe(0);
    expect(grade('12345678901234567890', '12345678901234567890').score).toBe(1);
    expect(grade('123456789012345678901234567890', '123456789012345678901234567890 + 1').score).toBe(0);
  });

  it('two huge values of the same size cannot be told apart: review, never full marks', () => {
    const g = grade('9^9^9 + 1', '9^9^9');
    expect(g.score).toBe(0);
    expect(g.needs_review).toBe(true);
  });
});

describe('exact values (exact.ts)', () => {
  const v = (s: string) => exactOf(parse(s)!);
  it('keeps rationals exact and huge values as sign and size', () => {
    expect(v('2^100 + 1')).toEqual({ kind: 'exact', n: 2n ** 100n + 1n, d: 1n });
    expect(v('0.1')).toEqual({ kind: 'exact', n: 1n, d: 10n });
    expect(v('8^(2/3)')).toEqual({ kind: 'exact', n: 4n, d: 1n });
    expect(v('sqrt(2)').kind).toBe('inexact');
    const huge = v('10^9999');
    expect(huge.kind).toBe('huge');
    expect(huge.kind === 'huge' && huge.log10).toBeCloseTo(9999, 6);
    expect(v('9^9^9 - 9^9^9').kind).toBe('unknown');
  });
  it('decides equality where it can, and says when it cannot', () => {
    expect(exactEqual(v('10^999'), v('10^998'))).toBe(false);
    expect(exactEqual(v('10^999'), v('-10^999'))).toBe(false);
    expect(exactEqual(v('9^9^9'), v('9^9^9'))).toBeNull();
    expect(exactEqual(v('2^10'), v('1024'))).toBe(true);
    expect(exactEqual(v('sqrt(2)'), v('1.4142'))).toBeUndefined();
  });
});
