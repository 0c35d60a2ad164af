/** Linear equations in one variable; the solution is computed exactly and the steps shown. */
import { rational, tryRational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

/** "3x + 5", "-x - 2", "7x" */
export function lin(a: number, b: number, v = 'x'): string {
  const ax = a === 0 ? '' : a === 1 ? v : a === -1 ? `-${v}` : `${a}${v}`;
  if (b === 0) return ax || '0';
  if (!ax) return String(b);
  return `${ax} ${b < 0 ? '-' : '+'} ${Math.abs(b)}`;
}

export const linear: TopicGenerator = {
  id: 'linear-equations',
  title: 'Linear equations',
  family: 'math',
  make(rng, difficulty): Item {
    let a: number, b: number, c: number, d: number, eq: string, steps: string[];
    const wrongs: { expr: string; why: string }[] = [];
    if (difficulty === 'easy') {
      a = rng.int(2, 9);
      b = rng.nonzero(-15, 15);
      const x0 = rng.int(-10, 10);
      c = 0;
      d = a * x0 + b;
      eq = `${lin(a, b)} = ${d}`;
      steps = [`${b < 0 ? `Add ${-b} to` : `Subtract ${b} from`} both sides: ${a}x = ${d - b}.`, `Divide both sides by ${a}.`];
      wrongs.push({ expr: `(${d}+${b})/${a}`, why: 'adds the constant instead of subtracting it' });
      wrongs.push({ expr: `(${d}-${b})*${a}`, why: 'multiplies by the coefficient instead of dividing' });
      wrongs.push({ expr: `${d}/${a}-${b}`, why: 'divides before removing the constant' });
    } else if (difficulty === 'medium') {
      a = rng.nonzero(-9, 9);
      do c = rng.nonzero(-9, 9);
      while (c === a);
      const x0 = rng.int(-10, 10);
      b = rng.int(-20, 20);
      d = (a - c) * x0 + b;
      eq = `${lin(a, b)} = ${lin(c, d)}`;
      steps = [`Collect x terms on the left: ${lin(a - c, b)} = ${d}.`, `${b < 0 ? `Add ${-b}` : `Subtract ${b}`}: ${a - c}x = ${d - b}.`, `Divide by ${a - c}.`];
      wrongs.push({ expr: `(${d}+${b})/(${a}-${c})`, why: 'moves the constant without changing its sign' });
      wrongs.push({ expr: `(${d}-${b})/(${a}+${c})`, why: 'moves the x term without changing its sign' });
      wrongs.push({ expr: `(${a}-${c})/(${d}-${b})`, why: 'divides the wrong way round' });
    } else {
      // a(x + k) = cx + d with a rational solution
      a = rng.nonzero(-7, 7);
      do c = rng.nonzero(-9, 9);
      while (c === a);
      const k = rng.nonzero(-9, 9);
      d = rng.int(-25, 25);
      b = a * k;
      eq = `${a}(${lin(1, k)}) = ${lin(c, d)}`;
      steps = [`Distribute: ${lin(a, b)} = ${lin(c, d)}.`, `Collect x terms: ${lin(a - c, b)} = ${d}.`, `${b < 0 ? `Add ${-b}` : `Subtract ${b}`}: ${a - c}x = ${d - b}.`, `Divide by ${a - c}.`];
      wrongs.push({ expr: `(${d}-${k})/(${a}-${c})`, why: `forgets to distribute ${a} over the parenthesis` });
      wrongs.push({ expr: `(${d}+${b})/(${a}-${c})`, why: 'moves the constant without changing its sign' });
      wrongs.push({ expr: `(${d}-${b})/(${a}+${c})`, why: 'moves the x term without changing its sign' });
    }
    // Further slips, so that a multiple-choice version always has three distinct wrong values.
    wrongs.push({ expr: `(${d}+${b})/(${a}+${c})`, why: 'moves both terms across without changing their signs' });
    wrongs.push({ expr: `-(${d}-${b})/(${a}-${c})+1`, why: 'flips the sign when dividing and adds a stray 1' });
    wrongs.push({ expr: `(${d}-${b})/(${a}-${c})+1`, why: 'makes an off-by-one slip in the last step' });
    const x = rational(`(${d}-${b})/(${a}-${c})`);
    const answer = `x = ${x}`;
    return {
      prompt: `Solve for x: ${eq}`,
      answer,
      distractors: wrongs.flatMap((w) => {
        const v = tryRational(w.expr);
        return v === null ? [] : [{ value: `x = ${v}`, why: w.why }];
      }),
      explanation: `${steps.join('\n')}\nSo ${eq} gives ${answer}.`,
      claim: (v) => `The solution of ${eq} is ${v}`,
      scoring: `Full credit for ${answer}.`,
      params: { a, b, c, d, equation: eq },
    };
  },
};
