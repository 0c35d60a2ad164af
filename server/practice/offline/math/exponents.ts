/** Laws of exponents: simplifying products, quotients and powers of monomials. */
import { exact, rational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

/** "6x^5", "x^-2", "(3/4)x^2": a single monomial in x. */
function mono(coef: string, exp: string): string {
  const c = rational(coef);
  const e = rational(exp);
  const pow = e === '0' ? '' : e === '1' ? 'x' : e.startsWith('-') || e.includes('/') ? `x^(${e})` : `x^${e}`;
  if (!pow) return c;
  if (c === '1') return pow;
  if (c === '-1') return `-${pow}`;
  return c.includes('/') ? `(${c})${pow}` : `${c}${pow}`;
}

export const exponents: TopicGenerator = {
  id: 'exponents',
  title: 'Laws of exponents',
  family: 'math',
  make(rng, difficulty): Item {
    let display: string, cas: string, coef: string, exp: string, rule: string;
    let wrongs: { c: string; e: string; why: string }[];
    const a = rng.int(2, 7);
    const b = rng.int(2, 6);
    if (difficulty === 'easy') {
      const k = rng.int(2, 6);
      const m = rng.int(2, 6);
      display = `(${k}x^${a})(${m}x^${b})`;
      cas = `(${k}*x^${a})*(${m}*x^${b})`;
      [coef, exp] = [`${k}*${m}`, `${a}+${b}`];
      rule = 'x^a · x^b = x^(a+b); multiply the coefficients.';
      wrongs = [
        { c: `${k}*${m}`, e: `${a}*${b}`, why: 'multiplies the exponents instead of adding them' },
        { c: `${k}+${m}`, e: `${a}+${b}`, why: 'adds the coefficients instead of multiplying them' },
        { c: `${k}*${m}`, e: `${a}+${b}+1`, why: 'adds one exponent too many' },
      ];
    } else if (difficulty === 'medium') {
      const k = rng.int(2, 4);
      const c = rng.int(1, 5);
      display = `(${k}x^${a})^${b} · x^${c}`;
      cas = `(${k}*x^${a})^${b}*x^${c}`;
      [coef, exp] = [`${k}^${b}`, `${a}*${b}+${c}`];
      rule = '(x^a)^b = x^(a·b), the coefficient is raised to the power too; then x^m · x^n = x^(m+n).';
      wrongs = [
        { c: `${k}`, e: `${a}*${b}+${c}`, why: 'does not raise the coefficient to the power' },
        { c: `${k}^${b}`, e: `${a}+${b}+${c}`, why: 'adds the exponents of a power of a power' },
        { c: `${k}*${b}`, e: `${a}*${b}+${c}`, why: 'multiplies the coefficient by the exponent' },
      ];
    } else {
      const k = rng.int(2, 4);
      const j = rng.int(2, 9);
      let c = rng.int(a * b - 6, a * b + 6);
      if (c === a * b) c += 1;
      display = `(${k}x^${a})^${b} ÷ (${j}x^${c})`;
      cas = `(${k}*x^${a})^${b}/(${j}*x^${c})`;
      [coef, exp] = [`${k}^${b}/${j}`, `${a}*${b}-${c}`];
      rule = '(x^a)^b = x^(a·b) and x^m ÷ x^n = x^(m−n); a negative exponent means a reciprocal.';
      wrongs = [
        { c: `${k}^${b}/${j}`, e: `${a}*${b}+${c}`, why: 'adds the exponents when dividing' },
        { c: `${k}/${j}`, e: `${a}*${b}-${c}`, why: 'does not raise the coefficient to the power' },
        { c: `${k}^${b}/${j}`, e: `${a}+${b}-${c}`, why: 'adds the exponents of a power of a power' },
      ];
    }
    const answer = mono(coef, exp);
    // The CAS simplifies the original expression; the displayed monomial must agree with it.
    const simplified = exact(cas);
    if (exact(`(${simplified})-(${coef})*x^(${exp})`) !== '0') throw new Error(`exponents: CAS disagrees on ${cas}`);
    return {
      prompt: `Simplify ${display}. Write the result as a single term c·x^n.`,
      answer,
      distractors: wrongs.map((w) => ({ value: mono(w.c, w.e), why: w.why })),
      explanation: `${rule}\nCoefficient: ${rational(coef)}; exponent: ${rational(exp)}.\nSo ${display} = ${answer}.`,
      claim: (v) => `${display} = ${v}`,
      scoring: `Full credit for ${answer} or an equal expression.`,
      params: { expression: cas },
    };
  },
};
