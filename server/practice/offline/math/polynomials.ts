/** Random polynomials shared by the derivative and integral generators. */
import type { Difficulty } from '../../types.ts';
import { formatPoly } from '../cas.ts';
import type { Rng } from '../rng.ts';

export interface Poly {
  /** Coefficients, lowest degree first, as exact strings. */
  coeffs: string[];
  text: string;
}

export function randomPoly(rng: Rng, difficulty: Difficulty): Poly {
  const degree = difficulty === 'easy' ? rng.int(2, 3) : difficulty === 'medium' ? rng.int(3, 4) : rng.int(4, 5);
  const coeffs: string[] = [];
  for (let n = 0; n <= degree; n++) {
    const keep = n === degree || rng.chance(difficulty === 'easy' ? 0.6 : 0.75);
    if (!keep) {
      coeffs.push('0');
      continue;
    }
    if (difficulty === 'hard' && rng.chance(0.3)) coeffs.push(`${rng.nonzero(-5, 5)}/${rng.pick([2, 3, 4])}`);
    else coeffs.push(String(rng.nonzero(-9, 9)));
  }
  if (coeffs.filter((c) => c !== '0').length < 2) coeffs[1] = String(rng.nonzero(-9, 9));
  return { coeffs, text: formatPoly(coeffs) };
}

/** "(3x^2)" style text of a single term a·x^n. */
export function termText(c: string, n: number): string {
  const z = new Array(n + 1).fill('0');
  z[n] = c;
  return formatPoly(z);
}
