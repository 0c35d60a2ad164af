/** Topic detection: which offline generators a free-text set description asks for. */
import type { TopicGenerator } from './item.ts';
import { arithmetic } from './math/arithmetic.ts';
import { derivatives } from './math/derivatives.ts';
import { exponents } from './math/exponents.ts';
import { fractions } from './math/fractions.ts';
import { integrals } from './math/integrals.ts';
import { linear } from './math/linear.ts';
import { percentages } from './math/percentages.ts';
import { quadratic } from './math/quadratic.ts';
import { systems } from './math/systems.ts';

export const MATH_GENERATORS: readonly TopicGenerator[] = [arithmetic, fractions, percentages, linear, quadratic, systems, derivatives, integrals, exponents];

interface Rule {
  pattern: RegExp;
  topics: TopicGenerator[];
}

// Order matters: a matched phrase is removed before later rules look, so "systems of linear
// equations" does not also count as "linear equations".
const RULES: Rule[] = [
  { pattern: /\b(systems? of (linear )?equations|simultaneous equations|linear systems?)\b/g, topics: [systems] },
  { pattern: /\b(quadratics?|quadratic equations?|factoring (trinomials|quadratics)|second[- ]degree equations?)\b/g, topics: [quadratic] },
  { pattern: /\b(linear equations?|linear|one[- ]step equations?|two[- ]step equations?|multi[- ]step equations?|solving equations|equations? in one variable|solve for x)\b/g, topics: [linear] },
  { pattern: /\b(derivatives?|differentiat\w*|power rule|product rule)\b/g, topics: [derivatives] },
  { pattern: /\b(integrals?|integrat\w*|antiderivatives?|anti-derivatives?)\b/g, topics: [integrals] },
  { pattern: /\b(exponents?|powers?|indices|laws of exponents|monomials?)\b/g, topics: [exponents] },
  { pattern: /\b(fractions?|rational numbers)\b/g, topics: [fractions] },
  { pattern: /\b(percent\w*|%)/g, topics: [percentages] },
  { pattern: /\b(order of operations|pemdas|bodmas|arithmetic|mental math)\b/g, topics: [arithmetic] },
  { pattern: /\b(calculus)\b/g, topics: [derivatives, integrals] },
  { pattern: /\b(pre-?algebra)\b/g, topics: [arithmetic, fractions, exponents] },
  { pattern: /\b(algebra)\b/g, topics: [linear, quadratic, systems] },
];

/**
 * Words a description of a mathematics exercise may hold besides its topic: the form of the
 * exercise, the audience, the operations. Any other word asks for something the generators do
 * not make ("derivatives of trigonometric functions", "cell differentiation", "separation of
 * powers"), and the description is refused rather than answered with a different set.
 */
const MATH_CONTEXT = new Set(
  (
    'a an the and or of with for by in on to from using use about my our your this these ' +
    'grade grades level year class unit chapter lesson review revision practice problem problems question questions exercise exercises worksheet quiz test ' +
    'homework set sets drill drills easy medium hard harder hardest basic simple advanced beginner beginners intro introduction intermediate challenging mixed ' +
    'math maths mathematics algebra pre algebraic calculus arithmetic numeric numerical ' +
    'solve solving solved solution solutions simplify simplifying simplification evaluate evaluating evaluation compute computing computation calculate calculating calculation find finding ' +
    'add adding addition subtract subtracting subtraction multiply multiplying multiplication divide dividing division operations ' +
    'rule rules law laws property properties equation equations expression expressions variable variables unknown unknowns term terms coefficient coefficients ' +
    'polynomial polynomials monomial monomials binomial binomials trinomial trinomials factor factors factoring factorising factorizing formula ' +
    'like unlike denominator denominators numerator numerators common lowest mixed number numbers whole integer integers negative positive decimal decimals rational ' +
    'word real life world one two three step steps multi single side sides both definite indefinite x y increase increases decrease decreases change changes discount discounts ' +
    'sale sales price prices markup tax tip tips kids students children middle high school elementary college sat act gcse'
  ).split(' '),
);

export interface MathDetection {
  generators: TopicGenerator[];
  /** Words of the description that no generator and no exercise wording accounts for. */
  leftover: string[];
}

export function detectMath(description: string): MathDetection {
  let text = ` ${description.toLowerCase()} `;
  const generators: TopicGenerator[] = [];
  for (const rule of RULES) {
    if (!rule.pattern.test(text)) continue;
    text = text.replace(rule.pattern, ' ');
    for (const t of rule.topics) if (!generators.includes(t)) generators.push(t);
  }
  const words = text
    .replace(/\bgrades?\s*\d+|\b\d+(st|nd|rd|th)\b|\byear\s*\d+/g, ' ')
    .match(/[a-z]+/g) ?? [];
  const leftover = generators.length ? [...new Set(words.filter((w) => !MATH_CONTEXT.has(w)))] : [];
  return { generators, leftover };
}

export function wantsVocabulary(description: string): boolean {
  return /\b(vocabulary|vocab|terms|terminology|definitions?|glossary|words for|kinds of|types of|names of|parts of)\b/i.test(description);
}
