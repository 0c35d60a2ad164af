/** Fraction arithmetic; distractors are the classic slips (adding denominators, flipping the wrong fraction). */
import { rational } from '../cas.ts';
import type { Distractor, Item, TopicGenerator } from '../item.ts';

export const fractions: TopicGenerator = {
  id: 'fractions',
  title: 'Fraction arithmetic',
  family: 'math',
  make(rng, difficulty): Item {
    const b = rng.int(2, difficulty === 'easy' ? 9 : 12);
    const d = difficulty === 'easy' ? rng.pick([b, b * 2 <= 12 ? b * 2 : b]) : rng.int(2, 12);
    const a = rng.int(1, Math.max(1, b - 1));
    let c = rng.int(1, Math.max(1, d - 1));
    if (b === d && c === a) c = a === 1 ? 2 : a - 1;
    if (c >= d) c = 1;
    const op = difficulty === 'easy' ? rng.pick(['+', '-'] as const) : difficulty === 'medium' ? rng.pick(['+', '-', '*'] as const) : rng.pick(['*', '/', '-'] as const);
    const cas = `${a}/${b}${op}${c}/${d}`;
    const sym = op === '*' ? '×' : op === '/' ? '÷' : op === '-' ? '−' : '+';
    const display = `${a}/${b} ${sym} ${c}/${d}`;
    const answer = rational(cas);
    const ds: Distractor[] = [];
    if (op === '+' || op === '-') {
      if (b !== d || op === '+') ds.push({ value: rational(`(${a}${op}${c})/(${b}${op}${d})`), why: `combines the denominators too (${b} ${sym} ${d})` });
      ds.push({ value: rational(`(${a}${op}${c})/(${b}*${d})`), why: 'puts the numerators over the common denominator without rescaling them' });
      ds.push({ value: rational(`(${a}*${d}${op === '+' ? '-' : '+'}${c}*${b})/(${b}*${d})`), why: `uses ${op === '+' ? 'subtraction' : 'addition'} instead` });
      ds.push({ value: rational(`(${a}${op}${c})/${Math.max(b, d)}`), why: 'keeps the larger denominator without rescaling' });
    } else if (op === '*') {
      ds.push({ value: rational(`(${a}*${d})/(${b}*${c})`), why: 'divides instead of multiplying' });
      ds.push({ value: rational(`(${a}*${c})/(${b}+${d})`), why: 'adds the denominators' });
      ds.push({ value: rational(`(${a}+${c})/(${b}+${d})`), why: 'adds numerators and denominators' });
    } else {
      ds.push({ value: rational(`(${a}*${c})/(${b}*${d})`), why: 'multiplies without flipping the second fraction' });
      ds.push({ value: rational(`(${b}*${c})/(${a}*${d})`), why: 'flips the first fraction instead of the second' });
      ds.push({ value: rational(`(${a}*${d})/(${b}*${c})+1`), why: 'adds 1 after dividing' });
    }
    const how =
      op === '+' || op === '-'
        ? `Common denominator ${rational(`lcm(${b},${d})`)}: rewrite both fractions over it, then ${op === '+' ? 'add' : 'subtract'} the numerators and reduce.`
        : op === '*'
          ? 'Multiply numerators and multiply denominators, then reduce.'
          : `Dividing by ${c}/${d} is multiplying by its reciprocal ${d}/${c}; then reduce.`;
    return {
      prompt: `Compute ${display} and give the answer as a fraction in lowest terms.`,
      answer,
      distractors: ds,
      explanation: `${how}\n${display} = ${answer}.`,
      claim: (v) => `${display} = ${v}`,
      scoring: `Full credit for ${answer} or any equal value.`,
      params: { expression: cas },
    };
  },
};
