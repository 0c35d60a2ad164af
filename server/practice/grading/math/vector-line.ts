/**
 * "Vector equations of lines" (tuned on H): `r = a + t·d` in any writing of its vectors — tuples
 * `(1, 2)`, unit vectors `i + 2j`, componentwise `(x, y) = (1 + 3t, 2 − t)`, any parameter letter
 * (t, s, λ, μ) — is one line whatever point and direction it is written with: two equations are the
 * same line when their directions are parallel and the answer's point lies on the reference's line.
 */
import { valueOf } from './kas.ts';
import { splitTop } from './matrix.ts';

type Vec = number[];

/** Splits at top-level "+" and "−" (keeping the sign with its term); null when brackets do not balance. */
function terms(s: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth < 0) return null;
    if ((ch === '+' || ch === '-') && depth === 0 && cur.trim() !== '' && !/[*/^(]\s*$/.test(cur)) {
      out.push(cur.trim());
      cur = ch === '-' ? '-' : '';
    } else cur += ch;
  }
  if (depth !== 0) return null;
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const scalar = (s: string, p: string, at: number): number => {
  const t = s.trim();
  if (t === '' || t === '+') return 1;
  if (t === '-') return -1;
  return valueOf(t.replace(new RegExp(p, 'g'), `(${at})`).replace(/\*\s*$/, ''));
};

/** The vector an expression stands for with the parameter at `at`, or null. */
function vectorAt(expr: string, p: string, at: number): Vec | null {
  const parts = terms(expr);
  if (!parts || parts.length === 0) return null;
  let sum: Vec | null = null;
  const add = (v: Vec) => {
    if (!sum) sum = v.slice();
    else if (sum.length === v.length) sum = sum.map((x, i) => x + v[i]!);
    else sum = [Number.NaN];
  };
  for (const term of parts) {
    // coefficient × (…): a tuple, or a bracketed vector expression.
    const bracket = /^(.*?)\(([^]*)\)$/.exec(term);
    if (bracket && !/[ijk]\s*$/.test(term)) {
      const coef = scalar(bracket[1]!, p, at);
      const inner = bracket[2]!;
      const es = splitTop(inner);
      const v = es.length >= 2 ? es.map((e) => scalar(e, p, at)) : vectorAt(inner, p, at);
      if (!v) return null;
      add(v.map((x) => coef * x));
      continue;
    }
    // coefficient × unit vector.
    const unit = /^(.*?)\s*\*?\s*([ijk])$/.exec(term);
    if (unit) {
      const coef = scalar(unit[1]!, p, at);
      add([0, 0, 0].map((_, i) => (i === 'ijk'.indexOf(unit[2]!) ? coef : 0)));
      continue;
    }
    return null;
  }
  return sum;
}

/** A line `r = a + p·d` (or `(x, y) = (…)`): its parameter and the expression of its points, or null. */
function readLine(text: string): { p: string; expr: string } | null {
  const t = text.replace(/[−–]/g, '-').replace(/\s+/g, ' ').trim();
  const m = /^(?:r|\(\s*x\s*,\s*y(?:\s*,\s*z)?\s*\)|\bl\b)\s*=\s*(.+)$/i.exec(t);
  if (!m) return null;
  const letters = new Set((m[1]!.match(/[a-zλμα-ω]/gi) ?? []).filter((c) => !/[ijk]/.test(c)));
  if (letters.size !== 1) return null;
  return { p: [...letters][0]!, expr: m[1]! };
}

/** Points of the line at parameters 0 and 1, as vectors of one length (unit vectors padded to three). */
function pointAndDirection(line: { p: string; expr: string }): { a: Vec; d: Vec } | null {
  const a = vectorAt(line.expr, line.p, 0);
  const b = vectorAt(line.expr, line.p, 1);
  if (!a || !b || a.length !== b.length || [...a, ...b].some((x) => !Number.isFinite(x))) return null;
  return { a, d: b.map((x, i) => x - a[i]!) };
}

const pad = (v: Vec, n: number): Vec => [...v, ...Array(Math.max(0, n - v.length)).fill(0)];
function parallel(u: Vec, v: Vec): boolean {
  const n = Math.max(u.length, v.length);
  const [x, y] = [pad(u, n), pad(v, n)];
  if (y.every((c) => Math.abs(c) < 1e-12)) return x.every((c) => Math.abs(c) < 1e-12);
  // Every 2×2 minor vanishes.
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(x[i]! * y[j]! - x[j]! * y[i]!) > 1e-9 * Math.max(1, ...x.map(Math.abs), ...y.map(Math.abs))) return false;
  return true;
}

/** Both a line `r = a + t·d`: whether they are the same line; null when either is not read so. */
export function sameVectorLine(answer: string, reference: string): boolean | null {
  const r = readLine(reference);
  const u = readLine(answer);
  if (!r || !u) return null;
  const rl = pointAndDirection(r);
  const ul = pointAndDirection(u);
  if (!rl || !ul || rl.d.every((c) => Math.abs(c) < 1e-12)) return null;
  const n = Math.max(rl.a.length, ul.a.length);
  const diff = pad(ul.a, n).map((x, i) => x - pad(rl.a, n)[i]!);
  return parallel(ul.d, rl.d) && parallel(diff, rl.d);
}
