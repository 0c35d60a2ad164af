/**
 * Mathematical answers by symbolic equivalence (@khanacademy/kas): expressions in any equal form,
 * numbers as fractions or decimals, "x = 3" forms, and solution sets such as "x = 2, x = 3"
 * or "x = 2, y = 1" in any order (partial credit per solution, wrong extras cancel one each).
 */
import * as KAS from '@khanacademy/kas';
import type { GradeResult } from '../types.ts';

interface KasExpr {
  eval(vars: Record<string, number>): number;
  getVars(): string[];
}
interface Kas {
  parse(s: string): { parsed: boolean; expr: KasExpr };
  compare(a: KasExpr, b: KasExpr): { equal: boolean; message: string | null };
}
const kas = ((KAS as unknown as { default?: Kas }).default ?? (KAS as unknown as Kas)) as Kas;

const FUNCS = new Set(['sqrt', 'sin', 'cos', 'tan', 'ln', 'log', 'pi', 'abs', 'exp', 'frac', 'cdot', 'times', 'div', 'left', 'right']);

/**
 * Longest text read as mathematics. kas's parser and comparison grow much faster than the input
 * (2,000 nested parentheses held the event loop 0.4 s); real answers and references are short.
 */
export const MAX_MATH_CHARS = 200;

/** True when a reference answer is mathematics rather than prose. */
export function looksMathematical(s: string): boolean {
  const t = normalize(s);
  if (t.length > MAX_MATH_CHARS) return false;
  if (!/[0-9=+\-*/^()]/.test(t) && !/^[a-zA-Z]$/.test(t.trim())) return false;
  const words = t.match(/[a-zA-Z]{3,}/g) ?? [];
  if (words.some((w) => !FUNCS.has(w.toLowerCase()))) return false;
  return kas.parse(t.replace(/,/g, ' ')).parsed || splitTop(t).every((p) => kas.parse(p.replace(/^[a-z]\s*=/i, '')).parsed);
}

export function normalize(s: string): string {
  return s
    .replace(/[−–]/g, '-')
    .replace(/[×·∙]/g, '*')
    .replace(/÷/g, '/')
    .replace(/√\s*\(/g, 'sqrt(')
    .replace(/√\s*(\d+)/g, 'sqrt($1)')
    .replace(/²/g, '^2')
    .replace(/³/g, '^3')
    .replace(/\$|%/g, '')
    .replace(/\bpercent\b/gi, '')
    .replace(/(\d),(\d{3})(?!\d)/g, '$1$2')
    .replace(/\s+\.|\.\s*$/g, '')
    .trim();
}

function splitTop(s: string): string[] {
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
    .flatMap((p) => p.split(/\s+(?:and|or)\s+/i))
    .map((p) => p.trim())
    .filter(Boolean);
}

interface Part {
  variable: string | null;
  value: string;
}

function parseParts(s: string): Part[] {
  const t = s.trim();
  // ordered pair "(2, 1)"
  const pair = /^\(([^()]*,[^()]*)\)$/.exec(t);
  if (pair) return splitTop(pair[1]).map((value) => ({ variable: null, value }));
  return splitTop(t).map((p) => {
    const m = /^([a-zA-Z])\s*=\s*(.+)$/.exec(p);
    return m ? { variable: m[1], value: m[2] } : { variable: null, value: p };
  });
}

function decimals(s: string): number {
  const m = /\.(\d+)/.exec(s);
  return m ? m[1].length : 0;
}

/** Equal as mathematics; a reference rounded to 3+ decimals accepts answers within half a percent. */
export function equivalent(user: string, ref: string): boolean {
  const u = kas.parse(user);
  const r = kas.parse(ref);
  if (!u.parsed || !r.parsed) return false;
  if (kas.compare(u.expr, r.expr).equal) return true;
  if (decimals(ref) >= 3 && u.expr.getVars().length === 0 && r.expr.getVars().length === 0) {
    const a = u.expr.eval({});
    const b = r.expr.eval({});
    return Number.isFinite(a) && Math.abs(a - b) <= 0.005 * Math.abs(b);
  }
  return false;
}

export function gradeMath(userAnswer: string, reference: string): GradeResult {
  const ref = normalize(reference);
  let user = normalize(userAnswer);
  const refParts = parseParts(ref);
  const isSet = refParts.length > 1 || refParts[0].variable !== null;
  const fail = (why: string): GradeResult => ({ score: 0, max_score: 1, method: 'math', met: [], missed: [reference], explanation: `${why} The expected answer is ${reference}.` });
  if (user === '') return fail('No answer was given.');
  if (user.length > MAX_MATH_CHARS) return fail(`The answer is too long to be read as mathematics (at most ${MAX_MATH_CHARS} characters).`);

  if (!isSet) {
    // "f'(x) = 3x^2" for an expression answer: grade the right-hand side.
    const eq = /^[^=]+=([^=]+)$/.exec(user);
    if (eq) user = eq[1].trim();
    if (/\bC\b/.test(ref) && !/\bC\b/.test(user)) user = user.replace(/\b[ckK]\b/g, 'C');
    if (!kas.parse(user).parsed) return fail(`"${userAnswer}" could not be read as a mathematical expression.`);
    return equivalent(user, ref)
      ? { score: 1, max_score: 1, method: 'math', met: [reference], missed: [], explanation: `Correct: ${userAnswer} is equivalent to ${reference}.` }
      : fail(`${userAnswer} is not equivalent to the expected answer.`);
  }

  const vars = [...new Set(refParts.map((p) => p.variable).filter((v): v is string => v !== null))].sort();
  let userParts = parseParts(user);
  // An ordered pair or bare values for a system: assign to the variables in alphabetical order.
  if (vars.length > 1 && userParts.every((p) => p.variable === null) && userParts.length === vars.length) {
    userParts = userParts.map((p, i) => ({ variable: vars[i], value: p.value }));
  }
  const unparsable = userParts.filter((p) => !kas.parse(p.value).parsed);
  if (unparsable.length === userParts.length) return fail(`"${userAnswer}" could not be read as a list of solutions.`);
  const used = new Set<number>();
  const met: string[] = [];
  const missed: string[] = [];
  for (const rp of refParts) {
    const idx = userParts.findIndex(
      (up, i) => !used.has(i) && (up.variable === rp.variable || (up.variable === null && vars.length === 1)) && equivalent(up.value, rp.value),
    );
    const label = `${rp.variable} = ${rp.value}`;
    if (idx >= 0) {
      used.add(idx);
      met.push(label);
    } else missed.push(label);
  }
  const extras = userParts.filter((_, i) => !used.has(i)).map((p) => (p.variable ? `${p.variable} = ${p.value}` : p.value));
  // A wrong value in place of a right one only misses; solutions beyond the expected number
  // (guessing) cancel one correct solution each.
  const surplus = Math.max(0, userParts.length - refParts.length);
  const score = Math.round((Math.max(0, met.length - surplus) / refParts.length) * 100) / 100;
  const parts: string[] = [`${met.length} of ${refParts.length} solution(s) correct`];
  if (met.length) parts.push(`found ${met.join(', ')}`);
  if (missed.length) parts.push(`missing ${missed.join(', ')}`);
  if (extras.length) parts.push(`wrong: ${extras.join(', ')}${surplus ? ` (${surplus} more than expected, each cancelling one correct solution)` : ''}`);
  return {
    score,
    max_score: 1,
    method: 'math',
    met,
    missed: [...missed, ...extras.map((e) => `${e} is not a solution`)],
    explanation: `${parts.join('; ')}. Expected ${reference}.`,
  };
}
