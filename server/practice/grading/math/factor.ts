/**
 * Whether a product written for "factorise completely" is complete: no bracket keeps a common
 * factor (a number or a variable), and none still factors over the rationals (a root p/q gives
 * the factor qx - p; a polynomial in x^k is tried as one in y = x^k; a homogeneous one in two
 * variables, x^2 - 4y^2, as one in x/y). Read by a small parser of its own: integer coefficients,
 * one-letter variables, whole powers. Anything else is not judged (undefined).
 */

/** A term: integer coefficient and the power of each variable. */
interface Term {
  coef: number;
  exps: Map<string, number>;
}

const MAX_COEF = 1e6;
const MAX_DEGREE = 12;
const MAX_CANDIDATES = 2000;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** "3x^2y - 12" as terms; null when it is anything else (nested brackets, fractions, decimals). */
function readPoly(text: string): Term[] | null {
  const s = text.replace(/[\s*]/g, '');
  if (!/^[-+]?[^-+]/.test(s) || /[-+]$|[-+]{2}/.test(s)) return null;
  const terms: Term[] = [];
  for (const m of s.matchAll(/([-+]?)([^-+]+)/g)) {
    const t = /^(\d*)((?:[a-z](?:\^\d+)?)*)$/.exec(m[2]);
    if (!t || (t[1] === '' && t[2] === '')) return null;
    const coef = (m[1] === '-' ? -1 : 1) * (t[1] === '' ? 1 : Number(t[1]));
    if (Math.abs(coef) > MAX_COEF) return null;
    const exps = new Map<string, number>();
    for (const v of t[2].matchAll(/([a-z])(?:\^(\d+))?/g)) exps.set(v[1], (exps.get(v[1]) ?? 0) + Number(v[2] ?? 1));
    if ([...exps.values()].some((e) => e > MAX_DEGREE)) return null;
    terms.push({ coef, exps });
  }
  return terms;
}

/** The factors of a product ("3(x - 2)(x + 2)^2", "2x(x + 1)"): the bracketed ones' contents. */
export function bracketFactors(literal: string): string[] | undefined {
  const s = literal.replace(/\s+/g, '');
  if (/sqrt|sin|cos|tan|log|ln|exp|abs|pi|\//.test(s)) return undefined;
  const inner: string[] = [];
  let i = s.startsWith('-') ? 1 : 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '(') {
      let depth = 0;
      let j = i;
      for (; j < s.length; j++) {
        if (s[j] === '(') depth++;
        else if (s[j] === ')' && --depth === 0) break;
      }
      if (j >= s.length) return undefined;
      inner.push(s.slice(i + 1, j));
      i = j + 1;
    } else if (/[\d.a-z*]/.test(c)) i++;
    else if (c === '^') {
      const m = /^\^(?:\d+|\(\d+\))/.exec(s.slice(i, i + 8));
      if (!m) return undefined;
      i += m[0].length;
    } else return undefined;
  }
  return inner;
}

/** Integer coefficients of a univariate polynomial, constant first. */
function coefficients(terms: Term[], v: string): number[] {
  const out: number[] = [];
  for (const t of terms) {
    const d = t.exps.get(v) ?? 0;
    while (out.length <= d) out.push(0);
    out[d] += t.coef;
  }
  return out;
}

function divisors(n: number): number[] {
  const out: number[] = [];
  for (let k = 1; k * k <= n; k++) if (n % k === 0) out.push(k, n / k);
  return out;
}

/** A rational root p/q of the polynomial, by the rational root theorem; null when none. */
function rationalRoot(c: number[]): [number, number] | null {
  const n = c.length - 1;
  const a0 = Math.abs(c[0]);
  const an = Math.abs(c[n]);
  if (n < 2 || a0 === 0 || an === 0) return null;
  const [ps, qs] = [divisors(a0), divisors(an)];
  // Bounded work: real answers have small coefficients.
  if (ps.length * qs.length > MAX_CANDIDATES) return null;
  const big = c.map(BigInt);
  for (const p of ps) {
    for (const q of qs) {
      if (gcd(p, q) !== 1) continue;
      for (const sp of [p, -p]) {
        // q^n · f(p/q) = Σ c_i p^i q^(n-i), exactly.
        let sum = 0n;
        for (let i = 0; i <= n; i++) sum += big[i] * BigInt(sp) ** BigInt(i) * BigInt(q) ** BigInt(n - i);
        if (sum === 0n) return [sp, q];
      }
    }
  }
  return null;
}

/** How a univariate polynomial (constant first) still factors, or null. */
function splits(c: number[], v: string, w: string | null): string | null {
  const root = rationalRoot(c);
  if (root) {
    const [p, q] = root;
    const lead = q === 1 ? v : `${q}${v}`;
    const rest = `${Math.abs(p)}${w ?? ''}`.replace(/^1(?=[a-z])/, '');
    return `${lead} ${p < 0 ? '+' : '-'} ${rest} is a factor of it`;
  }
  // A polynomial in v^k: x^4 - 4 is (x^2 - 2)(x^2 + 2).
  const n = c.length - 1;
  for (let k = 2; k <= n / 2; k++) {
    if (n % k !== 0 || c.some((x, i) => x !== 0 && i % k !== 0)) continue;
    const reduced = c.filter((_, i) => i % k === 0);
    if (rationalRoot(reduced) || (reduced.length > 3 && splits(reduced, 'y', null))) return `it factors as a polynomial in ${v}^${k}`;
  }
  return null;
}

/** "x^2-4" as "x^2 - 4". */
function show(inner: string): string {
  return inner.replace(/(?<=[^\^(*\s])([-+])/g, ' $1 ').replace(/\s+/g, ' ').trim();
}

/** Why one bracket's polynomial is not fully factorised, or null. */
function bracketProblem(inner: string): string | null {
  const terms = readPoly(inner);
  if (!terms || terms.length < 2) return null;
  const g = terms.reduce((acc, t) => gcd(acc, Math.abs(t.coef)), 0);
  if (g > 1) return `${show(inner)} still has the common factor ${g}`;
  const vars = [...new Set(terms.flatMap((t) => [...t.exps.keys()]))].sort();
  const common = vars.find((v) => terms.every((t) => (t.exps.get(v) ?? 0) > 0));
  if (common) return `${show(inner)} still has the common factor ${common}`;
  let how: string | null = null;
  if (vars.length === 1) how = splits(coefficients(terms, vars[0]), vars[0], null);
  else if (vars.length === 2) {
    const degree = (t: Term) => [...t.exps.values()].reduce((a, b) => a + b, 0);
    // Homogeneous in two variables: its factors are those of f(x, 1), with y put back.
    if (terms.every((t) => degree(t) === degree(terms[0]))) how = splits(coefficients(terms, vars[0]), vars[0], vars[1]);
  }
  return how ? `${show(inner)} still factors (${how})` : null;
}

/**
 * Why a product is not a complete factorisation, null when it is, undefined when it is not
 * read as a product of polynomials (a sum at the top, roots, fractions).
 */
export function incompleteFactorisation(literal: string): string | null | undefined {
  const inner = bracketFactors(literal);
  if (inner === undefined) return undefined;
  for (const b of inner) {
    const why = bracketProblem(b);
    if (why) return why;
  }
  return null;
}

/** A sum or difference outside every bracket: not a product ("x(x + 1) + 2(x + 1)"). */
export function isSumAtTop(literal: string): boolean {
  let depth = 0;
  const s = literal.replace(/\s+/g, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && (c === '+' || c === '-') && i > 0 && !/[\^(*]/.test(s[i - 1])) return true;
  }
  return false;
}
