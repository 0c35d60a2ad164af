/** Percent word problems: part of a whole, percent of, percent increase, percent change. */
import { numeric } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

/** Decimal text of an exact value: at most 4 decimals, no trailing zeros. */
export function dec(expr: string): string {
  const v = numeric(expr);
  return String(Math.round(v * 10000) / 10000);
}

export const percentages: TopicGenerator = {
  id: 'percentages',
  title: 'Percentages',
  family: 'math',
  make(rng, difficulty): Item {
    const kind = difficulty === 'easy' ? rng.int(0, 1) : rng.int(0, 3);
    const p = difficulty === 'easy' ? rng.pick([10, 20, 25, 50, 75]) : difficulty === 'medium' ? 5 * rng.int(1, 19) : rng.pick([12.5, 7.5, 17.5, 2.5, 35, 62.5]);
    const N = difficulty === 'easy' ? 20 * rng.int(1, 10) : 10 * rng.int(2, 40);
    let prompt: string;
    let expr: string;
    let steps: string;
    let unit = '';
    let wrongs: { expr: string; why: string }[];
    switch (kind) {
      case 0:
        prompt = `What is ${p}% of ${N}?`;
        expr = `${p}/100*${N}`;
        steps = `${p}% means ${p}/100, so ${p}% of ${N} = ${p}/100 × ${N}.`;
        wrongs = [
          { expr: `${p}*${N}`, why: 'forgets to divide by 100' },
          { expr: `${N}-${p}/100*${N}`, why: 'subtracts the percentage from the whole' },
          { expr: `${N}/${p}`, why: 'divides the whole by the percent' },
          { expr: `${N}*100/${p}`, why: 'divides by the percent instead of multiplying' },
        ];
        break;
      case 1: {
        const part = (N * p) / 100;
        prompt = `${part} is what percent of ${N}?`;
        expr = `${part}/${N}*100`;
        unit = '%';
        steps = `Percent = part ÷ whole × 100 = ${part} ÷ ${N} × 100.`;
        wrongs = [
          { expr: `${N}/${part}*100`, why: 'divides the whole by the part' },
          { expr: `${part}/${N}`, why: 'forgets to multiply by 100' },
          { expr: `(${N}-${part})/${N}*100`, why: 'computes the remaining share instead' },
        ];
        break;
      }
      case 2:
        prompt = `A jacket costs $${N}. Its price rises by ${p}%. What is the new price in dollars?`;
        expr = `${N}*(1+${p}/100)`;
        steps = `New price = old price × (1 + ${p}/100) = ${N} × ${dec(`1+${p}/100`)}.`;
        wrongs = [
          { expr: `${N}*${p}/100`, why: 'gives only the increase, not the new price' },
          { expr: `${N}+${p}`, why: 'adds the percent as dollars' },
          { expr: `${N}*(1-${p}/100)`, why: 'decreases instead of increasing' },
        ];
        break;
      default: {
        const B = difficulty === 'hard' ? N + 5 * rng.nonzero(-8, 12) : N + rng.pick([-1, 1]) * (N * rng.pick([10, 20, 25, 40, 50])) / 100;
        prompt = `A town's population changes from ${N} to ${B}. What is the percent change? (Use a minus sign for a decrease.)`;
        expr = `(${B}-${N})/${N}*100`;
        unit = '%';
        steps = `Percent change = (new − old) ÷ old × 100 = (${B} − ${N}) ÷ ${N} × 100.`;
        wrongs = [
          { expr: `(${B}-${N})/${B}*100`, why: 'divides by the new value instead of the old one' },
          { expr: `(${N}-${B})/${N}*100`, why: 'subtracts in the wrong order (sign error)' },
          { expr: `${B}-${N}`, why: 'gives the difference, not a percent' },
        ];
      }
    }
    const answer = dec(expr) + unit;
    return {
      prompt,
      answer,
      distractors: wrongs.map((w) => ({ value: dec(w.expr) + unit, why: w.why })),
      explanation: `${steps}\nThe answer is ${answer}.`,
      claim: (v) => `${prompt} Answer: ${v}`,
      scoring: `Full credit for ${answer}.`,
      params: { kind, expression: expr },
    };
  },
};
