/** Indefinite integrals of polynomials (+ C), and definite integrals at the hard level. */
import { coeffOps, formatPoly, integrate, polyCoeffs, rational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';
import { randomPoly, termText } from './polynomials.ts';

const withC = (p: string) => (p === '0' ? 'C' : `${p} + C`);

export const integrals: TopicGenerator = {
  id: 'integrals',
  title: 'Integrals of polynomials',
  family: 'math',
  make(rng, difficulty): Item {
    const p = randomPoly(rng, difficulty === 'hard' ? 'easy' : difficulty);
    // The CAS integrates; the mistakes are transformations of the coefficients.
    const Fc = polyCoeffs(integrate(p.text.replace(/\(([^()]+)\)x/g, '($1)*x')));
    const F = formatPoly(Fc);
    const noDivide = formatPoly(coeffOps.map(p.coeffs, 1, (_n, c) => c));
    const derivative = formatPoly(coeffOps.map(p.coeffs, -1, (n, c) => `${n}*(${c})`));
    const steps = ['Integrate term by term with ∫a·x^n dx = a·x^(n+1)/(n+1).'];
    for (let n = p.coeffs.length - 1; n >= 0; n--) {
      if (p.coeffs[n] === '0') continue;
      const t = termText(p.coeffs[n], n);
      steps.push(`∫(${t}) dx = ${termText(rational(`(${p.coeffs[n]})/${n + 1}`), n + 1)}`);
    }
    if (difficulty === 'hard') {
      const lo = rng.int(-2, 1);
      const hi = lo + rng.int(1, 3);
      const at = (expr: string, v: number) => `(${expr.replace(/x/g, `(${v})`)})`;
      const answer = rational(`${at(F, hi)}-${at(F, lo)}`);
      return {
        prompt: `Evaluate the definite integral of ${p.text} dx from x = ${lo} to x = ${hi}.`,
        answer,
        distractors: [
          { value: rational(`${at(F, lo)}-${at(F, hi)}`), why: 'subtracts F(upper) from F(lower) (wrong order)' },
          { value: rational(at(F, hi)), why: 'forgets to subtract F at the lower limit' },
          { value: rational(`${at(noDivide, hi)}-${at(noDivide, lo)}`), why: 'raises the exponent but forgets to divide by the new exponent' },
          { value: rational(`${at(p.text, hi)}-${at(p.text, lo)}`), why: 'evaluates the integrand instead of an antiderivative' },
        ],
        explanation: `${steps.join('\n')}\nF(x) = ${F}; F(${hi}) − F(${lo}) = ${answer}.\nSo the integral from ${lo} to ${hi} equals ${answer}.`,
        claim: (v) => `The integral of ${p.text} from ${lo} to ${hi} equals ${v}`,
        scoring: `Full credit for ${answer}.`,
        params: { f: p.text, lo, hi, definite: true },
      };
    }
    const answer = withC(F);
    return {
      prompt: `Find the indefinite integral ∫(${p.text}) dx. Use C for the constant of integration.`,
      answer,
      distractors: [
        { value: withC(noDivide), why: 'raises the exponent but forgets to divide by the new exponent' },
        { value: F, why: 'forgets the constant of integration C' },
        { value: withC(derivative), why: 'differentiates instead of integrating' },
        { value: withC(formatPoly(coeffOps.scale(Fc, '-1'))), why: 'makes a sign error in every term' },
      ],
      explanation: `${steps.join('\n')}\nSo ∫(${p.text}) dx = ${answer}.`,
      claim: (v) => `∫(${p.text}) dx = ${v}`,
      scoring: `Full credit for ${answer}, including the constant of integration.`,
      params: { f: p.text, definite: false },
    };
  },
};
