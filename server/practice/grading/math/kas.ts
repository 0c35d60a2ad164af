/**
 * The part of @khanacademy/kas (Khan Academy's CAS for answer checking) that grading uses, within
 * the bounds of bounds.ts: kas parses and evaluates; sameness is decided here by sampling, and a
 * symbolic question (is it simplified?) is asked only of an expression whose expansion is small.
 */
import * as KAS from '@khanacademy/kas';
import { CasLimitError, checkBounds } from './bounds.ts';
import type { KasExpr } from './kas-expr.ts';

export type { KasExpr } from './kas-expr.ts';

interface Kas {
  parse(s: string): { parsed: boolean; expr: KasExpr };
  Eq: new (...args: never[]) => KasExpr;
  Pow: new (...args: never[]) => KasExpr;
}
const kas = ((KAS as unknown as { default?: Kas }).default ?? (KAS as unknown as Kas)) as Kas;

/** Recent parses: one grade reads the same text several times, and kas's parser takes tens of ms on deep nesting. */
const parsed = new Map<string, KasExpr | null>();
const PARSE_CACHE = 256;

export function parse(s: string): KasExpr | null {
  if (!s.trim()) return null;
  if (parsed.has(s)) return parsed.get(s)!;
  const p = kas.parse(s);
  const e = p.parsed ? p.expr : null;
  if (parsed.size >= PARSE_CACHE) parsed.delete(parsed.keys().next().value!);
  parsed.set(s, e);
  return e;
}

const isEq = (e: KasExpr) => e instanceof kas.Eq;

/** Samples with finite values on both sides needed to decide that two expressions are equal. */
export const MIN_FINITE_SAMPLES = 4;

/** kas's test of two sampled values: absolute difference near zero, relative elsewhere, under 1e-9. */
function sameNumber(a: number, b: number): boolean {
  const delta = Math.abs(a) < 1 || Math.abs(b) < 1 ? Math.abs(a - b) : Math.abs(1 - a / b);
  return delta < 1e-9;
}

/**
 * Values of every variable at sample i: kas's kinds of values (small, whole, large, both signs),
 * fixed so a grade is repeatable. Variable j is shifted by 7j through the samples: with a count
 * of samples that 7 does not divide, no two of the first `samples.length` variables share values.
 */
function sampleVars(names: string[], i: number, samples: readonly number[]): Record<string, number> {
  const vars: Record<string, number> = {};
  names.forEach((n, j) => (vars[n] = samples[(i + j * 7) % samples.length]!));
  return vars;
}

const EXPR_SAMPLES = [-1, 0, 1, 0.37, -0.61, 3, -7, 2.83, -4.41, 42, -58, 71.9, -93.2, 512, -731, 0.09, 6.05, -0.93, 17, -2.5];

/**
 * Expressions equal by sampling, as kas compares them, but overflow is no agreement: a sample
 * where either side is not finite (Infinity, NaN, outside its domain) decides nothing, and at
 * least MIN_FINITE_SAMPLES must agree. kas itself counted two infinities as equal ("10^999 + x"
 * was "10^998 + x") and collected the expressions first, which nested powers of sums
 * ("((x+1)^2+1)^2 ...") made take minutes.
 */
