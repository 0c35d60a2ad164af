/** Fraction, decimal and integer operations, one operation per sub-topic. */
import type { Difficulty } from '../../types.ts';
import type { Distractor } from '../item.ts';
import { decimal, generator, par, q, sameValue, type Problem, type Rng } from './kit.ts';

type Op = '+' | '-' | '*' | '/';
const SYM: Record<Op, string> = { '+': '+', '-': '−', '*': '×', '/': '÷' };
const VERB: Record<Op, string> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide' };

/** A fraction a/b as displayed: a mixed number "2 1/3" when whole. */
function fracShow(n: number, d: number, mixed: boolean): string {
  if (!mixed || n < d) return `${n}/${d}`;
  return `${Math.floor(n / d)} ${n % d}/${d}`;
}

function fractionProblem(op: Op, rng: Rng, level: Difficulty): Problem {
  let a: number, b: number, c: number, d: number;
  const mixed = level === 'hard';
  for (;;) {
    b = rng.int(2, level === 'easy' ? 9 : 12);
    if (level === 'easy' && (op === '+' || op === '-')) d = rng.pick([b, b * 2 <= 12 ? b * 2 : b, b * 3 <= 12 ? b * 3 : b]);
    else d = rng.int(2, 12);
    a = mixed ? rng.int(b + 1, 4 * b - 1) : rng.int(1, b - 1);
    c = mixed ? rng.int(d + 1, 3 * d - 1) : rng.int(1, Math.max(1, d - 1));
    if (a % b === 0 || c % d === 0) continue;
    if (level === 'medium' && (op === '+' || op === '-') && b === d) continue;
    if (level === 'medium' && op === '*' && rng.chance(0.4)) [c, d] = [rng.int(2, 12), 1];
    if (level === 'medium' && op === '/' && rng.chance(0.4)) [c, d] = [rng.int(2, 9), 1];
    if (op === '-' && a * d <= c * b) [a, b, c, d] = [c, d, a, b];
    if (op === '-' && a * d === c * b) continue;
    break;
  }
  const show = (n: number, dd: number) => (dd === 1 ? String(n) : fracShow(n, dd, mixed));
  const expr = `${a}/${b}${op}${c}/${d}`;
  const display = `${show(a, b)} ${SYM[op]} ${show(c, d)}`;
  const answer = q(expr);
  const wrongs: Distractor[] = [];
  const w = (e: string, why: string) => wrongs.push({ value: q(e), why });
  if (op === '+' || op === '-') {
    if (b !== d || op === '+') w(`(${a}${op}${c})/(${b}${op}${d})`, `combines the denominators too (${b} ${SYM[op]} ${d})`);
    w(`(${a}${op}${c})/(${b}*${d})`, 'puts the numerators over the product of the denominators without rescaling them');
    w(`(${a}${op}${c})/${Math.max(b, d)}`, 'keeps the larger denominator without rescaling');
    w(`(${a}*${d}${op === '+' ? '-' : '+'}${c}*${b})/(${b}*${d})`, `${op === '+' ? 'subtracts' : 'adds'} instead`);
    w(`${a}/${b}${op}${c}/${d}${op === '+' ? '+1' : '-1'}`, 'carries a stray 1 into the whole part');
  } else if (op === '*') {
    w(`(${a}*${d})/(${b}*${c})`, 'divides instead of multiplying');
    w(`(${a}*${c})/(${b}+${d})`, 'adds the denominators');
    w(`(${a}+${c})/(${b}+${d})`, 'adds numerators and denominators');
    w(`(${a}*${c})/${Math.max(b, d)}`, 'keeps one denominator');
  } else {
    w(`(${a}*${c})/(${b}*${d})`, 'multiplies without flipping the second fraction');
    w(`(${b}*${c})/(${a}*${d})`, 'flips the first fraction instead of the second');
    w(`(${a}+${d})/(${b}+${c})`, 'adds across after flipping');
    w(`(${a}*${d})/(${b}*${c})+1`, 'adds 1 after dividing');
  }
  const how =
    op === '+' || op === '-'
      ? `Common denominator ${q(`lcm(${b},${d})`)}: rewrite both fractions over it, ${op === '+' ? 'add' : 'subtract'} the numerators and reduce.`
      : op === '*'
        ? 'Multiply the numerators and the denominators, then reduce.'
        : `Dividing by ${show(c, d)} is multiplying by its reciprocal ${d}/${c}; then reduce.`;
  return {
    prompt: `${VERB[op][0]!.toUpperCase()}${VERB[op].slice(1)}: ${display}. Give the answer as a fraction in lowest terms.`,
    answer,
    wrongs,
    steps: [...(mixed ? ['Write the mixed numbers as improper fractions first.'] : []), how, `${display} = ${answer}.`],
    verify: (v) => sameValue(v, expr),
    claim: (v) => `${display} = ${v}`,
    params: { op, expression: expr },
  };
}

