/** Derivatives of polynomials (hard: also products of two polynomials) by the CAS. */
import { coeffOps, diff, formatPoly, polyCoeffs, rational } from '../cas.ts';
import type { Distractor, Item, TopicGenerator } from '../item.ts';
import { randomPoly, termText } from './polynomials.ts';

export const derivatives: TopicGenerator = {
  id: 'derivatives',
  title: 'Derivatives of polynomials',
  family: 'math',
  make(rng, difficulty): Item {
    const ds: Distractor[] = [];
    let fText: string;
    let fCoeffs: string[];
    let steps: string[];
    if (difficulty === 'hard' && rng.chance(0.5)) {
      const g = [String(rng.nonzero(-5, 5)), '0', String(rng.nonzero(-4, 4))];
      const h = [String(rng.nonzero(-6, 6)), String(rng.nonzero(-3, 3))];
      const [gT, hT] = [formatPoly(g), formatPoly(h)];
      const [dg, dh] = [polyCoeffs(diff(gT)), polyCoeffs(diff(hT))];
      fText = `(${gT})(${hT})`;
      fCoeffs = coeffOps.mul(g, h);
      ds.push({ value: formatPoly(coeffOps.mul(dg, dh)), why: "multiplies the two derivatives (the product rule is f'g + fg')" });
      ds.push({ value: formatPoly(coeffOps.mul(dg, h)), why: "keeps only the f'g part of the product rule" });
      steps = [`Product rule: (gh)' = g'h + gh' with g = ${gT}, h = ${hT}.`, `g' = ${formatPoly(dg)}, h' = ${formatPoly(dh)}.`, `(${formatPoly(dg)})(${hT}) + (${gT})(${formatPoly(dh)}), expanded.`];
    } else {
      const p = randomPoly(rng, difficulty);
      fText = p.text;
      fCoeffs = p.coeffs;
      steps = ['Differentiate term by term with the power rule d/dx(a·x^n) = n·a·x^(n−1); a constant term has derivative 0.'];
      for (let n = p.coeffs.length - 1; n >= 0; n--) {
        if (p.coeffs[n] === '0') continue;
        steps.push(`d/dx(${termText(p.coeffs[n], n)}) = ${n === 0 ? '0' : termText(rational(`${n}*(${p.coeffs[n]})`), n - 1)}`);
      }
    }
    const fCas = formatPoly(fCoeffs).replace(/\(([^()]+)\)x/g, '($1)*x');
    // The CAS differentiates; the mistakes are transformations of the coefficients.
    const d = polyCoeffs(diff(fCas));
    const answer = formatPoly(d);
    const c0 = rational(fCoeffs[0] ?? '0');
    if (c0 !== '0') ds.push({ value: formatPoly([rational(`(${d[0] ?? 0})+(${c0})`), ...d.slice(1)]), why: 'keeps the constant term (its derivative is 0)' });
    ds.push({ value: formatPoly(coeffOps.map(fCoeffs, 0, (n, c) => `${n}*(${c})`)), why: 'multiplies by the exponent but does not lower it' });
    ds.push({ value: formatPoly(coeffOps.map(fCoeffs, -1, (_n, c) => c)), why: 'lowers the exponent but does not multiply by it' });
    ds.push({ value: formatPoly(coeffOps.scale(d, '-1')), why: 'makes a sign error in every term' });
    return {
      prompt: `Find the derivative of f(x) = ${fText}.`,
      answer,
      distractors: ds,
      explanation: `${steps.join('\n')}\nSo f'(x) = ${answer}.`,
      claim: (v) => `If f(x) = ${fText}, then f'(x) = ${v}`,
      scoring: `Full credit for f'(x) = ${answer} in any equivalent form.`,
      params: { f: fText.replace(/\)\(/g, ')*(') },
    };
  },
};
