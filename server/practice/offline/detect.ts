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

export function detectMath(description: string): TopicGenerator[] {
  let text = ` ${description.toLowerCase()} `;
  const found: TopicGenerator[] = [];
  for (const rule of RULES) {
    if (!rule.pattern.test(text)) continue;
    text = text.replace(rule.pattern, ' ');
    for (const t of rule.topics) if (!found.includes(t)) found.push(t);
  }
  return found;
}

export function wantsVocabulary(description: string): boolean {
  return /\b(vocabulary|vocab|terms|terminology|definitions?|glossary|words for|kinds of|types of|names of|parts of)\b/i.test(description);
}
