/** Systems of two linear equations in x and y, solved by the CAS. */
import nerdamer from '../nerdamer.ts';
import { rational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

function axby(a: number, b: number): string {
  const x = a === 1 ? 'x' : a === -1 ? '-x' : `${a}x`;
  const y = Math.abs(b) === 1 ? 'y' : `${Math.abs(b)}y`;
  return `${x} ${b < 0 ? '-' : '+'} ${y}`;
}

function solve(eqs: string[]): { x: string; y: string } {
  const sol = nerdamer.solveEquations(eqs, ['x', 'y']) as [string, unknown][];
  const m = new Map(sol.map(([k, v]) => [k, rational(String(v))]));
  return { x: m.get('x') ?? '0', y: m.get('y') ?? '0' };
}

const show = (s: { x: string; y: string }) => `x = ${s.x}, y = ${s.y}`;

export const systems: TopicGenerator = {
  id: 'systems-of-equations',
  title: 'Systems of linear equations',
  family: 'math',
  make(rng, difficulty): Item {
    const lim = difficulty === 'easy' ? 3 : difficulty === 'medium' ? 6 : 9;
    let a: number, b: number, c: number, d: number;
    do {
      a = rng.nonzero(-lim, lim);
      b = rng.nonzero(-lim, lim);
      c = rng.nonzero(-lim, lim);
      d = rng.nonzero(-lim, lim);
    } while (a * d - b * c === 0 || (difficulty === 'easy' && Math.abs(a * d - b * c) > 6));
    // x ≠ ±y: otherwise swapping or flipping the values gives the answer or each other again,
    // and the problem has too few distinct wrong choices to be asked as multiple choice.
    let x0: number, y0: number;
    do {
      [x0, y0] = [rng.int(-6, 6), rng.int(-6, 6)];
    } while (x0 === y0 || x0 === -y0);
    const e = a * x0 + b * y0;
    const f = c * x0 + d * y0;
    const e1 = `${a}x+${b}y=${e}`.replace(/\+-/g, '-');
    const e2 = `${c}x+${d}y=${f}`.replace(/\+-/g, '-');
    const s = solve([e1, e2]);
    const answer = show(s);
    const text = `${axby(a, b)} = ${e} and ${axby(c, d)} = ${f}`;
    // Cramer's rule with the sign of f dropped: the slip's value, in exact arithmetic.
    const det = a * d - b * c;
    const wrong1 = { x: rational(`(${e}*${d}-${b}*(${-f}))/${det}`), y: rational(`(${a}*(${-f})-${c}*${e})/${det}`) };
    return {
      prompt: `Solve the system of equations: ${axby(a, b)} = ${e}; ${axby(c, d)} = ${f}.`,
      answer,
      distractors: [
        { value: show({ x: s.y, y: s.x }), why: 'swaps the values of x and y' },
        { value: show(wrong1), why: 'drops a minus sign on the right-hand side of the second equation' },
        { value: show({ x: rational(`(${e}+${b}*(${s.y}))/${a}`), y: s.y }), why: 'back-substitutes y with the wrong sign' },
        { value: show({ x: rational(`-(${s.x})`), y: rational(`-(${s.y})`) }), why: 'flips both signs' },
      ],
      explanation: [
        `Eliminate one variable: multiply the first equation by ${c} and the second by ${a}, then subtract: (${b * c} − ${a * d})y = ${e * c} − ${a * f}, so y = ${s.y}.`,
        `Substitute y = ${s.y} into ${axby(a, b)} = ${e} to get x = ${s.x}.`,
        `Check: ${a}·(${s.x}) + ${b}·(${s.y}) = ${e} and ${c}·(${s.x}) + ${d}·(${s.y}) = ${f}.`,
        `So the system ${text} has the solution ${answer}.`,
      ].join('\n'),
      claim: (v) => `The system ${text} has the solution ${v}`,
      scoring: `Full credit for ${answer}; half credit for each correct variable.`,
      params: { a, b, c, d, e, f },
    };
  },
};
