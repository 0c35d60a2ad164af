/**
 * Issue 29: a description is matched to the narrowest sub-topics it names. Read from the plan's
 * engine (the sub-topic ids it draws from), not from the problems' text.
 */
import { describe, expect, it } from 'vitest';
import { planSet } from '../../server/practice/offline/index.ts';
import { CATALOGUE } from '../../server/practice/offline/school/catalogue.ts';
import { matchSubTopics } from '../../server/practice/offline/school/match.ts';

const engineOf = (description: string) => {
  const plan = planSet({ description, count: 3, problemType: 'mixed', difficulty: 'medium', seed: 7 });
  return plan.ok ? plan.engine.replace(/^offline:/, '').split('+') : plan.message;
};

describe('matching descriptions to sub-topics', () => {
  it('every example description of the catalogue names exactly its own sub-topic', () => {
    for (const t of CATALOGUE) for (const e of t.examples) expect(matchSubTopics(e), `${t.id}: "${e}"`).toMatchObject({ ids: [t.id], leftover: [] });
  });

  it.each([
    // The drifts of issue 29, each now its sub-topic alone.
    ['Adding fractions with unlike denominators', ['fraction-addition']],
    ['Dividing fractions', ['fraction-division']],
    ['Solving one-step equations', ['one-step-equations']],
    ['Factoring quadratics', ['factor-trinomials']],
    ['Ratios and rates', ['rates', 'ratios']],
    ['Area of a circle', ['circles']],
    ['Subtracting negative numbers', ['integer-subtraction']],
    ['Dividing decimals', ['decimal-division']],
    ['Converting fractions to percentages', ['percent-conversion']],
    // Several named: those only.
    ['adding and subtracting fractions', ['fraction-addition', 'fraction-subtraction']],
    ['multiplication and division of decimals', ['decimal-multiplication', 'decimal-division']],
    ['mean, median and mode', ['mean', 'median', 'mode']],
    ['perimeter and area', ['perimeter', 'area']],
    ['quadratic formula and discriminant', ['quadratic-formula', 'discriminant']],
    // An area's name: its sub-topics.
    ['grade 6 fractions', ['fraction-addition', 'fraction-subtraction', 'fraction-multiplication', 'fraction-division']],
    ['systems of equations', ['systems-substitution', 'systems-elimination']],
  ] as [string, string[]][])('"%s" -> %j', (description, ids) => {
    expect(engineOf(description)).toEqual(ids);
  });

  it('outside the catalogue: refused, naming the nearest sub-topics, never a vocabulary set', () => {
    for (const [description, near] of [
      ['dividing polynomials', /Multiplying polynomials|Adding polynomials/],
      ['surface area of prisms', /Volume|Area of polygons/],
      ['systems of linear inequalities', /Linear inequalities|Systems by/],
      ['logarithms', null],
      ['trigonometric ratios', /Ratios/],
    ] as [string, RegExp | null][]) {
      const plan = planSet({ description, count: 4, problemType: 'mixed', difficulty: 'medium' });
      expect(plan.ok, description).toBe(false);
      if (plan.ok) continue;
      expect(plan.message).toMatch(new RegExp(`^No offline set for "${description}"`));
      expect(plan.message).not.toMatch(/WordNet lists only|unrelated meanings in WordNet/);
      if (near) expect(plan.message).toMatch(near);
    }
  });

  it('everyday words that name a sub-topic do not turn a description into mathematics', () => {
    // "ranges", "areas": WordNet's mountain ranges are a vocabulary set, as before.
    const plan = planSet({ description: 'mountain ranges', count: 3, problemType: 'frq', difficulty: 'medium', seed: 1 });
    if (plan.ok) expect(plan.engine).toMatch(/^offline:vocabulary:/);
    else expect(plan.message).not.toMatch(/mathematics catalogue/);
  });
});
