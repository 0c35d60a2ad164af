/**
 * The computer-algebra side of the math generators: every correct answer and every distractor
 * value is computed by nerdamer-prime from an expression string, then printed in one canonical
 * form (so two equal values print the same and distractors can be told apart by text).
 */
import nerdamer from './nerdamer.ts';

/** Evaluates exactly (rationals stay rationals) and returns nerdamer's text. */
export function exact(expr: string): string {
  return nerdamer(expr).toString();
}

/** Exact value as a canonical display string: integers, reduced fractions like "-7/3". */
export function rational(expr: string): string {
  const s = nerdamer(expr).toString();
  return s.replace(/^\((-?\d+)\)\/(\d+)$/, '$1/$2');
}

/** Fast path for integers and fractions ("-7/2"); the CAS otherwise. */
/** rational(), or null when the expression is undefined (a mistake that divides by zero). */
export function tryRational(expr: string): string | null {
  try {
    return rational(expr);
  } catch {
    return null;
  }
}

export function numeric(expr: string): number {
  const m = /^\s*\(?(-?\d+(?:\.\d+)?)\)?(?:\/(\d+))?\s*$/.exec(expr);
  if (m) return Number(m[1]) / (m[2] ? Number(m[2]) : 1);
  return numericCas(expr);
}

function numericCas(expr: string): number {
  return Number(nerdamer(expr).evaluate().text('decimals'));
}

/** Coefficients of a polynomial in `v`, lowest degree first, as exact strings. */
export function polyCoeffs(expr: string, v = 'x'): string[] {
  const out = nerdamer(`coeffs(${expr}, ${v})`).toString();
  const inner = out.replace(/^\[/, '').replace(/\]$/, '');
  return inner === '' ? ['0'] : splitTop(inner);
}

export function diff(expr: string, v = 'x'): string {
  return nerdamer(`diff(${expr}, ${v})`).toString();
}

export function integrate(expr: string, v = 'x'): string {
  return nerdamer(`integrate(${expr}, ${v})`).toString();
}

/** Splits on commas that are not inside brackets. */
export function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') parts.push(cur.trim());
  return parts;
}

function isNegative(c: string): boolean {
  return c.trim().startsWith('-');
}

function abs(c: string): string {
  return isNegative(c) ? c.trim().slice(1) : c.trim();
}

/** "12x^3 - 4x + 5" from coefficients lowest degree first; fractional coefficients as "(3/4)x^2". */
export function formatPoly(coeffs: readonly string[], v = 'x', constant?: string): string {
  const terms: string[] = [];
  for (let n = coeffs.length - 1; n >= 0; n--) {
    const c = rational(coeffs[n]);
    if (c === '0') continue;
    const mag = abs(c);
    const power = n === 0 ? '' : n === 1 ? v : `${v}^${n}`;
    let body: string;
    if (n === 0) body = mag;
    else if (mag === '1') body = power;
    else if (mag.includes('/')) body = `(${mag})${power}`;
    else body = `${mag}${power}`;
    terms.push((isNegative(c) ? '-' : '+') + body);
  }
  if (constant) terms.push(`+${constant}`);
  if (terms.length === 0) return '0';
  return terms
    .map((t, i) => {
      const sign = t[0];
      const body = t.slice(1);
      if (i === 0) return sign === '-' ? `-${body}` : body;
      return `${sign} ${body}`;
    })
    .join(' ');
}

/** Canonical polynomial text of any polynomial expression in `v`. */
export function poly(expr: string, v = 'x'): string {
  return formatPoly(polyCoeffs(`expand(${expr})`, v), v);
}

/** Number or fraction as an operand: negative values in parentheses. */
export function operand(value: string | number): string {
  const s = String(value);
  return s.startsWith('-') || s.includes('/') ? `(${s})` : s;
}

/** Coefficient-level helpers for mistake values (the correct answers come from diff/integrate). */
export const coeffOps = {
  scale(c: readonly string[], k: string): string[] {
    return c.map((ci) => rational(`(${k})*(${ci})`));
  },
  /** c[n] -> f(n, c[n]) placed at degree n + shift. */
  map(c: readonly string[], shift: number, f: (n: number, ci: string) => string): string[] {
    const out: string[] = new Array(Math.max(0, c.length + shift)).fill('0');
    c.forEach((ci, n) => {
      if (n + shift >= 0 && ci !== '0') out[n + shift] = rational(f(n, ci));
    });
    return out;
  },
  mul(a: readonly string[], b: readonly string[]): string[] {
    const terms: string[][] = Array.from({ length: a.length + b.length - 1 }, () => []);
    a.forEach((ai, i) => b.forEach((bj, j) => terms[i + j].push(`(${ai})*(${bj})`)));
    return terms.map((t) => rational(t.join('+')));
  },
};
