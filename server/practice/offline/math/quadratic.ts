/** Quadratic equations with two real roots, solved by the quadratic formula in exact arithmetic. */
import { coeffOps, formatPoly, numeric, rational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

function roots(a: string, b: string, c: string, denom: string): string[] {
  const disc = `(${b})^2-4*(${a})*(${c})`;
  return [rational(`(-(${b})-sqrt(${disc}))/(${denom})`), rational(`(-(${b})+sqrt(${disc}))/(${denom})`)];
}

function asSet(rs: string[]): string {
  const uniq = [...new Set(rs)].sort((p, q) => numeric(p) - numeric(q));
  return uniq.map((r) => `x = ${r}`).join(', ');
}

export const quadratic: TopicGenerator = {
  id: 'quadratic-equations',
  title: 'Quadratic equations',
  family: 'math',
  make(rng, difficulty): Item {
    let factored: string;
    let factors: string[][];
    if (difficulty === 'hard') {
      const [p, r] = [rng.int(2, 4), rng.int(1, 3)];
      let q: number, s: number;
      do {
        q = rng.nonzero(-7, 7);
        s = rng.nonzero(-7, 7);
      } while (q * r === s * p);
      factored = `(${p}x-(${q}))(${r}x-(${s}))`;
      factors = [[String(-q), String(p)], [String(-s), String(r)]];
    } else {
      const m = difficulty === 'easy' ? 1 : rng.int(1, 3);
      let r1: number, r2: number;
      do {
        r1 = rng.int(-9, 9);
        r2 = rng.int(-9, 9);
      } while (r1 === r2);
      factored = `${m}(x-(${r1}))(x-(${r2}))`;
      factors = [[String(-m * r1), String(m)], [String(-r2), '1']];
    }
    // Expanded by exact coefficient arithmetic; the roots then come from the quadratic formula.
    const [c, b, a] = coeffOps.mul(factors[0], factors[1]);
    const expanded = formatPoly([c, b, a]);
    const answer = asSet(roots(a, b, c, `2*(${a})`));
    const eq = `${expanded} = 0`;
    const [x1, x2] = roots(a, b, c, `2*(${a})`);
    return {
      prompt: `Solve ${eq}. Give all real solutions.`,
      answer,
      distractors: [
        { value: asSet([rational(`-(${x1})`), rational(`-(${x2})`)]), why: 'takes the signs of the numbers in the factors instead of solving each factor = 0' },
        { value: asSet(roots(a, b, c, `${a}`)), why: 'divides by a instead of 2a in the quadratic formula' },
        { value: asSet([x1, rational(`-(${x2})`)]), why: 'makes a sign error in one of the roots' },
        { value: asSet(roots(a, `-(${b})`, c, `2*(${a})`)), why: 'uses +b instead of −b in the quadratic formula' },
      ],
      explanation: [
        `Here a = ${rational(a)}, b = ${rational(b)}, c = ${rational(c)}.`,
        `Discriminant b² − 4ac = ${rational(`(${b})^2-4*(${a})*(${c})`)}.`,
        `x = (−b ± √(b² − 4ac)) / (2a), which gives ${x1} and ${x2}.`,
        `So ${eq} has the solutions ${answer}.`,
      ].join('\n'),
      claim: (v) => `The solutions of ${eq} are ${v}`,
      scoring: `Full credit for both solutions ${answer} (any order); half credit for each correct solution, less for wrong extra ones.`,
      params: { coeffs: [c, b, a].map((s) => numeric(s)), equation: eq, factored },
    };
  },
};
