import { describe, expect, it } from 'vitest';
import { expectVerdict, gradeFrq as grade, type VerdictCase } from './helpers.ts';


/** Forms and notations tuned on set D (math/forms.ts, math/read.ts, math/working.ts, math/index.ts); cases of their own. */
describe('math: more forms and notations', () => {
  it.each<VerdictCase>([
    // "as an ordinary number": any power of ten written is the wrong form; the number written out is right.
    ['Write 7.05 × 10^4 as an ordinary number.', '70500', '7.05E4', false, 'high'],
    ['Write 7.05 × 10^4 as an ordinary number.', '70500', '7.05 x 10^4', false, 'high'],
    ['Write 7.05 × 10^4 as an ordinary number.', '70500', '70500', true, 'high'],
    ['Write 7.05 × 10^4 as an ordinary number.', '70500', '70 500', true, 'high'],
    // "as a single logarithm": its value is not a logarithm.
    ['Write log 2 + log 5 as a single logarithm.', 'log 10', '1', false, 'high'],
    ['Write 2 ln 3 as a single logarithm.', 'ln 9', '2.197', false, 'high'],
    ['Write 2 ln 3 as a single logarithm.', 'ln 9', 'ln(9)', true, 'high'],
    // ± inside a bracket: both values.
    ['Solve x² − 2x − 1 = 0, leaving your answers as surds.', 'x = 1 ± √2', 'x = (2 ± √8)/2', true, 'high'],
    ['Solve x² − 2x − 1 = 0, leaving your answers as surds.', 'x = 1 ± √2', 'x = (2 ± √8)/4', false, 'high'],
    ['Solve x² − 4 = 0.', 'x = ±2', 'x = ±2', true, 'high'],
    // A chain through a logarithm ends at its value.
    ['Solve 2^x = 32.', 'x = 5', 'x = log_2 32 = 5', true, 'high'],
    ['Solve 2^x = 32.', 'x = 5', 'x = log_2 32 = 6', false, 'high'],
    // i, j (k) unit vectors for a column vector.
    ['Find the vector a + b, where a = (1, 2) and b = (4, −5).', '(5, −3)', '5i − 3j', true, 'high'],
    ['Find the vector a + b, where a = (1, 2) and b = (4, −5).', '(5, −3)', '5i + 3j', false, 'high'],
    ['Find 2u, where u = (0, 1, −2).', '(0, 2, −4)', '0i + 2j − 4k', true, 'high'],
    ['Find −v, where v = (−1, 1).', '(1, −1)', 'i − j', true, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });

  it('a complex number keeps its i (no j: not a vector)', () => {
    expect(grade('Expand (1 + 2i)(1 − i).', '3 + i', '3 + i').score).toBe(1);
    expect(grade('Expand (1 + 2i)(1 − i).', '3 + i', '3 - i').score).toBe(0);
  });
});
