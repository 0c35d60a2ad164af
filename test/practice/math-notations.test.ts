import { describe, expect, it } from 'vitest';
import { expectVerdict, gradeFrq as grade, type VerdictCase } from './helpers.ts';


/** More notations a teacher accepts, and form demands (math/normalize.ts, math/forms.ts, math/index.ts, clock.ts). */
describe('math: notations and demanded forms', () => {
  it.each<VerdictCase>([
    // "in the form a√b": an exact form is demanded, a rounding is not it; a root written as a power of 0.5 is.
    ['Simplify √72, giving your answer in the form a√b.', '6√2', '8.49', false, 'high'],
    ['Simplify √72, giving your answer in the form a√b.', '6√2', '6*2^0.5', true, 'high'],
    // Scientific notation: the number before × 10^n is from 1 to under 10.
    ['Write 45 000 in standard form.', '4.5 × 10^4', '0.45 × 10^5', false, 'high'],
    ['Write 45 000 in standard form.', '4.5 × 10^4', '4.5 × 10^4', true, 'high'],
    // A filler word after a number is no unit: the pronoun I is not the imaginary unit.
    ['Simplify 84/2.', '42', '42 I believe', true, 'high'],
    ['Simplify 84/2.', '42', '41 i think', false, 'high'],
    // Mixed numbers with "and", and Unicode vulgar fractions.
    ['Write 17/5 as a mixed number.', '3 2/5', '3 and 2/5', true, 'high'],
    ['Write 17/5 as a mixed number.', '3 2/5', '3⅖', true, 'high'],
    ['Write 17/5 as a mixed number.', '3 2/5', '3 and 3/5', false, 'high'],
    // "a in b" as a probability, "a to b" as a ratio, a probability as a rounded percentage.
    ['A fair die is rolled. What is the probability of a six?', '1/6', '1 in 6', true, 'high'],
    ['A fair die is rolled. What is the probability of a six?', '1/6', '16.7%', true, 'high'],
    ['A fair die is rolled. What is the probability of a six?', '1/6', '17.7%', false, 'high'],
    ['Simplify the ratio 10 : 15.', '2 : 3', '2 to 3', true, 'high'],
    ['Simplify the ratio 10 : 15.', '2 : 3', '3 to 2', false, 'high'],
    // Units with negative powers.
    ['Convert 36 km/h to m/s.', '10 m/s', '10 m s^-1', true, 'high'],
    ['Convert 36 km/h to m/s.', '10 m/s', '10 ms⁻¹', true, 'high'],
    ['What is the acceleration of free fall on Earth, to 1 d.p.?', '9.8 m/s^2', '9.8 m s^-2', true, 'high'],
    // The working after the value, in brackets, and a rounding note.
    ['What is 20% of 45?', '9', '9 (20/100 × 45)', true, 'high'],
    ['What is 20% of 45?', '9', '9 (20/100 × 50)', false, 'high'],
    ['Round 2.71828 to 2 decimal places.', '2.72', '2.72 (2 d.p.)', true, 'high'],
    // Reversed brackets for open ends; a binary literal's prefix.
    ['Write 2 < x ≤ 7 in interval notation.', '(2, 7]', ']2, 7]', true, 'high'],
    ['Write 2 ≤ x < 7 in interval notation.', '[2, 7)', '[2, 7[', true, 'high'],
    ['Write the decimal number 5 in binary.', '101', '0b101', true, 'high'],
    // Times of day in their writings; without am/pm a time of the other half is possible: low.
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '14:20', true, 'high'],
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '2.20pm', true, 'high'],
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '2:20 in the afternoon', true, 'high'],
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '2:20 am', false, 'high'],
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '2:20', true, 'low'],
    ['A train leaves at 10:20 am and the journey takes 4 hours. When does it arrive?', '2:20 pm', '3:20 pm', false, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });

  it('a number before brackets of working with a letter stays a product: "2 (x + 1)" is not 2', () => {
    expect(grade('Expand 2(x + 1).', '2x + 2', '2 (x + 1)').score).toBe(0);
    expect(grade('What is 2 more than 0?', '2', '2 (x + 1)').score).toBe(0);
  });
});
