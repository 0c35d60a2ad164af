/**
 * Bounds of the CAS work one answer may cause. kas (Khan Academy's CAS) expands, collects and
 * factors symbolically before it compares equations and before it says whether an expression is
 * simplified; that work grows with the size of the expansion, not with the characters typed:
 * `(x+y)^30 = (x-y)^30` (19 characters) held the event loop 7 s, a product of twenty brackets set
 * equal to 0 several minutes. Before kas is asked anything symbolic, the expression's expansion is
 * estimated from its tree (terms after multiplying out, the largest power of a sum, the digits of
 * its numbers); past a bound the CAS is not asked and the grade says which limit it met (score 0,
 * needs_review), in a few microseconds. Numbers are compared exactly (exact.ts), never as two
 * overflowed floats. The limits are documented in docs/practice-api.md ("Limits of the CAS").
 */
import * as KAS from '@khanacademy/kas';
import type { KasExpr } from './kas-expr.ts';

const K = ((KAS as unknown as { default?: typeof KAS }).default ?? KAS) as typeof KAS;

/**
 * Terms an equation, inequality or simplification check may expand to. kas takes about 50-100 ms
 * at this size on one core; twice this took 0.5 s.
 */
export const MAX_SYMBOLIC_TERMS = 20;
/** Largest whole power of a sum ((x+1)^n) kas is asked to expand. */
export const MAX_POWER_OF_SUM = 6;
/** Largest power of anything with a variable (x^n): past it a sample of x overflows. */
export const MAX_POWER = 1000;
/** Nodes of an expression tree: kas's rewriting is at least quadratic in them. */
export const MAX_NODES = 400;

/** The CAS was not asked: the expression is past one of the limits above (the message names it). */
export class CasLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CasLimitError';
  }
}

interface Estimate {
  /** Terms once multiplied out (Infinity past any sane count). */
  terms: number;
  /** Product of the expansions of the denominators with a variable (equations multiply through by them). */
  denominators: number;
  nodes: number;
  maxPowerOfSum: number;
  maxPower: number;
  hasVars: boolean;
}

function integerExponent(e: KasExpr): number | null {
  if (e instanceof K.Int) return (e as unknown as { n: number }).n;
  if (e instanceof K.Mul) {
    // -n is parsed as (-1)*n.
    const terms = (e as unknown as { terms: KasExpr[] }).terms;
    if (terms.every((t) => t instanceof K.Int)) return terms.reduce((p, t) => p * (t as unknown as { n: number }).n, 1);
  }
  return null;
}

function children(e: KasExpr): KasExpr[] {
  const x = e as unknown as { args?: () => unknown[] };
  return typeof x.args === 'function' ? x.args().filter((a): a is KasExpr => typeof a === 'object' && a !== null && 'eval' in (a as object)) : [];
}

export function estimate(e: KasExpr): Estimate {
  if (e instanceof K.Var) return { terms: 1, denominators: 1, nodes: 1, maxPowerOfSum: 0, maxPower: 0, hasVars: true };
  const kids = children(e).map(estimate);
  const base: Estimate = {
    terms: 1,
    denominators: kids.reduce((p, k) => p * k.denominators, 1),
    nodes: 1 + kids.reduce((n, k) => n + k.nodes, 0),
    maxPowerOfSum: Math.max(0, ...kids.map((k) => k.maxPowerOfSum)),
    maxPower: Math.max(0, ...kids.map((k) => k.maxPower)),
    hasVars: kids.some((k) => k.hasVars),
  };
  if (e instanceof K.Add) return { ...base, terms: kids.reduce((n, k) => n + k.terms, 0) };
  if (e instanceof K.Mul) return { ...base, terms: kids.reduce((n, k) => n * k.terms, 1) };
  if (e instanceof K.Eq) return { ...base, terms: kids.reduce((n, k) => n + k.terms, 0) };
  if (e instanceof K.Pow) {
    const [b, x] = kids;
    const powExpr = (e as unknown as { exp: KasExpr }).exp;
    const n = integerExponent(powExpr);
    if (n === null || !b || !x) return { ...base, terms: (b?.terms ?? 1) * (x?.terms ?? 1) };
    const m = Math.abs(n);
    // kas multiplies a power out factor by factor before it collects: t^m products, not the
    // C(m + t - 1, t - 1) monomials left at the end.
    const expanded = b.terms <= 1 ? 1 : Math.min(Infinity, b.terms ** m);
    const isSum = b.terms > 1;
    const out = {
      ...base,
      terms: expanded,
      maxPowerOfSum: isSum && b.hasVars ? Math.max(base.maxPowerOfSum, m) : base.maxPowerOfSum,
      maxPower: b.hasVars ? Math.max(base.maxPower, m) : base.maxPower,
    };
    // 1/(x+1)^n: an equation is multiplied through by the expanded denominator.
    if (n < 0 && b.hasVars) out.denominators = base.denominators * expanded;
    return out;
  }
  return { ...base, terms: kids.reduce((n, k) => n * k.terms, 1) };
}

/** Throws CasLimitError when `e` is past the bounds for the work `kind` names. */
export function checkBounds(e: KasExpr, kind: 'symbolic' | 'sampled'): void {
  const est = estimate(e);
  const terms = est.terms * est.denominators;
  if (est.nodes > MAX_NODES) throw new CasLimitError(`the expression has more than ${MAX_NODES} parts, the most the CAS compares`);
  if (est.maxPower > MAX_POWER) throw new CasLimitError(`it raises a variable to a power above ${MAX_POWER}, the largest the CAS compares`);
  if (kind === 'symbolic') {
    if (est.maxPowerOfSum > MAX_POWER_OF_SUM) throw new CasLimitError(`it raises a sum to a power above ${MAX_POWER_OF_SUM}, the largest the CAS expands`);
    if (terms > MAX_SYMBOLIC_TERMS) throw new CasLimitError(`multiplied out it has more than ${MAX_SYMBOLIC_TERMS} terms, the most the CAS expands to compare equations`);
  }
  // An expression is compared by sampling (kas collects like factors, it does not multiply out):
  // its size and powers bound the work.
}
