/**
 * What a mathematical answer is: a value (number or expression, perhaps with a unit or a percent
 * sign, perhaps a mixed number), an equation, a list of solutions (roots, a system's values, an
 * ordered pair) or a set of intervals (interval notation or inequalities).
 */
import { parse, valueOf } from './kas.ts';
import { splitUnit, type Unit } from './units.ts';

export interface Value {
  kind: 'value';
  /** The value as kas reads it (a mixed number as a sum, a percent as written, without %). */
  expr: string;
  /** The literal as written, without unit and percent sign. */
  literal: string;
  unit: Unit | null;
  percent: boolean;
  /** Written as a whole number and a fraction; `proper` when the fraction is below one. */
  mixed: { proper: boolean } | null;
}

export interface Equation {
  kind: 'equation';
  text: string;
  lhs: string;
  rhs: string;
}

export interface Solutions {
  kind: 'solutions';
  parts: { variable: string | null; value: Value }[];
  /** Written as "(a, b)". */
  tuple: boolean;
  /** Written as "a:b": equal when proportional. */
  ratio?: boolean;
}

export interface Interval {
  lo: number;
  hi: number;
  loClosed: boolean;
  hiClosed: boolean;
}

export interface Intervals {
  kind: 'intervals';
  pieces: Interval[];
}

export type Reading = Value | Equation | Solutions | Intervals;

/** Words that may appear in mathematics; any other word of three letters or more makes a text prose. */
export const WORDS_IN_MATH = new Set(['sqrt', 'sin', 'cos', 'tan', 'ln', 'log', 'pi', 'abs', 'exp', 'frac', 'dfrac', 'cdot', 'times', 'div', 'left', 'right', 'inf', 'and', 'leq', 'geq', 'cup', 'sec', 'csc', 'cot', 'arcsin', 'arccos', 'arctan']);

function isProse(t: string): boolean {
  return (t.match(/[a-zA-Z]{3,}/g) ?? []).some((w) => !WORDS_IN_MATH.has(w.toLowerCase()));
}

const MIXED = /^(-?)\s*(\d+)\s+(\d+)\s*\/\s*(\d+)$/;

/** A number or expression with an optional unit or percent sign. */
export function readValue(text: string, allowUnits = true): Value | null {
  let t = text.trim();
  let percent = false;
  const pc = /^(.*?)\s*(?:%|\bpercent|\bper cent|\bpct)$/i.exec(t);
  if (pc) {
    percent = true;
    t = pc[1];
  }
  let unit: Unit | null = null;
  if (allowUnits && !percent) {
    const u = splitUnit(t);
    if (u.unit) {
      unit = u.unit;
      t = u.value;
    }
  }
  t = t.replace(/^\+/, '').trim();
  const m = MIXED.exec(t);
  if (m) {
    const expr = `${m[1]}(${m[2]}+${m[3]}/${m[4]})`;
    return { kind: 'value', expr, literal: t, unit, percent, mixed: { proper: Number(m[3]) < Number(m[4]) && Number(m[3]) > 0 } };
  }
  if (isProse(t) || !parse(t)) return null;
  return { kind: 'value', expr: t, literal: t, unit, percent, mixed: null };
}

