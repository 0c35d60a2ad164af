/** Order of operations with integers; the mistake values come from evaluating the same tokens the wrong way. */
import { rational } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';

const show = (s: string) => s.replace(/\*/g, ' × ').replace(/\//g, ' ÷ ').replace(/([+-])(?=\d|\()/g, ' $1 ').replace(/\s+/g, ' ').replace(/\( /g, '(').trim();

export const arithmetic: TopicGenerator = {
  id: 'arithmetic',
  title: 'Order of operations',
  family: 'math',
  make(rng, difficulty): Item {
    let cas: string;
    let wrongs: { expr: string; why: string }[];
    if (difficulty === 'easy') {
      const [a, b, c] = [rng.int(2, 20), rng.int(2, 9), rng.int(2, 9)];
      cas = `${a}+${b}*${c}`;
      wrongs = [
        { expr: `(${a}+${b})*${c}`, why: 'adds before multiplying (left to right instead of multiplication first)' },
        { expr: `${a}*${b}+${c}`, why: 'multiplies the wrong pair of numbers' },
        { expr: `${a}+${b}+${c}`, why: 'adds instead of multiplying' },
      ];
    } else if (difficulty === 'medium') {
      const [a, b, c, e] = [rng.int(2, 30), rng.int(2, 9), rng.int(2, 9), rng.int(2, 6)];
      const d = e * rng.int(2, 9);
      cas = `${a}+${b}*${c}-${d}/${e}`;
      wrongs = [
        { expr: `((${a}+${b})*${c}-${d})/${e}`, why: 'works strictly left to right, ignoring that × and ÷ come before + and −' },
        { expr: `${a}+${b}*(${c}-${d})/${e}`, why: 'subtracts before multiplying and dividing' },
        { expr: `${a}+${b}*${c}+${d}/${e}`, why: 'adds the last term instead of subtracting it' },
      ];
    } else {
      const [a, b, c, e] = [rng.int(2, 12), rng.int(13, 25), rng.int(2, 6), rng.int(2, 4)];
      const d = e * rng.int(1, 3);
      cas = `(${a}-${b})*${c}+${d}^2/${e}-${c}`;
      wrongs = [
        { expr: `${a}-${b}*${c}+${d}^2/${e}-${c}`, why: 'ignores the parentheses' },
        { expr: `(${a}-${b})*${c}+(${d}*2)/${e}-${c}`, why: `computes ${d}^2 as ${d} × 2` },
        { expr: `(${b}-${a})*${c}+${d}^2/${e}-${c}`, why: 'loses the minus sign of the parenthesis' },
      ];
    }
    const answer = rational(cas);
    const display = show(cas);
    return {
      prompt: `Evaluate ${display}.`,
      answer,
      distractors: wrongs.map((w) => ({ value: rational(w.expr), why: w.why })),
      explanation: `Parentheses first, then powers, then × and ÷ from left to right, then + and − from left to right.\n${display} = ${answer}.`,
      claim: (v) => `${display} = ${v}`,
      scoring: `Full credit for ${answer}.`,
      params: { expression: cas },
    };
  },
};
