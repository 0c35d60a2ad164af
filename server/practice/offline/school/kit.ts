/**
 * What every school sub-topic generator shares: the CAS checks (an answer is verified by the
 * computer algebra system against the problem itself, and so is every wrong choice, which must
 * fail that check), display helpers, and `build`, which turns a computed problem into an Item that
 * records its sub-topic (`params.subtopic`) and carries its own `verify`.
 */
import nerdamer from '../nerdamer.ts';
import type { Difficulty } from '../../types.ts';
import type { Distractor, Item, TopicGenerator } from '../item.ts';
import type { Rng } from '../rng.ts';
import { subTopic } from './catalogue.ts';

export type { Rng };

/** A display string as CAS input: unicode operators, π, √, units and "x =" removed. */
export function casOf(display: string): string {
  let s = display
    .replace(/^\s*[a-zA-Z]\s*=\s*/, '')
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/\u00D7/g, '*')
    .replace(/\u00B7/g, '*')
    .replace(/\u00F7/g, '/')
    .replace(/\u00B0|%|\$/g, '')
    // A unit after a number ("34 cm", "16π cm^2"), never a letter of an expression ("F/m").
    .replace(/(?<=[\d)\u03C0])\s+(cm|mm|km|m|g|kg|mg|L|mL|in|ft|yd|mi|lb|oz|gal|qt|pt|cups?|hours?|h|minutes?|s|mph|km\/h|degrees|sides)(\^[23]|\u00B2|\u00B3)?\s*$/, '');
  s = s.replace(/\u221A\(/g, 'sqrt(').replace(/\u221A(\d+)/g, 'sqrt($1)');
  s = s.replace(/(\d|\))\s*(\u03C0|pi|sqrt|\()/g, '$1*$2').replace(/\u03C0/g, 'pi');
  s = s.replace(/(\d)\s*([a-z])/g, '$1*$2').replace(/\)\s*([a-z\d])/g, ')*$1');
  return s.replace(/\s+/g, '');
}

/** Exact CAS value of an expression, as text. */
export function cas(expr: string): string {
  return nerdamer(expr).toString();
}

/** Exact rational of an expression: "7/3", "-2". */
export function q(expr: string): string {
  return nerdamer(expr).toString().replace(/^\((-?\d+)\)\/(\d+)$/, '$1/$2');
}

/** q() for a wrong value: empty (dropped by `build`) when the slip divides by zero. */
export function qw(expr: string): string {
  try {
    return q(expr);
  } catch {
    return '';
  }
}

/** Numeric value by the CAS. */
export function num(expr: string): number {
  return Number(nerdamer(expr).evaluate().text('decimals'));
}

/** Do two expressions (display or CAS text) have the same value? Exact where the CAS can decide, else to 1e-9. */
export function sameValue(a: string, b: string): boolean {
  try {
    const d = nerdamer(`(${casOf(a)})-(${casOf(b)})`);
    if (d.toString() === '0') return true;
    const v = Number(d.evaluate().text('decimals'));
    return Number.isFinite(v) && Math.abs(v) < 1e-9;
  } catch {
    return false;
  }
}

