/**
 * Exact values of numeric expressions (no variables), so that two numbers are compared as numbers
 * and never as two floats that overflowed: `9^9^9` and `10^999` are both Infinity as floats, and
 * `2^1000` and `2^1000 + 1` the same float. An expression evaluates to
 *
 * - `exact`: a rational n/d in BigInt, while it has at most MAX_EXACT_BITS bits;
 * - `huge`: past that, its sign and log10 of its size (`10^999` and `9^9^9` differ there);
 * - `inexact`: it holds π, e, a logarithm, a trigonometric function or an irrational root, and
 *   its float value (finite or not) is what there is;
 * - `unknown`: a sum of huge values (which may cancel), or a number typed with more digits than
 *   a float holds: nothing can be said, and the grade says so (CasLimitError).
 */
import * as KAS from '@khanacademy/kas';
import type { KasExpr } from './kas-expr.ts';

const K = ((KAS as unknown as { default?: typeof KAS }).default ?? KAS) as typeof KAS;

/** Bits of a numerator or denominator kept exactly (about 6,000 digits). */
export const MAX_EXACT_BITS = 20_000;

export type ExactValue =
  | { kind: 'exact'; n: bigint; d: bigint }
  | { kind: 'huge'; sign: 1 | -1; log10: number }
  | { kind: 'inexact' }
  | { kind: 'unknown' };

const INEXACT: ExactValue = { kind: 'inexact' };
const UNKNOWN: ExactValue = { kind: 'unknown' };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

const bits = (x: bigint): number => (x < 0n ? -x : x).toString(2).length;

export function log10Big(x: bigint): number {
  const s = (x < 0n ? -x : x).toString();
  const head = s.slice(0, 15);
  return s.length - head.length + Math.log10(Number(head));
}

function rat(n: bigint, d: bigint): ExactValue {
  if (d === 0n) return UNKNOWN;
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  n /= g;
  d /= g;
  if (bits(n) > MAX_EXACT_BITS || bits(d) > MAX_EXACT_BITS) return { kind: 'huge', sign: n < 0n ? -1 : 1, log10: log10Big(n) - log10Big(d) };
  return { kind: 'exact', n, d };
}

/** A float as the decimal it prints as: 0.1 is 1/10, 1e+21 is 10^21. */
function fromFloat(x: number): ExactValue {
  if (!Number.isFinite(x)) return UNKNOWN;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) return UNKNOWN;
  const [, sign, int, frac = '', exp = '0'] = m;
  let n = BigInt(int + frac) * (sign ? -1n : 1n);
  let d = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e >= 0) n *= 10n ** BigInt(e);
  else d *= 10n ** BigInt(-e);
  return rat(n, d);
}

function fromNumber(n: number, d: number): ExactValue {
  // kas holds literals as floats: a whole number past 2^53 is no longer the one typed.
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d)) return Number.isInteger(n) && Number.isInteger(d) ? UNKNOWN : fromFloat(n / d);
  return rat(BigInt(n), BigInt(d));
}

function logOf(v: ExactValue): number | null {
  if (v.kind === 'huge') return v.log10;
  if (v.kind === 'exact') return v.n === 0n ? null : log10Big(v.n) - log10Big(v.d);
  return null;
}

function signOf(v: ExactValue): 1 | -1 | 0 {
  if (v.kind === 'huge') return v.sign;
  if (v.kind === 'exact') return v.n === 0n ? 0 : v.n < 0n ? -1 : 1;
  return 0;
}

function add(a: ExactValue, b: ExactValue): ExactValue {
  if (a.kind === 'unknown' || b.kind === 'unknown') return UNKNOWN;
  if (a.kind === 'exact' && b.kind === 'exact') return rat(a.n * b.d + b.n * a.d, a.d * b.d);
  if (a.kind === 'huge' || b.kind === 'huge') {
    // One huge term dominates a smaller one; two of them may cancel.
    const [big, small] = a.kind === 'huge' ? [a, b] : [b as Extract<ExactValue, { kind: 'huge' }>, a];
    if (small.kind === 'huge' || small.kind === 'inexact') return UNKNOWN;
    const l = logOf(small);
    return l === null || l < big.log10 - 3 ? big : UNKNOWN;
  }
  return INEXACT;
}

function mul(a: ExactValue, b: ExactValue): ExactValue {
  if (a.kind === 'unknown' || b.kind === 'unknown') return UNKNOWN;
  if (a.kind === 'exact' && b.kind === 'exact') {
    if (bits(a.n) + bits(b.n) > 4 * MAX_EXACT_BITS || bits(a.d) + bits(b.d) > 4 * MAX_EXACT_BITS) {
      return { kind: 'huge', sign: (signOf(a) * signOf(b)) as 1 | -1, log10: logOf(a)! + logOf(b)! };
    }
    return rat(a.n * b.n, a.d * b.d);
  }
  if (signOf(a) === 0 && a.kind === 'exact') return a;
  if (signOf(b) === 0 && b.kind === 'exact') return b;
  if (a.kind === 'inexact' || b.kind === 'inexact') return a.kind === 'huge' || b.kind === 'huge' ? UNKNOWN : INEXACT;
  return { kind: 'huge', sign: (signOf(a) * signOf(b)) as 1 | -1, log10: logOf(a)! + logOf(b)! };
}

/** The whole k-th root of x >= 0, or null when x is no k-th power. */
function exactRoot(x: bigint, k: number): bigint | null {
  if (x < 2n) return x;
  const r = BigInt(Math.round(Math.pow(Number(x), 1 / k)));
  for (const c of [r - 1n, r, r + 1n]) if (c >= 0n && c ** BigInt(k) === x) return c;
  return null;
}