function sameExpression(a: KasExpr, b: KasExpr): boolean {
  const names = [...new Set([...a.getVars(), ...b.getVars()])];
  let finite = 0;
  for (let i = 0; i < EXPR_SAMPLES.length; i++) {
    const vars = sampleVars(names, i, EXPR_SAMPLES);
    let x: number;
    let y: number;
    try {
      x = a.eval(vars);
      y = b.eval(vars);
    } catch {
      continue;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (!sameNumber(x, y)) return false;
    finite++;
  }
  if (finite < MIN_FINITE_SAMPLES) throw new CasLimitError('its values overflow (or are undefined) wherever the CAS samples them, so it cannot be compared');
  return true;
}

interface EqNode {
  left: KasExpr;
  right: KasExpr;
  type: string;
}

/** An equation or inequality as `f(vars) type 0`, `>` turned round to `<`. */
function sidesOf(e: KasExpr): { f: (v: Record<string, number>) => number; type: string; denominators: KasExpr[] } {
  const q = e as unknown as EqNode;
  const flip = q.type === '>' || q.type === '>=';
  const [l, r] = flip ? [q.right, q.left] : [q.left, q.right];
  return { f: (v) => l.eval(v) - r.eval(v), type: flip ? q.type.replace('>', '<') : q.type, denominators: [...denominatorsOf(l), ...denominatorsOf(r)] };
}

/** The distinct denominators with a variable (1/(x+1), x^-2), each at its highest power. */
function denominatorsOf(e: KasExpr): KasExpr[] {
  const found = new Map<string, { base: KasExpr; power: number }>();
  const walk = (x: KasExpr) => {
    if (x instanceof kas.Pow) {
      const p = x as unknown as { base: KasExpr; exp: KasExpr };
      const n = p.exp.getVars().length === 0 ? p.exp.eval({}) : Number.NaN;
      if (n < 0 && p.base.getVars().length > 0) {
        const key = p.base.print();
        found.set(key, { base: p.base, power: Math.max(found.get(key)?.power ?? 0, -n) });
      }
    }
    const args = (x as unknown as { args?: () => unknown[] }).args?.() ?? [];
    for (const a of args) if (a && typeof a === 'object' && 'eval' in a) walk(a as KasExpr);
  };
  walk(e);
  return [...found.values()].map(({ base, power }) => ({ eval: (v: Record<string, number>) => base.eval(v) ** power }) as KasExpr);
}

/**
 * Equations (and inequalities) the same up to rearrangement, scaling by a non-zero constant
 * (positive for an inequality) and, for equations, multiplying through by the denominators: the
 * ratio of the two sides' `left - right` is one constant at every sample where both are finite.
 * Numeric on purpose: kas's symbolic comparison expands and factors, which took seconds for
 * `(x+y)^30 = (x-y)^30`; this is linear in the size of the two trees.
 */
function sameEquation(a: KasExpr, b: KasExpr): boolean {
  const ea = sidesOf(a);
  const eb = sidesOf(b);
  if (ea.type !== eb.type) return false;
  const names = [...new Set([...a.getVars(), ...b.getVars()])];
  const inequality = ea.type !== '=' && ea.type !== '<>';
  const tries: ((v: Record<string, number>) => [number, number])[] = [(v) => [ea.f(v), eb.f(v)]];
  if (!inequality && (ea.denominators.length || eb.denominators.length)) {
    const clear = (f: (v: Record<string, number>) => number, ds: KasExpr[]) => (v: Record<string, number>) => ds.reduce((p, d) => p * d.eval(v), f(v));
    tries.push((v) => [clear(ea.f, ea.denominators)(v), clear(eb.f, eb.denominators)(v)]);
  }
  let finiteSeen = 0;
  let differs = false;
  for (const pair of tries) {
    let ratio: number | null = null;
    let ok = true;
    let finite = 0;
    for (let i = 0; i < EQ_SAMPLES.length && ok; i++) {
      const vars = sampleVars(names, i, EQ_SAMPLES);
      let x: number;
      let y: number;
      try {
        [x, y] = pair(vars);
      } catch {
        continue;
      }
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      finite++;
      const scale = Math.max(1, Math.abs(x), Math.abs(y));
      if (Math.abs(y) <= 1e-12 * scale || Math.abs(x) <= 1e-12 * scale) {
        ok = Math.abs(x) <= 1e-9 * scale && Math.abs(y) <= 1e-9 * scale;
        continue;
      }
      const r = x / y;
      if (ratio === null) ratio = r;
      else ok = Math.abs(r - ratio) <= 1e-8 * Math.max(1, Math.abs(ratio));
    }
    finiteSeen = Math.max(finiteSeen, finite);
    if (!ok) differs = true;
    if (ok && finite >= MIN_FINITE_SAMPLES && (ratio === null ? true : ratio !== 0 && (!inequality || ratio > 0))) return true;
  }
  if (!differs && finiteSeen < MIN_FINITE_SAMPLES) throw new CasLimitError('its values overflow (or are undefined) wherever the CAS samples them, so it cannot be compared');
  return false;
}

/**
 * Non-integer values of several sizes and signs: a sample that happens to be a root is unlikely.
 * A prime count, so that sampleVars's stride of 7 gives every variable of an equation its own
 * value (with 14, the first and third variable were always equal, and `t = d*r` was `t = d/r`).
 */
const EQ_SAMPLES = [0.37, -1.29, 2.71, -0.53, 1.61, 4.13, -3.07, 0.83, -7.9, 11.3, 0.11, -0.77, 5.49, -2.23, 3.37, -5.19, 0.59];

/**
 * Same mathematical object (expressions, equations up to rearrangement and scaling, inequalities).
 * Throws CasLimitError past the bounds of bounds.ts, or when the comparison rests on overflowed values.
 */
export function same(a: KasExpr, b: KasExpr): boolean {
  checkBounds(a, 'sampled');
  checkBounds(b, 'sampled');
  if (isEq(a) || isEq(b)) return isEq(a) && isEq(b) && sameEquation(a, b);
  return sameExpression(a, b);
}

/** kas's "nothing left to simplify", within the symbolic bounds (CasLimitError past them). */
export function isSimplified(e: KasExpr): boolean {
  checkBounds(e, 'symbolic');
  return e.isSimplified();
}

/** The value of an expression without variables, or NaN (also when it overflows: Infinity is no value). */
export function valueOf(s: string): number {
  const e = parse(s);
  if (!e || e.getVars().length > 0) return Number.NaN;
  try {
    const v = e.eval({});
    return Number.isFinite(v) ? v : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