function decimalProblem(op: Op, rng: Rng, level: Difficulty): Problem {
  const places = level === 'easy' ? 1 : level === 'medium' ? 2 : 3;
  const dec = (lo: number, hi: number, p: number) => (rng.int(lo * 10 ** p, hi * 10 ** p) / 10 ** p).toFixed(p).replace(/0+$/, '').replace(/\.$/, '');
  let x: string, y: string;
  if (op === '+' || op === '-') {
    x = dec(1, 99, places);
    y = dec(0, 50, level === 'medium' ? rng.int(1, 2) : places);
    if (op === '-' && Number(y) >= Number(x)) [x, y] = [y, x];
    if (Number(x) === Number(y) || Number(y) === 0 || !x.includes('.')) return decimalProblem(op, rng, level);
  } else if (op === '*') {
    x = dec(1, 20, level === 'hard' ? 2 : 1);
    y = level === 'easy' ? String(rng.int(2, 12)) : dec(0, 9, 1);
    if (Number(y) === 0 || Number(y) === 1 || !x.includes('.')) return decimalProblem(op, rng, level);
  } else {
    // Dividend = quotient × divisor, so the quotient terminates.
    y = level === 'easy' ? String(rng.int(2, 9)) : level === 'medium' ? dec(0, 9, 1) : dec(0, 1, 2);
    const quot = dec(1, 40, 1);
    if (Number(y) <= 0 || Number(y) === 1 || Number(quot) === 0) return decimalProblem(op, rng, level);
    x = decimal(`${quot}*${y}`);
  }
  const expr = `${x}${op}${y}`;
  const display = `${x} ${SYM[op]} ${y}`;
  const answer = decimal(expr);
  const wrongs: Distractor[] = [
    { value: decimal(`(${expr})*10`), why: 'puts the decimal point one place too far right' },
    { value: decimal(`(${expr})/10`), why: 'puts the decimal point one place too far left' },
  ];
  if (op === '+') wrongs.push({ value: decimal(`${x}+${y}*10`), why: 'lines up the last digits instead of the decimal points' }, { value: decimal(`${x}-${y}`), why: 'subtracts instead' });
  if (op === '-') wrongs.push({ value: decimal(`${x}-${y}*10`), why: 'lines up the last digits instead of the decimal points' }, { value: decimal(`${x}+${y}`), why: 'adds instead' });
  if (op === '*') wrongs.push({ value: decimal(`(${expr})*100`), why: 'counts no decimal places in the product' }, { value: decimal(`${x}+${y}`), why: 'adds instead' });
  if (op === '/') wrongs.push({ value: decimal(`(${expr})*100`), why: 'moves the point in the divisor but not in the dividend' }, { value: decimal(`${y}/${x}`), why: 'divides the wrong way round' });
  return {
    prompt: `Compute ${display}.`,
    answer,
    wrongs,
    steps: [
      op === '+' || op === '-'
        ? 'Line up the decimal points, then add or subtract column by column.'
        : op === '*'
          ? 'Multiply as whole numbers, then place the point: the product has as many decimal places as both factors together.'
          : 'Move the decimal point of the divisor to make it whole, move the dividend\'s the same number of places, then divide.',
      `${display} = ${answer}.`,
    ],
    verify: (v) => sameValue(v, expr),
    claim: (v) => `${display} = ${v}`,
    params: { op, expression: expr },
  };
}