/** Splits at commas and semicolons outside brackets, and at "or" / "and". */
export function splitList(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if ((ch === ',' || ch === ';') && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts
    .flatMap((p) => p.split(/\s+(?:and|or|&)\s+/i))
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * "1 ± √2" as its two values: the sign written in its place, so that "(6 ± √20)/2" inside a
 * bracket is (6 + √20)/2 and (6 − √20)/2 (tuned on D).
 */
function expandPlusMinus(s: string): string[] {
  const i = s.indexOf('±');
  if (i < 0) return [s];
  const head = s.slice(0, i).trim();
  const tail = s.slice(i + 1).trim();
  if (!head) return [tail, `-(${tail})`];
  // After an opening bracket or an operator the sign is the term's own.
  if (/[(*/^]$/.test(head)) return [`${head}${tail}`, `${head}-${tail}`];
  return [`${head} + ${tail}`, `${head} - ${tail}`];
}

// A Greek letter other than π names a variable as a Latin one does ("λ = 3", an eigenvalue; tuned on H).
const SINGLE_VAR = /^([a-zA-Z]|[α-ορ-ω])\s*=\s*(.+)$/;
/** Function notation on the left: f(x) =, f'(x) =, dy/dx =, y' = : the answer is the right side. */
const FUNCTION_LHS = /^(?:[a-zA-Z](?:\^\(?-1\)?)?'*\s*\(\s*[a-z]\s*\)|d\s*[a-z]\s*\/\s*d\s*[a-z]|[a-zA-Z]'+)\s*=\s*(.+)$/;

/** "No solution", "no real roots", ∅, {}: a set with nothing in it. */
export const NO_SOLUTION = /^(?:there (?:are|is) )?no (?:real )?(?:solutions?|roots?|zeros?|answers?|values?)(?: (?:exist|in the real numbers|over the reals))?$|^(?:∅|\{\s*\}|the empty set|empty set|none)$/i;

function hasVariables(s: string): boolean {
  const e = parse(s);
  return e ? e.getVars().length > 0 : /[a-z]/i.test(s.replace(/\b(?:pi|sqrt|sin|cos|tan|ln|log|e)\b/g, ''));
}

/** Reads an answer as solutions when it is a list, "x = number" or braces. */
export function readSolutions(text: string): Solutions | null {
  if (NO_SOLUTION.test(text.trim())) return { kind: 'solutions', parts: [], tuple: false };
  const ratio = /^\s*(-?[\d.]+)\s*:\s*(-?[\d.]+)(?:\s*:\s*(-?[\d.]+))?\s*$/.exec(text);
  if (ratio) {
    const parts = ratio.slice(1).filter((x): x is string => x !== undefined).map((v) => ({ variable: null, value: readValue(v)! }));
    return { kind: 'solutions', parts, tuple: true, ratio: true };
  }
  let t = text.trim().replace(/^[a-z]\s*(?:∈|in)\s*/i, '');
  const braces = /^\{(.*)\}$/.exec(t);
  if (braces) t = braces[1];
  const tuple = /^\(([^()]*(?:\([^()]*\)[^()]*)*,[^()]*(?:\([^()]*\)[^()]*)*)\)$/.exec(t);
  if (tuple) t = tuple[1];
  const parts: Solutions['parts'] = [];
  let lastVar: string | null = null;
  for (const raw of splitList(t)) {
    const m = SINGLE_VAR.exec(raw);
    const variable = m ? m[1] : tuple ? null : lastVar;
    const rhs = m ? m[2] : raw;
    if (m) lastVar = m[1];
    for (const v of expandPlusMinus(rhs)) {
      if (hasVariables(v)) return null;
      const value = readValue(v);
      if (!value) return null;
      parts.push({ variable, value });
    }
  }
  return parts.length ? { kind: 'solutions', parts, tuple: !!tuple } : null;
}

// ---- intervals ------------------------------------------------------------------------------

const INTERVAL = /^([[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])$/;

function endpoint(s: string): number {
  const t = s.replace(/\s+/g, '');
  if (/^\+?inf$/i.test(t)) return Infinity;
  if (/^-inf$/i.test(t)) return -Infinity;
  return valueOf(t);
}

function fromNotation(s: string): Interval[] | null {
  const pieces: Interval[] = [];
  for (const part of s.split(/\s+U\s+|\s*∪\s*|\s+or\s+/i)) {
    const m = INTERVAL.exec(part.trim());
    if (!m) return null;
    const lo = endpoint(m[2]);
    const hi = endpoint(m[3]);
    if (Number.isNaN(lo) || Number.isNaN(hi) || lo > hi) return null;
    pieces.push({ lo, hi, loClosed: m[1] === '[' && Number.isFinite(lo), hiClosed: m[4] === ']' && Number.isFinite(hi) });
  }
  return pieces;
}

const CMP = /(<=|>=|<|>)/;

/** "a < x <= b", "x >= 3", "3 < x", joined by "and" (intersection) or "or" (union). */
function fromInequalities(s: string): Interval[] | null {
  const union: Interval[] = [];
  for (const orPart of s.split(/\s+or\s+|\s+U\s+/i)) {
    let cur: Interval = { lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false };
    for (const andPart of orPart.split(/\s+and\s+|,\s*/i)) {
      const tokens = andPart.split(CMP).map((x) => x.trim());
      if (tokens.length !== 3 && tokens.length !== 5) return null;
      // The variable: a letter, or a function's value ("g(x) >= 2", a range: the output; tuned on I).
      const varAt = tokens.findIndex((x, i) => i % 2 === 0 && /^(?:[a-z]|[a-z]\s*\(\s*[a-z]\s*\))$/i.test(x));
      if (varAt < 0) return null;
      for (let i = 1; i < tokens.length; i += 2) {
        let op = tokens[i];
        let other = tokens[i === varAt - 1 ? i - 1 : i + 1];
        if (i !== varAt - 1 && i !== varAt + 1) return null;
        // Written "3 < x": turn it round to "x > 3".
        if (i === varAt - 1) op = ({ '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as Record<string, string>)[op];
        const v = endpoint(other);
        if (Number.isNaN(v)) return null;
        other = '';
        if (op === '>' || op === '>=') {
          if (v > cur.lo || (v === cur.lo && op === '>')) cur = { ...cur, lo: v, loClosed: op === '>=' };
        } else if (v < cur.hi || (v === cur.hi && op === '<')) cur = { ...cur, hi: v, hiClosed: op === '<=' };
      }
    }
    union.push(cur);
  }
  return union;
}

export function readIntervals(text: string): Intervals | null {
  // "{x | x > 3}", "x ∈ (3, ∞)", "x in [2, 5)": the set itself.
  const t = text.trim().replace(/^\{\s*[a-z]\s*[|:]\s*(.*)\}$/i, '$1').replace(/^[a-z]\s*(?:∈|\bin\b|\bis in\b)\s*(?=[[(])/i, '');
  if (/^(?:all real numbers|all reals|r|ℝ|\(-inf,\s*inf\))$/i.test(t)) return { kind: 'intervals', pieces: [{ lo: -Infinity, hi: Infinity, loClosed: false, hiClosed: false }] };
  const pieces = CMP.test(t) ? fromInequalities(t) : fromNotation(t);
  return pieces && pieces.length ? { kind: 'intervals', pieces: merge(pieces) } : null;
}

function merge(pieces: Interval[]): Interval[] {
  const sorted = [...pieces].sort((a, b) => a.lo - b.lo);
  const out: Interval[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && (p.lo < last.hi || (p.lo === last.hi && (p.loClosed || last.hiClosed)))) {
      if (p.hi > last.hi || (p.hi === last.hi && p.hiClosed)) out[out.length - 1] = { ...last, hi: p.hi, hiClosed: p.hiClosed };
    } else out.push(p);
  }
  return out;
}

export function sameIntervals(a: Intervals, b: Intervals): boolean {
  // Whole endpoints exactly (1000000001 is not 1000000000); others up to float rounding.
  const close = (x: number, y: number) => x === y || (!(Number.isInteger(x) && Number.isInteger(y)) && Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)));
  return a.pieces.length === b.pieces.length && a.pieces.every((p, i) => close(p.lo, b.pieces[i].lo) && close(p.hi, b.pieces[i].hi) && p.loClosed === b.pieces[i].loClosed && p.hiClosed === b.pieces[i].hiClosed);
}

export function showInterval(p: Interval): string {
  const lo = p.lo === -Infinity ? '-∞' : String(p.lo);
  const hi = p.hi === Infinity ? '∞' : String(p.hi);
  return `${p.loClosed ? '[' : '('}${lo}, ${hi}${p.hiClosed ? ']' : ')'}`;
}

// ---- the whole answer -------------------------------------------------------------------------

/**
 * Reads a reference answer. `intervalContext`: the question speaks of intervals or inequalities,
 * so "(-2, 2)" is an open interval rather than an ordered pair.
 */
export function readReference(text: string, intervalContext: boolean): Reading | null {
  const t = text.trim();
  // A half-open interval ("[2, 5)", "(2, 5]") is an interval whatever the question says.
  if (CMP.test(t) || /[[\]]/.test(t.replace(/^\[|\]$/g, '')) || /^\[[^\]]*\)$|^\([^)]*\]$/.test(t) || (intervalContext && INTERVAL.test(t)) || /\binf\b/.test(t)) {
    const iv = readIntervals(t);
    if (iv) return iv;
  }
  const fn = FUNCTION_LHS.exec(t);
  if (fn) return readValue(fn[1]);
  const eqCount = (t.match(/=/g) ?? []).length;
  if (eqCount === 1 && !/[,;]|\bor\b|\band\b|±/.test(t)) {
    const [lhs, rhs] = t.split('=').map((x) => x.trim());
    if (!(SINGLE_VAR.test(t) && !hasVariables(rhs)) && parse(t)) return { kind: 'equation', text: t, lhs, rhs };
  }
  // "1 and 3": values joined by "and" are a list, as with "or" or a comma (tuned on H).
  if (eqCount >= 1 || /[,;±:]|\bor\b|\band\b/.test(t) || /^\{.*\}$/.test(t) || NO_SOLUTION.test(t)) {
    const s = readSolutions(t);
    if (s) return s;
  }
  return readValue(t);
}

/** Reads a student's answer as the same kind of thing as the reference where it can. */
export function readLike(text: string, ref: Reading, allowUnits: boolean): Reading | null {
  const t = text.trim();
  switch (ref.kind) {
    case 'intervals':
      return readIntervals(t);
    case 'equation': {
      if (t.includes('=') && parse(t)) {
        const [lhs, rhs] = t.split('=').map((x) => x.trim());
        return { kind: 'equation', text: t, lhs, rhs };
      }
      return readValue(t, false);
    }
    case 'solutions':
      return readSolutions(t) ?? readValue(t, allowUnits);
    case 'value': {
      const fn = FUNCTION_LHS.exec(t);
      if (fn) return readValue(fn[1], allowUnits);
      // "x = 4" for a value answer, or working that ends in the value ("½ × 6 × 4 = 12 cm²",
      // "a = (20 - 0) / 5 = 4 m/s²"): the value after the last "=".
      const eq = /^[^<>]*=([^=<>]+)$/.exec(t);
      if (eq) return readValue(eq[1].trim(), allowUnits);
      return readValue(t, allowUnits) ?? readSolutions(t);
    }
  }
}
