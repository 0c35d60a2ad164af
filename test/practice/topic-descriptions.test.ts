/**
 * Issue 29's measure: 40 common topic descriptions, written down with the sub-topics each is
 * about BEFORE the engine was run on them. For each: does the offline engine make a set, and is
 * the set wholly on topic (every generator the set draws from, read from the set's engine, is one
 * of the sub-topics expected)? A refusal is not off topic; a set with any other sub-topic is.
 * Goal: every set on topic, at least 36 of 40 covered. The figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { planSet } from '../../server/practice/offline/index.ts';

/** Description, and the sub-topics a set for it may draw from (empty: nothing here fits; a refusal is right). */
export const DESCRIPTIONS: [string, string[]][] = [
  ['Adding fractions with unlike denominators', ['fraction-addition']],
  ['Dividing fractions', ['fraction-division']],
  ['Multiplying decimals', ['decimal-multiplication']],
  ['Subtracting negative numbers', ['integer-subtraction']],
  ['Order of operations', ['arithmetic']],
  ['Ratios and rates', ['ratios', 'rates']],
  ['Unit rates', ['unit-rates']],
  ['Surface area of prisms', []],
  ['Percent of a number', ['percent-of']],
  ['Percent increase and decrease', ['percent-change']],
  ['Simple interest', ['simple-interest']],
  ['Converting fractions to percentages', ['percent-conversion']],
  ['Prime factorization', []],
  ['Solving equations with fractions', ['one-step-equations', 'two-step-equations', 'multi-step-equations']],
  ['Exponent rules', ['exponents']],
  ['Combining like terms', ['simplify-expressions']],
  ['The distributive property', ['expand-expressions']],
  ['Evaluating algebraic expressions', ['evaluate-expressions']],
  ['Solving one-step equations', ['one-step-equations']],
  ['Two-step equations', ['two-step-equations']],
  ['Multi-step equations with variables on both sides', ['multi-step-equations']],
  ['Literal equations', ['literal-equations']],
  ['Solving linear inequalities', ['inequalities']],
  ['Finding slope from two points', ['slope']],
  ['Slope-intercept form', ['slope-intercept']],
  ['Graphing linear equations', ['slope', 'slope-intercept', 'point-slope', 'parallel-perpendicular']],
  ['Systems of equations by elimination', ['systems-elimination']],
  ['Multiplying polynomials', ['polynomial-multiplication']],
  ['Factoring trinomials', ['factor-trinomials']],
  ['Factoring quadratics', ['factor-trinomials']],
  ['Solving quadratics with the quadratic formula', ['quadratic-formula']],
  ['Completing the square', ['completing-the-square']],
  ['Area of a circle', ['circles']],
  ['Pythagorean theorem', ['pythagorean-theorem']],
  ['Volume of cylinders', ['volume']],
  ['Angles in a triangle', ['triangle-angles']],
  ['Mean, median and mode', ['mean', 'median', 'mode']],
  ['Probability of compound events', ['probability']],
  ['Converting metric units', ['metric-conversion']],
  ['Area and perimeter of rectangles', ['area', 'perimeter']],
];

describe('40 common topic descriptions', () => {
  it('give a set on topic, or an honest refusal; at least 36 give a set', () => {
    let covered = 0;
    let onTopic = 0;
    const rows: string[] = [];
    for (const [description, expected] of DESCRIPTIONS) {
      const plan = planSet({ description, count: 6, problemType: 'mixed', difficulty: 'medium', seed: 29 });
      if (!plan.ok) {
        rows.push(`refused   ${description}: ${plan.message.slice(0, 110)}`);
        continue;
      }
      covered++;
      const ids = plan.engine.replace(/^offline:/, '').split('+');
      const on = ids.every((id) => expected.includes(id));
      if (on) onTopic++;
      rows.push(`${on ? 'on topic ' : 'OFF TOPIC'} ${description}: ${ids.join(', ')}`);
      // Every problem is made (no failure half-way).
      for (let i = 0; i < plan.total; i++) plan.next(i);
    }
    console.log(`${rows.join('\n')}\n${covered} of ${DESCRIPTIONS.length} give a set; ${onTopic} of ${covered} wholly on topic.`);
    expect(DESCRIPTIONS).toHaveLength(40);
    expect(onTopic).toBe(covered);
    expect(covered).toBeGreaterThanOrEqual(36);
  }, 120_000);
});