function integerProblem(op: Op, rng: Rng, level: Difficulty): Problem {
  const lim = level === 'easy' ? 10 : 50;
  let terms: number[];
  if (op === '/') {
    const quot = rng.nonzero(-12, 12);
    const div = level === 'easy' ? rng.nonzero(-10, 10) : rng.nonzero(-25, 25);
    if (Math.abs(div) === 1) return integerProblem(op, rng, level);
    terms = level === 'hard' ? [quot * div * rng.pick([-2, 2, 3]), div] : [quot * div, div];
  } else if (op === '*') {
    terms = level === 'hard' ? [rng.nonzero(-9, 9), rng.nonzero(-9, 9), rng.nonzero(-6, 6)] : [rng.nonzero(-lim / (level === 'easy' ? 1 : 2.5), lim / (level === 'easy' ? 1 : 2.5)), rng.nonzero(-12, 12)];
    terms = terms.map(Math.trunc).map((t) => t || 2);
  } else {
    const n = level === 'hard' ? 3 : 2;
    terms = Array.from({ length: n }, () => rng.nonzero(-lim, lim));
    // Subtracting a negative is the point of the sub-topic from medium on.
    if (op === '-' && level !== 'easy' && terms[1]! > 0) terms[1] = -terms[1]!;
    if (!terms.some((t) => t < 0)) terms[0] = -terms[0]!;
  }
  const expr = terms.map((t) => `(${t})`).join(op);
  const display = terms.map((t, i) => (i === 0 ? String(t) : par(t))).join(` ${SYM[op]} `);
  const answer = q(expr);
  const abs = terms.map((t) => `(${Math.abs(t)})`);
  const wrongs: Distractor[] = [{ value: q(`-(${expr})`), why: 'gets the sign of the result wrong' }];
  if (op === '+') wrongs.push({ value: q(abs.join('+')), why: 'ignores the negative signs' }, { value: q(`${terms[0]}-(${terms.slice(1).join('+')})`), why: 'subtracts instead of adding' });
  if (op === '-') wrongs.push({ value: q(`${terms[0]}+(${terms.slice(1).join('+')})`), why: 'adds instead of subtracting' }, { value: q(`${terms[0]}-(${terms.slice(1).map((t) => Math.abs(t)).join('+')})`), why: 'treats subtracting a negative as subtracting a positive' }, { value: q(abs.join('-')), why: 'ignores the negative signs' });
  if (op === '*') wrongs.push({ value: q(abs.join('*')), why: 'ignores the signs' }, { value: q(terms.map((t) => `(${t})`).join('+')), why: 'adds instead of multiplying' });
  if (op === '/') wrongs.push({ value: q(abs.join('/')), why: 'ignores the signs' }, { value: q(`(${terms[0]})*(${terms[1]})`), why: 'multiplies instead of dividing' }, { value: q(`(${terms[0]})/(${terms[1]})+1`), why: 'makes an off-by-one slip' });
  const rule = op === '*' || op === '/' ? 'Same signs give a positive result, different signs a negative one; an even number of negative factors is positive.' : op === '-' ? 'Subtracting a number is adding its opposite: a − (−b) = a + b.' : 'Same signs: add and keep the sign; different signs: subtract the sizes and keep the sign of the larger.';
  return {
    prompt: `Compute ${display}.`,
    answer,
    wrongs,
    steps: [rule, `${display} = ${answer}.`],
    verify: (v) => sameValue(v, expr),
    claim: (v) => `${display} = ${v}`,
    params: { op, expression: expr },
  };
}

export const NUMBER_GENERATORS = [
  generator('fraction-addition', (r, l) => fractionProblem('+', r, l)),
  generator('fraction-subtraction', (r, l) => fractionProblem('-', r, l)),
  generator('fraction-multiplication', (r, l) => fractionProblem('*', r, l)),
  generator('fraction-division', (r, l) => fractionProblem('/', r, l)),
  generator('decimal-addition', (r, l) => decimalProblem('+', r, l)),
  generator('decimal-subtraction', (r, l) => decimalProblem('-', r, l)),
  generator('decimal-multiplication', (r, l) => decimalProblem('*', r, l)),
  generator('decimal-division', (r, l) => decimalProblem('/', r, l)),
  generator('integer-addition', (r, l) => integerProblem('+', r, l)),
  generator('integer-subtraction', (r, l) => integerProblem('-', r, l)),
  generator('integer-multiplication', (r, l) => integerProblem('*', r, l)),
  generator('integer-division', (r, l) => integerProblem('/', r, l)),
];