function pow(b: ExactValue, e: ExactValue): ExactValue {
  if (b.kind === 'unknown' || e.kind === 'unknown') return UNKNOWN;
  if (e.kind !== 'exact') {
    if (e.kind === 'huge' && b.kind === 'exact' && (b.n === b.d || b.n === 0n)) return b;
    return e.kind === 'huge' ? UNKNOWN : INEXACT;
  }
  if (b.kind === 'inexact') return INEXACT;
  if (e.d !== 1n) {
    // A rational power: exact when the root is whole (8^(2/3) = 4, (9/4)^(1/2) = 3/2).
    if (b.kind !== 'exact' || b.n < 0n || e.d > 64n) return INEXACT;
    const k = Number(e.d);
    const rn = exactRoot(b.n, k);
    const rd = exactRoot(b.d, k);
    if (rn === null || rd === null) return INEXACT;
    return pow({ kind: 'exact', n: rn, d: rd }, { kind: 'exact', n: e.n, d: 1n });
  }
  const n = e.n;
  if (b.kind === 'huge') return n === 0n ? rat(1n, 1n) : { kind: 'huge', sign: b.sign < 0 && n % 2n !== 0n ? -1 : 1, log10: b.log10 * Number(n) };
  if (b.n === 0n) return n < 0n ? UNKNOWN : n === 0n ? rat(1n, 1n) : b;
  if (b.n === b.d) return b;
  if (b.n === -b.d) return n % 2n === 0n ? rat(1n, 1n) : b;
  const m = n < 0n ? -n : n;
  const size = Number(m) * Math.max(bits(b.n), bits(b.d));
  if (size > MAX_EXACT_BITS) {
    const log = (log10Big(b.n) - log10Big(b.d)) * Number(n);
    if (!Number.isFinite(log)) return UNKNOWN;
    return { kind: 'huge', sign: b.n < 0n && m % 2n === 1n ? -1 : 1, log10: log };
  }
  const [pn, pd] = [b.n ** m, b.d ** m];
  return n < 0n ? rat(pd, pn) : rat(pn, pd);
}

/** The exact value of a numeric kas expression. */
export function exactOf(e: KasExpr): ExactValue {
  if (e instanceof K.Int || e instanceof K.Rational) {
    const r = e as unknown as { n: number; d: number };
    return fromNumber(r.n, r.d ?? 1);
  }
  if (e instanceof K.Float) return fromFloat((e as unknown as { n: number }).n);
  if (e instanceof K.Add) return (e as unknown as { terms: KasExpr[] }).terms.reduce<ExactValue>((s, t) => add(s, exactOf(t)), rat(0n, 1n));
  if (e instanceof K.Mul) return (e as unknown as { terms: KasExpr[] }).terms.reduce<ExactValue>((s, t) => mul(s, exactOf(t)), rat(1n, 1n));
  if (e instanceof K.Pow) {
    const p = e as unknown as { base: KasExpr; exp: KasExpr };
    return pow(exactOf(p.base), exactOf(p.exp));
  }
  if (e instanceof K.Abs) {
    const v = exactOf((e as unknown as { arg: KasExpr }).arg);
    if (v.kind === 'exact') return rat(v.n < 0n ? -v.n : v.n, v.d);
    if (v.kind === 'huge') return { ...v, sign: 1 };
    return v;
  }
  if (e instanceof K.Var) return UNKNOWN;
  // π, e, logarithms, trigonometric functions: irrational (or not worth deciding); their float value stands.
  return INEXACT;
}

/**
 * Whether two numeric values are equal: true or false when that can be decided, null when it
 * cannot (unknown values, two huge values of the same size, or an inexact one beside a huge one).
 * `inexact` values are left to the caller's float comparison (undefined).
 */
export function exactEqual(a: ExactValue, b: ExactValue): boolean | null | undefined {
  if (a.kind === 'unknown' || b.kind === 'unknown') return null;
  if (a.kind === 'exact' && b.kind === 'exact') return a.n === b.n && a.d === b.d;
  if (a.kind === 'huge' || b.kind === 'huge') {
    if (a.kind === 'inexact' || b.kind === 'inexact') return null;
    const [la, lb] = [logOf(a), logOf(b)];
    if (signOf(a) !== signOf(b) || la === null || lb === null) return false;
    return Math.abs(la - lb) > 1e-6 * Math.max(1, Math.abs(la), Math.abs(lb)) ? false : null;
  }
  return undefined;
}

/** A value scaled by a rational (a percent is a hundredth). */
export function scaled(v: ExactValue, n: bigint, d: bigint): ExactValue {
  return mul(v, rat(n, d));
}

/**
 * The text with each whole number longer than a float holds written as a sum of 15-digit parts
 * (kas reads literals as floats: "12345678901234567891" would be ...7890), for exactOf to read.
 */
export function exactText(s: string): string {
  return s.replace(/(?<![\d.])\d{16,}(?![\d.])/g, (digits) => {
    const parts: string[] = [];
    for (let end = digits.length, k = 0; end > 0; end -= 15, k++) {
      const chunk = digits.slice(Math.max(0, end - 15), end).replace(/^0+(?=\d)/, '');
      parts.push(k === 0 ? chunk : `${chunk}*10^${15 * k}`);
    }
    return `(${parts.reverse().join('+')})`;
  });
}