/** Are two polynomial expressions in the given variables identical? Checked at several points by the CAS. */
export function samePoly(a: string, b: string, vars: readonly string[] = ['x']): boolean {
  const points = [[2, 3], [-3, 5], [7, -2], [11, 13]];
  try {
    for (const p of points) {
      const at: Record<string, string> = {};
      vars.forEach((v, i) => (at[v] = String(p[i % 2]! + i)));
      const d = nerdamer(`(${casOf(a)})-(${casOf(b)})`, at).toString();
      if (d !== '0') return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Value of an expression with variables substituted, by the CAS (exact text). */
export function at(expr: string, vars: Record<string, string | number>): string {
  const sub: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) sub[k] = String(v);
  return nerdamer(casOf(expr), sub).toString();
}

/** Decimal text of an exact value: at most 6 places, no trailing zeros. */
export function decimal(expr: string): string {
  const v = num(expr);
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Signed term text: "+ 3", "- 5". */
export function signed(n: number | string): string {
  const s = String(n);
  return s.startsWith('-') ? `- ${s.slice(1)}` : `+ ${s}`;
}

/** A number as an operand in displayed arithmetic: negatives in parentheses. */
export function par(n: number | string): string {
  const s = String(n);
  return s.startsWith('-') ? `(${s})` : s;
}

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** "3x + 5", "-x - 2", "x": a·v + b. */
export function linText(a: number | string, b: number | string, v = 'x'): string {
  const as = String(a);
  const coef = as === '1' ? '' : as === '-1' ? '-' : as.includes('/') ? `(${as})` : as;
  const head = as === '0' ? '' : `${coef}${v}`;
  const bs = String(b);
  if (bs === '0') return head || '0';
  if (!head) return bs;
  return `${head} ${signed(bs)}`;
}

/** Polynomial text from coefficients, highest degree first: [2, -3, 1] -> "2x^2 - 3x + 1". */
export function polyText(coeffs: readonly (number | string)[], v = 'x'): string {
  const n = coeffs.length - 1;
  const parts: string[] = [];
  coeffs.forEach((c, i) => {
    const cs = String(c);
    if (cs === '0') return;
    const deg = n - i;
    const neg = cs.startsWith('-');
    const mag = neg ? cs.slice(1) : cs;
    const pow = deg === 0 ? '' : deg === 1 ? v : `${v}^${deg}`;
    const body = deg === 0 ? mag : mag === '1' ? pow : mag.includes('/') ? `(${mag})${pow}` : `${mag}${pow}`;
    parts.push(parts.length === 0 ? (neg ? `-${body}` : body) : `${neg ? '-' : '+'} ${body}`);
  });
  return parts.length ? parts.join(' ') : '0';
}

export interface Problem {
  prompt: string;
  answer: string;
  wrongs: Distractor[];
  steps: string[];
  /** Is this value right for the problem? Decided by the CAS from the problem, not from `answer`. */
  verify(value: string): boolean;
  claim?: (v: string) => string;
  scoring?: string;
  params?: Record<string, unknown>;
}

/**
 * The Item of a sub-topic: the answer must pass `verify` (else the generator is wrong and
 * throws), each wrong choice must fail it (one that passes is dropped: it is not wrong), and the
 * sub-topic id is recorded in `params.subtopic`.
 */
export function build(subtopic: string, p: Problem): Item {
  if (!p.verify(p.answer)) throw new Error(`${subtopic}: the CAS does not verify ${p.answer} for "${p.prompt}"`);
  const seen = new Set([p.answer.replace(/\s+/g, '')]);
  const distractors: Distractor[] = [];
  for (const w of p.wrongs) {
    const k = w.value.replace(/\s+/g, '');
    // A value rounded to 6 places (a repeating decimal) would look wrong for a reason other than the mistake.
    if (seen.has(k) || w.value.trim() === '' || /NaN|Infinity|undefined|\.\d{6}/.test(w.value)) continue;
    seen.add(k);
    if (p.verify(w.value)) continue;
    distractors.push(w);
  }
  // Last resort for a plain number (with a unit or "x ="): the nearest slips, each checked wrong too.
  const m = /^(x = )?(-?\d+(?:\.\d+)?)(\s*[^\d\s].*)?$/.exec(p.answer.trim());
  for (const step of ['1', '-1', '2', '10']) {
    if (distractors.length >= 3 || !m) break;
    const v = `${m[1] ?? ''}${decimal(`${m[2]}+(${step})`)}${m[3] ?? ''}`;
    const k = v.replace(/\s+/g, '');
    if (seen.has(k) || p.verify(v)) continue;
    seen.add(k);
    distractors.push({ value: v, why: 'makes an arithmetic slip in the last step' });
  }
  const lead = p.prompt.replace(/\s*(Give|Write|Round|Use)\b[^.]*\.\s*$/, '').replace(/[.?]\s*$/, '');
  return {
    prompt: p.prompt,
    answer: p.answer,
    distractors,
    explanation: `${p.steps.join('\n')}\nThe answer is ${p.answer}.`,
    claim: p.claim ?? ((v) => `${lead}: ${v}`),
    scoring: p.scoring ?? `Full credit for ${p.answer} or an equal value.`,
    params: { subtopic, ...(p.params ?? {}) },
    verify: p.verify,
  };
}

/** A sub-topic generator from its catalogue entry and a function making one problem per level. */
export function generator(id: string, make: (rng: Rng, level: Difficulty) => Problem): TopicGenerator {
  const meta = subTopic(id);
  return {
    id,
    title: meta.name,
    family: 'math',
    make: (rng, level) => build(id, make(rng, level)),
  };
}

/** Random choice of one of several makers, by level. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return rng.pick(items);
}
