/**
 * Mathematical answers, graded by reading the question as well as the answer. The value must be
 * the same mathematical object as the reference (kas, Khan Academy's CAS: expressions in any equal
 * form, equations up to rearrangement and non-zero scaling; root sets in any order; intervals and
 * inequalities; units with conversion; percent, fraction, decimal and mixed number; LaTeX and
 * plain text), and it must be written in the form the question asks for (math/forms.ts).
 */
import type { GradeResult } from '../../types.ts';
import { decimalsOf, formProblem, isDecimalLiteral, readForms, roundSig, roundTo, sigFigsOf, unsimplifiedRoot, type Forms } from './forms.ts';
import { parse, same, valueOf, type KasExpr } from './kas.ts';
import { CasLimitError } from './bounds.ts';
import { exactEqual, exactOf, exactText, scaled, type ExactValue } from './exact.ts';
import { normalizeMath } from './normalize.ts';
import { CONFIDENCE } from '../thresholds.ts';
import { compareMatrix, looksLikeMatrix, readMatrix, shape, showMatrix, type Matrix } from './matrix.ts';
import { NO_SOLUTION, readLike, readReference, readSolutions, readValue, WORDS_IN_MATH, sameIntervals, showInterval, type Reading, type Solutions, type Value } from './read.ts';
import { asDimension, findUnit, splitUnit, unitWordsAsSymbols } from './units.ts';
import { baseOf, spokenMath } from './normalize.ts';
import { sameVectorLine } from './vector-line.ts';
import { afterConclusion, trailingSolutions } from './working.ts';
import { numberFromWords } from '../number-words.ts';
import { lemmas } from '../senses.ts';
import { FILLER, questionWords, wordsOf } from '../statements.ts';

/** What an answer or reference reads as: the readings of read.ts, or a matrix. */
type Answer = Reading | Matrix;

function readAnyReference(text: string, intervalContext: boolean): Answer | null {
  return (looksLikeMatrix(text) ? readMatrix(text) : null) ?? readReference(text, intervalContext);
}

function readAnswer(text: string, ref: Answer, allowUnits: boolean): Answer | null {
  const m = looksLikeMatrix(text) ? readMatrix(text) : null;
  if (m) return m;
  // Where a matrix is expected, its rows in other writings: "((0, −1), (1, 0))", "(0 1; 1 0)", "[0 1; 1 0]" (tuned on H).
  const rows = ref.kind === 'matrix' ? matrixRows(text) : null;
  if (rows) return readMatrix(rows);
  return ref.kind === 'matrix' ? (readSolutions(text) ?? readValue(text, false)) : readLike(text, ref, allowUnits);
}

/**
 * A matrix written with its rows in round brackets inside any bracket ("((1, 2), (3, 4))"), or with
 * rows separated by semicolons and entries by commas or spaces inside one bracket ("(1 2; 3 4)",
 * "[1, 2; 3, 4]"), as the nested list readMatrix reads; null for any other text.
 */
function matrixRows(text: string): string | null {
  const t = text.trim();
  const nested = /^[([]\s*(\([^()]*\)(?:\s*,?\s*\([^()]*\))+)\s*[)\]]$/.exec(t);
  if (nested) return `[${[...nested[1]!.matchAll(/\(([^()]*)\)/g)].map((r) => `[${r[1]}]`).join(', ')}]`;
  const semi = /^[([]([^()[\]]*;[^()[\]]*)[)\]]$/.exec(t);
  if (!semi) return null;
  const rows = semi[1]!.split(';').map((r) => r.trim().split(/\s*,\s*|\s+/).filter(Boolean));
  if (rows.some((r) => r.length !== rows[0]!.length) || rows[0]!.length < 1) return null;
  return `[${rows.map((r) => `[${r.join(', ')}]`).join(', ')}]`;
}

/**
 * Longest text read as mathematics. kas's parser and comparison grow much faster than the input
 * (2,000 nested parentheses held the event loop 0.4 s); real answers and references are short.
 */
export const MAX_MATH_CHARS = 200;

/** True when a reference answer is mathematics rather than prose. */
export function looksMathematical(s: string): boolean {
  const t = normalizeMath(s);
  if (t.length > MAX_MATH_CHARS || t === '') return false;
  // A chemical formula (CO2, H2O, NaCl) names a substance: a short answer, not a product.
  if (/^(?:[A-Z][a-z]?\d*){1,6}$/.test(t) && /[A-Z][a-z]?\d|[A-Z][a-z]?[A-Z]/.test(t)) return false;
  if (NO_SOLUTION.test(t)) return true;
  // A set in braces ("{a, b, c}") is a mathematical object even with letters for elements (tuned on F).
  if (setElements(s)?.every((e) => PLAIN_ELEMENT.test(e))) return true;
  // Points listed ("(1, −2) and (−1, 2)") are a mathematical object (tuned on G).
  if (pointsOf(s, 2)) return true;
  // A function of one variable ("sin θ", "cos x", "ln t") is mathematics, without a digit or an operator (tuned on I).
  if (!/[0-9=+\-*/^()<>$€£%]/.test(t) && !/^[a-zA-Z]$/.test(t) && !/^(?:pi|sqrt|e)\b/.test(t) && !/^(?:sin|cos|tan|sec|csc|cot|ln|log)\s*[a-zα-ω]$/i.test(t)) return false;
  const bare = t
    .split(/[,;]|\bor\b|\band\b/)
    .map((p) => splitUnit(p.replace(/%|\bper ?cent\b/gi, '')).value)
    .join(' ');
  const words = bare.match(/[a-zA-Z]{3,}/g) ?? [];
  if (words.some((w) => !WORDS_IN_MATH.has(w.toLowerCase()))) return false;
  return readAnyReference(t, true) !== null;
}

interface Verdict {
  equal: boolean;
  /** Accepted as a rounding of an irrational or repeating value. */
  rounded?: boolean;
  /** Equal to the reference as written, though the reference lacks the precision the question asks (a grade it decides is `low`). */
  asWritten?: boolean;
  /** The value is right and only the way it is written is not (`why` says how). */
  formOnly?: boolean;
  /** A form refused that a teacher may take (the grade is `low`). */
  unsure?: boolean;
  why?: string;
}

/**
 * Two floats equal up to rounding: never two infinities or NaNs (an overflow is no value), and two
 * whole numbers only when they are the same (1000000001 is not 1000000000).
 */
function close(a: number, b: number): boolean {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  if (Number.isInteger(a) && Number.isInteger(b) && Math.abs(a) > 1e6) return a === b;
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Exact values a side may stand for, as candidates() gives its floats (a percent is a hundredth). */
function exactCandidates(v: Value, e: KasExpr, other: Value, bare: boolean): ExactValue[] {
  const raw = exactValueOf(v, e);
  if (!v.percent) return [raw];
  const hundredth = scaled(raw, 1n, 100n);
  return other.percent || !bare ? [hundredth] : [hundredth, raw];
}

/**
 * Decides what floats cannot: true/false when both sides are exact (or huge) numbers, undefined
 * when a side is irrational (the float comparison decides). Throws CasLimitError when nothing can
 * be said (two huge numbers of the same size, a number past what a float holds).
 */
function exactVerdict(user: Value, ref: Value, uExpr: KasExpr, rExpr: KasExpr, forms: Forms): boolean | undefined {
  const us = exactCandidates(user, uExpr, ref, forms.percentQuantity);
  const rs = exactCandidates(ref, rExpr, user, true);
  let undecided = false;
  let irrational = false;
  for (const u of us) {
    for (const r of rs) {
      const eq = exactEqual(u, r);
      if (eq === true) return true;
      if (eq === null) undecided = true;
      if (eq === undefined) irrational = true;
    }
  }
  if (irrational) return undefined;
  if (undecided) throw new CasLimitError('its value is too large (or has more digits than can be held) to be compared exactly with the reference');
  return false;
}

/** The exact value of a side, its long whole numbers read digit by digit (exactText). */
function exactValueOf(v: Value, e: KasExpr): ExactValue {
  const text = exactText(v.expr);
  return exactOf(text === v.expr ? e : (parse(text) ?? e));
}

/**
 * A side a float cannot stand for: huge (past a float), overflowing or not finite as a float, or
 * holding a number longer than a float. Such sides are compared exactly or not at all.
 */
function needsExact(v: Value, e: KasExpr): boolean {
  const x = exactValueOf(v, e);
  if (x.kind === 'unknown') throw new CasLimitError('its value is too large (or has more digits than can be held) to be compared exactly with the reference');
  return x.kind === 'huge' || !Number.isFinite(valueOf(v.expr)) || exactText(v.expr) !== v.expr;
}

/**
 * Numbers a value may stand for next to the other side: 25% is 0.25, or 25 where the other is
 * bare and `bare` allows it (a reference's 25% for an answer's 25 always; an answer's 21% for a
 * reference's 21 only when the question asks for a percentage, since 21% of something is not 21).
 */
function candidates(v: Value, other: Value, bare: boolean): number[] {
  const raw = valueOf(v.expr);
  if (!v.percent) return [raw];
  return other.percent || !bare ? [raw / 100] : [raw / 100, raw];
}

/** A value with no finite decimal expansion of six places or fewer: 1/3, √2, π. */
function needsRounding(x: number): boolean {
  return !close(roundTo(x, 6), x);
}

const PERCENT_SLIP = (v: Value) => `${v.literal}% is a percentage (${v.literal} hundredths of something), and the question asks for a quantity`;

function compareValues(user: Value, ref: Value, forms: Forms): Verdict {
  const uExpr = parse(user.expr);
  const rExpr = parse(ref.expr);
  if (!uExpr || !rExpr) return { equal: false };
  if (rExpr.getVars().length > 0 || uExpr.getVars().length > 0) {
    // An antiderivative's constant written c or k.
    let u = uExpr;
    if (rExpr.getVars().includes('C') && !uExpr.getVars().includes('C')) u = parse(user.expr.replace(/\b[ckK]\b/g, 'C')) ?? uExpr;
    return { equal: same(u, rExpr) };
  }
  // Overflow never makes two numbers equal: a value past a float (10^999, 9^9^9) is compared
  // exactly or not at all.
  if (needsExact(user, uExpr) || needsExact(ref, rExpr)) {
    if (exactVerdict(user, ref, uExpr, rExpr, forms) === true && !user.unit && !ref.unit && forms.decimals === null && forms.sigFigs === null) return { equal: true };
    return { equal: false };
  }
  let uNums = candidates(user, ref, forms.percentQuantity);
  let rNums = candidates(ref, user, true);
  const percentSlip = user.percent && !ref.percent && !forms.percentQuantity;
  const refUnit = ref.unit ?? forms.target;
  if (user.unit && refUnit) {
    // "100 degrees" where the question is in degrees Celsius: the question's scale.
    const u = asDimension(user.unit, refUnit.dim) ?? (refUnit.dim === 'temperature' && /^deg/i.test(user.unit.text) ? refUnit : null);
    if (!u) return { equal: false, why: `${user.unit.text} does not measure the same thing as ${refUnit.text}` };
    uNums = uNums.map((x) => u.toBase(x));
    rNums = rNums.map((x) => refUnit.toBase(x));
  }
  if (forms.decimals !== null || forms.sigFigs !== null) {
    // Places and figures count in the reference's own unit, not the base unit (282.7 cm³ is not 0.0002827 m³ to 1 d.p.; tuned on E).
    if (user.unit && refUnit) {
      const offset = refUnit.toBase(0);
      const factor = refUnit.toBase(1) - offset;
      if (factor !== 0) [uNums, rNums] = [uNums.map((x) => (x - offset) / factor), rNums.map((x) => (x - offset) / factor)];
    }
    // The reference itself, as written, is never refused for its precision: a precision it does not
    // have is about something else ("estimate by rounding each number to 1 s.f.": 210; tuned on E).
    if (!ref.percent && !user.percent && /^-?\d+(?:\.\d+)?$/.test(ref.literal.trim()) && uNums.some((u) => rNums.some((r) => u === r))) {
      const rounded = rNums.map((x) => (forms.decimals !== null ? roundTo(x, forms.decimals) : roundSig(x, forms.sigFigs!)));
      // A reference that has the precision asked is read as before; one that lacks it is matched as written, `low`.
      if (!rounded.every((t, i) => close(t, rNums[i]!))) return { equal: true, asWritten: true };
    }
    const want = forms.decimals !== null ? `${forms.decimals} decimal place(s)` : `${forms.sigFigs} significant figure(s)`;
    // Places count in the number as written: 66.7% has one, whether or not the other side has a % sign.
    if (user.percent && ref.percent) [uNums, rNums] = [[valueOf(user.expr)], [valueOf(ref.expr)]];
    else if (ref.percent) rNums = [valueOf(ref.expr)];
    else if (user.percent && !percentSlip) uNums = [valueOf(user.expr)];
    const target = rNums.map((x) => (forms.decimals !== null ? roundTo(x, forms.decimals) : roundSig(x, forms.sigFigs!)));
    const valueOk = uNums.some((u) => target.some((t) => close(u, t)));
    // Exactly as many places or figures as asked: 5.280 is written to 3 places, not 2.
    const [few, many] = sigFigsOf(user.literal);
    const has = forms.decimals !== null ? `${decimalsOf(user.literal)} decimal place(s)` : few === many ? `${few} significant figure(s)` : `${few} to ${many} significant figures`;
    const written = forms.decimals !== null ? decimalsOf(user.literal) === forms.decimals : few <= forms.sigFigs! && forms.sigFigs! <= many;
    if (valueOk && written) return { equal: true };
    // "90.88%" for 0.9088 to 4 d.p.: the places asked, kept through a percentage (two fewer); a
    // teacher may take it: refused, `low` (tuned on G).
    const kept = forms.decimals !== null && user.percent && !ref.percent && decimalsOf(user.literal) + 2 === forms.decimals;
    if (valueOk) return { equal: false, formOnly: true, unsure: kept, why: `it is written with ${has}, and the question asks for ${want}${kept ? ' (as a percentage, the same places of the value)' : ''}` };
    if (percentSlip && target.some((t) => close(valueOf(user.expr), t))) return { equal: false, why: PERCENT_SLIP(user) };
    return { equal: false, why: `rounded to ${want} the value is ${target[0]}` };
  }
  if (uNums.some((u) => rNums.some((r) => close(u, r)))) {
    // Floats agree; where both sides are exact numbers without units the exact values decide
    // (2^60 and 2^60 + 1 are one float).
    if (user.unit || ref.unit) return { equal: true };
    return { equal: exactVerdict(user, ref, uExpr, rExpr, forms) !== false };
  }
  if (percentSlip && rNums.some((r) => close(valueOf(user.expr), r))) return { equal: false, why: PERCENT_SLIP(user) };
  // A decimal approximation of an irrational or repeating value, good to the places it gives.
  // A percentage's places are two more of the value's: 33.3% is 0.333.
  const d = decimalsOf(user.literal) + (user.percent && !ref.percent ? 2 : 0);
  const refWritten = decimalsOf(ref.literal);
  if (!forms.exact && isDecimalLiteral(user.literal) && d >= 2 && refWritten !== d) {
    const near = (u: number, r: number) => (needsRounding(r) || refWritten >= 4) && Math.abs(u - r) <= 0.5 * 10 ** -d * (1 + 1e-9);
    if (uNums.some((u) => rNums.some((r) => near(u, r)))) return { equal: true, rounded: true };
  }
  return { equal: false };
}

function compare(user: Answer, ref: Answer, forms: Forms): Verdict {
  if (ref.kind === 'matrix') return compareMatrix(user, ref, (u, r) => compareValues(u, r, forms).equal);
  if (user.kind === 'matrix') return { equal: false, why: `it is a ${shape(user)} matrix` };
  if (ref.kind === 'intervals') return { equal: user.kind === 'intervals' && sameIntervals(user, ref) };
  if (ref.kind === 'equation') {
    if (user.kind === 'equation') {
      const u = parse(user.text);
      const r = parse(ref.text);
      return { equal: !!u && !!r && same(u, r) };
    }
    // "2x + 1" for "y = 2x + 1": the right side of an explicit equation.
    const rhs = /^[a-zA-Z]$/.test(ref.lhs) ? readLike(ref.rhs, { kind: 'value' } as Value, false) : null;
    return user.kind === 'value' && rhs?.kind === 'value' ? compareValues(user, rhs, forms) : { equal: false };
  }
  if (ref.kind === 'value') return user.kind === 'value' ? compareValues(user, ref, forms) : { equal: false };
  return { equal: false };
}

function gcdInt(a: number, b: number): number {
  return b === 0 ? a : gcdInt(b, a % b);
}

function result(score: number, met: string[], missed: string[], explanation: string): GradeResult {
  // Decided by the CAS (equality, or a form the question demands): checkable.
  return { score, max_score: 1, method: 'math', met, missed, explanation, confidence: 'high', needs_review: false };
}

function describe(r: Answer): string {
  if (r.kind === 'matrix') return showMatrix(r);
  if (r.kind === 'intervals') return r.pieces.map(showInterval).join(' ∪ ');
  if (r.kind === 'equation') return r.text;
  if (r.kind === 'solutions') {
    const list = r.parts.map((p) => (p.variable ? `${p.variable} = ${p.value.literal}` : p.value.literal)).join(', ');
    return r.tuple && !r.ratio ? `(${list})` : list;
  }
  return `${r.literal}${r.percent ? '%' : ''}${r.unit ? ` ${r.unit.text}` : ''}`;
}

function gradeSolutions(user: Answer, ref: Solutions, forms: Forms, userAnswer: string, reference: string, statement = ''): GradeResult {
  const userSol: Solutions | null = user.kind === 'solutions' ? user : user.kind === 'value' ? { kind: 'solutions', parts: [{ variable: null, value: user }], tuple: false } : null;
  if (!userSol) {
    const why = user.kind === 'matrix' ? `${describe(user)} is a ${shape(user)} matrix, not a list of values` : `"${userAnswer}" could not be read as a list of solutions`;
    return result(0, [], [reference], `${why}. The expected answer is ${reference}.`);
  }
  const vars = [...new Set(ref.parts.map((p) => p.variable).filter((v): v is string => v !== null))].sort();
  let parts = userSol.parts;
  // An ordered pair or bare values for a system: the variables in alphabetical order.
  if (vars.length > 1 && parts.every((p) => p.variable === null) && parts.length === vars.length) parts = parts.map((p, i) => ({ ...p, variable: vars[i] }));
  if (ref.parts.length === 0 || parts.length === 0) {
    const ok = ref.parts.length === parts.length;
    return ok ? result(1, [reference], [], `Correct: there is no solution.`) : result(0, [], [reference], ref.parts.length === 0 ? `There is no solution, but the answer gives ${describe(userSol)}.` : `The answer says there is no solution; expected ${reference}.`);
  }
  if (ref.ratio) {
    // A ratio is equal when proportional; in simplest form its terms are whole numbers with no common factor.
    const u = parts.map((p) => valueOf(p.value.expr));
    const r = ref.parts.map((p) => valueOf(p.value.expr));
    const k = u[0] / r[0];
    const ok = userSol.ratio === true && u.length === r.length && Number.isFinite(k) && k !== 0 && u.every((x, i) => close(x, k * r[i]));
    const lowest = u.every(Number.isInteger) && u.reduce((g, x) => gcdInt(g, Math.abs(x)), 0) === 1;
    if (ok && forms.simplest && !lowest) return result(0, [], [reference], `${userAnswer.trim()} is the same ratio, but not in simplest form. The expected answer is ${reference}.`);
    return ok ? result(1, [reference], [], `Correct: ${userAnswer.trim()} is the ratio ${reference}.`) : result(0, [], [reference], `${userAnswer.trim()} is not the ratio ${reference} (the order of the terms matters).`);
  }
  // "(2, 1)" for an ordered pair reference: position matters.
  if (ref.tuple && userSol.tuple && vars.length === 0) {
    const ok = parts.length === ref.parts.length && parts.every((p, i) => compareValues(p.value, ref.parts[i].value, forms).equal);
    return ok ? result(1, [reference], [], `Correct: ${describe(userSol)} is ${reference}.`) : result(0, [], [reference], `${describe(userSol)} is not the expected ${reference}.`);
  }
  const used = new Set<number>();
  const order: number[] = [];
  const met: string[] = [];
  const missed: string[] = [];
  const label = (p: Solutions['parts'][number]) => (p.variable ? `${p.variable} = ${p.value.literal}` : p.value.literal);
  for (const rp of ref.parts) {
    const idx = parts.findIndex((up, i) => !used.has(i) && (up.variable === rp.variable || up.variable === null || rp.variable === null) && compareValues(up.value, rp.value, forms).equal);
    if (idx >= 0) {
      used.add(idx);
      order.push(idx);
      met.push(label(rp));
    } else missed.push(label(rp));
  }
  const extras = parts.filter((_, i) => !used.has(i)).map(label);
  // A wrong value in place of a right one only misses; solutions beyond the expected number
  // (guessing) cancel one correct solution each.
  const surplus = Math.max(0, parts.length - ref.parts.length);
  const score = Math.round((Math.max(0, met.length - surplus) / ref.parts.length) * 100) / 100;
  const bits: string[] = [`${met.length} of ${ref.parts.length} solution(s) correct`];
  if (met.length) bits.push(`found ${met.join(', ')}`);
  if (missed.length) bits.push(`missing ${missed.join(', ')}`);
  if (extras.length) bits.push(`wrong: ${extras.join(', ')}${surplus ? ` (${surplus} more than expected, each cancelling one correct solution)` : ''}`);
  const graded = result(score, met, [...missed, ...extras.map((e) => `${e} is not a solution`)], `${bits.join('; ')}. Expected ${reference}.`);
  // Surd form asked ("in surd form", "simplest radical form"; "exact" alone asks less): a root left with a square factor is
  // not yet that form; a teacher may still take it: `low` (tuned on I).
  const rough = score === 1 && SURD_FORM.test(statement) ? parts.map((p) => unsimplifiedRoot(p.value.literal)).find((w) => w !== null) : null;
  if (rough) return low(result(0, [], [reference], `${userAnswer.trim()} has the right values, but ${rough}: the question asks for an exact (surd) form. Expected ${reference}.`));
  // Values with no variable named, right as a set but listed in another order than the reference's:
  // the order may be what the question asks ("share in the ratio 2:3:4"); `low` (tuned on E).
  const reordered = order.some((idx, i) => i > 0 && idx < order[i - 1]!);
  // The question asks for an order ("in order from smallest to largest"): the order is the answer,
  // another one a sure refusal (tuned on F).
  if (reordered && score === 1 && ORDER_ASKED.test(statement)) return result(0, [], [reference], `${userAnswer.trim()} has the right values, but not in the order the question asks for. Expected ${reference}.`);
  // The roots of an equation the question asks to solve are a set: no order is asked (tuned on G).
  return reordered && parts.every((p) => p.variable === null) && !SOLVE_EQUATION.test(statement) ? low(graded) : graded;
}

/** A question asking for surds simplified: "surd form", "simplest surd (radical) form", "simplified surds". */
const SURD_FORM = /\bsurd form\b|\bsimplest\s+(?:surd|radical)\s+form\b|\bsimplified\s+surds?\b|\bsimplif\w*\s+(?:the\s+)?surds?\b/i;

/** A question asking for the solutions of an equation it writes ("Solve sin x = 0.5 for …", "Find the roots of x² − 4 = 0"). */
const SOLVE_EQUATION = /\b(?:solve|roots?\s+of|solutions?\s+(?:of|to))\b[^.?!]*=/i;

/** A question that asks for an order: the order of a list is then what is marked. */
const ORDER_ASKED = /\bin (?:ascending|descending|increasing|decreasing|size|numerical) order\b|\bin order\b|\bfrom (?:smallest|largest|lowest|highest|least|greatest|coldest|warmest|shortest|longest|biggest)\b|\b(?:ascending|descending) order\b/i;

const NEGATION = /\b(?:not|no|never|isn't|wasn't|aren't|doesn't|didn't)\b|n't\b/i;

/**
 * The one number in a sentence ("It ended in 1945", "about 12 km away"), with the unit after it.
 * Two different numbers, or a negation, and the sentence is not read as a value.
 */
/**
 * "42 I believe", "7 a day": the word after a number is read as its unit unless it is a filler word
 * of prose (the pronoun I is no imaginary unit; the ampere keeps its capital A).
 */
function withoutFillerWord(hit: string): string {
  const m = /\s+([a-zA-Z]+)$/.exec(hit);
  return m && m[1] !== 'A' && FILLER.has(m[1]!.toLowerCase()) ? hit.slice(0, m.index) : hit;
}

function numberInProse(text: string): Value | null {
  if (NEGATION.test(text)) return null;
  const hits = [...text.matchAll(/[$€£]?\s*-?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?(?:\s*(?:%|[a-zA-Z°/^23]+(?:\s+per\s+[a-z]+)?))?/g)].map((m) => withoutFillerWord(m[0].trim()));
  const values = hits.map((h) => readValue(h) ?? readValue(h.replace(/\s*[a-zA-Z°/^23\s]+$/, ''))).filter((v): v is Value => v !== null);
  const distinct = new Set(values.map((v) => `${valueOf(v.expr)}${v.unit?.dim ?? ''}`));
  return distinct.size === 1 ? values[0] : null;
}

/**
 * For a solution-type reference, the part of an answer that states the solutions: what follows
 * the last "so / therefore / ⇒ / the answer is", else the trailing "x = value" parts of a chain of
 * equations ("4x = 8, x = 2"). Null when the answer is not written that way.
 */
function concluded(userAnswer: string, ref: Solutions, allowUnits: boolean): string | null {
  const tail = afterConclusion(userAnswer);
  if (tail !== null) {
    const text = normalizeMath(tail);
    const read = text.length <= MAX_MATH_CHARS ? (readLike(text, ref, allowUnits) ?? readLike(normalizeMath(spokenMath(tail)), ref, allowUnits)) : null;
    // A check after "so" ("x = 4, so 2x = 8") is no statement of the solutions.
    if (read?.kind === 'solutions' || (read?.kind === 'value' && parse(read.expr)?.getVars().length === 0)) return tail;
  }
  // Working on separate lines is a chain too.
  return trailingSolutions(normalizeMath(userAnswer.replace(/\s*[\r\n]+\s*/g, '; ')));
}

/**
 * Grades a mathematical answer. Work the CAS is not asked to do (past the bounds of bounds.ts, or
 * a comparison that only overflowed values could decide) gives no credit and asks for a review,
 * naming the limit.
 */
export function gradeMath(userAnswer: string, reference: string, statement = '', scheme = ''): GradeResult {
  try {
    return gradeMathWithin(userAnswer, reference, statement, scheme);
  } catch (err) {
    if (!(err instanceof CasLimitError)) throw err;
    return { ...result(0, [], [reference], `The answer could not be checked by the CAS: ${err.message}. A teacher should review it; the expected answer is ${reference}.`), confidence: 'low', needs_review: true };
  }
}

function gradeMathWithin(userAnswer: string, reference: string, statement: string, scheme: string): GradeResult {
  const forms = readForms(statement, scheme);
  const fail = (why: string) => result(0, [], [reference], `${why} The expected answer is ${reference}.`);
  const set = gradeSet(userAnswer, reference);
  if (set) return set;
  const points = gradePoints(userAnswer, reference, statement, scheme);
  if (points) return points;
  // "r = (1, 2) + t(3, −1)" for "r = (i + 2j) + t(3i − j)": one line in any writing of its vectors (tuned on H).
  const line = sameVectorLine(userAnswer, reference);
  if (line !== null) return line ? result(1, [reference], [], `Correct: ${userAnswer.trim()} is the same line as ${reference}.`) : fail(`${userAnswer.trim()} is another line than ${reference}.`);
  const params = parametersOfForm(userAnswer, reference, statement);
  if (params) {
    const g = gradeMathWithin(params, reference, statement, scheme);
    return { ...g, explanation: `${userAnswer.trim()} gives ${params} in the form the question asks for. ${g.explanation}` };
  }
  // A numeral with another base written than the reference's ("10201₁₀" for "10201₃") is another number (tuned on H).
  const refBase = baseOf(reference);
  const userBase = baseOf(userAnswer);
  if (refBase !== null && userBase !== null && refBase !== userBase) return fail(`${userAnswer.trim()} is written in base ${userBase}, not base ${refBase}.`);
  // "y = Ce^(2x)" for "y = Ae^(2x)": arbitrary constants named by other letters are renamed (tuned on H).
  const refConstants = constantsOf(normalizeMath(reference), statement);
  const userConstants = constantsOf(normalizeMath(userAnswer), statement);
  if (refConstants.length > 0 && userConstants.length === refConstants.length && userConstants.some((c, i) => c !== refConstants[i])) {
    const renamed = renameConstants(normalizeMath(userAnswer), userConstants, refConstants);
    const g = gradeMathWithin(renamed, reference, statement, scheme);
    return { ...g, explanation: `${userAnswer.trim()} names its arbitrary constant${userConstants.length > 1 ? 's' : ''} differently. ${g.explanation}` };
  }
  let stated = userAnswer;
  // "30 newton metres" for "30 N m": unit words as their symbols (tuned on H).
  let userText = normalizeMath(unitWordsAsSymbols(userAnswer));
  if (userText === '') return fail('No answer was given.');
  // "in 1989", "about 40": a preposition before the reference's number is prose, as in an answer.
  const ref = readAnyReference(normalizeMath(reference.replace(/^\s*(?:in|on|at|by|about|around|circa|approximately|roughly)\s+(?=[-$£€\d])/i, '')), forms.interval);
  // Single-letter units ("2 t", "5 m") only where the reference is a number: elsewhere they are variables.
  const refNumeric = ref?.kind === 'value' && (parse(ref.expr)?.getVars().length ?? 1) === 0;
  const allowUnits = refNumeric || ref?.kind === 'solutions';
  if (ref?.kind === 'solutions' && !ref.ratio) {
    stated = concluded(userAnswer, ref, allowUnits) ?? userAnswer;
    if (stated !== userAnswer) userText = normalizeMath(stated);
  }
  userText = withoutWorking(userText);
  const components = ref?.kind === 'solutions' ? unitVectorComponents(userAnswer) : null;
  if (components) userText = normalizeMath(components);
  // "8 square units", "12 units³": the unit of the axes, said of an area or a volume the question asks
  // for without a unit, is no unit (tuned on G).
  if (refNumeric && ref?.kind === 'value' && !ref.unit) userText = withoutAxesUnit(userText, statement);
  const spelled = numberFromWords(userText.replace(/[.!]$/, ''));
  if (spelled !== null) userText = String(spelled);
  if (userText.length > MAX_MATH_CHARS) return low(fail(`The answer is too long to be read as mathematics (at most ${MAX_MATH_CHARS} characters).`));
  if (!ref) return low(fail('The reference answer could not be read as mathematics, so the answer cannot be checked by the CAS.'));
  const spoken = normalizeMath(spokenMath(stated));
  let user = readAnswer(userText, ref, allowUnits);
  // Fallback readings (spoken mathematics, a number picked out of a sentence) are weaker evidence: the grade is `low`.
  let fallback = false;
  if (!user) {
    user = readAnswer(spoken, ref, allowUnits);
    fallback = user !== null && spoken !== userText;
  }
  // A number in a sentence ("in 1945"): kas would read the words as variables.
  // An expression in the question's own variables ("8x" where the question speaks of x) is no
  // sentence: the CAS reads it, and it is not the number asked (tuned on G).
  if (refNumeric && (!user || (user.kind === 'value' && (parse(user.expr)?.getVars().length ?? 0) > 0 && !inQuestionVariables(user, userText, statement)))) {
    const inProse = numberInProse(spoken);
    // "pH 7" asked the pH, "age 18" the age: a number beside the question's own words says nothing else.
    if (inProse) fallback = !onlyQuestionWords(userAnswer, statement);
    user = inProse ?? user;
  }
  const kind = ref.kind === 'intervals' ? 'an interval or inequality' : ref.kind === 'equation' ? 'an equation' : ref.kind === 'matrix' ? 'a matrix' : 'a mathematical expression';
  // "x = 2, x = 3" for "2 < x < 3": equalities, no inequality or interval, state boundary points, not a region (tuned on G).
  if (!user && ref.kind === 'intervals' && !/[<>≤≥[\]]|\binf|\bU\b|∪/.test(userText)) {
    const values = readSolutions(userText);
    if (values && values.parts.length > 0 && values.parts.every((p) => p.variable !== null)) return fail(`${userAnswer.trim()} gives values where equality holds, not the inequality's solution set.`);
  }
  if (!user) return low(fail(`"${userAnswer}" could not be read as ${kind}.`));
  const graded = decide(user, ref, forms, userAnswer, reference, userText, statement, fail);
  // A general solution (an equation with an arbitrary constant) refused when the answer, with one too,
  // is solved for something else: the constant may stand for another (ln|y| = 2x + c is y = Ae^(2x)
  // with A = e^c): `low`. Solved for the same thing ("y = Ae^(x/2)"), the refusal stays sure (tuned on H).
  const lhsOf = (t: string) => t.split('=')[0]!.replace(/\s+/g, '');
  if (ref.kind === 'equation' && refConstants.length > 0 && userConstants.length > 0 && graded.score < graded.max_score && lhsOf(userText) !== lhsOf(ref.text)) return low(graded);
  // "6 N s" for "6 kg m s⁻¹": equal once named SI units are written in base units. A teacher may
  // take the other unit or not (J for a moment in N m): the refusal is `low` (tuned on H).
  if (graded.score < graded.max_score && graded.confidence !== 'low' && sameInBaseUnits(userText, normalizeMath(reference))) {
    return low({ ...graded, explanation: `${graded.explanation} (In base units the answer equals the expected answer; the unit is written another way.)` });
  }
  return fallback ? low(graded) : graded;
}

/** Named SI units in base units, for sameInBaseUnits. */
const BASE_UNITS: [RegExp, string][] = [
  [/(?<![A-Za-z])N(?![A-Za-z])/g, '(kg*m*s^(-2))'],
  [/(?<![A-Za-z])J(?![A-Za-z])/g, '(kg*m^2*s^(-2))'],
  [/(?<![A-Za-z])W(?![A-Za-z])/g, '(kg*m^2*s^(-3))'],
  [/(?<![A-Za-z])Pa(?![A-Za-z])/g, '(kg*m^(-1)*s^(-2))'],
  [/(?<![A-Za-z])Hz(?![A-Za-z])/g, '(s^(-1))'],
];

/** A number with units, equal to another once named SI units (N, J, W, Pa, Hz) are written in base units. */
function sameInBaseUnits(a: string, b: string): boolean {
  if (!/^\s*[-+]?\d/.test(a) || !/^\s*[-+]?\d/.test(b) || !/[A-Za-z]/.test(a) || !/[A-Za-z]/.test(b)) return false;
  const expand = (t: string) => BASE_UNITS.reduce((x, [re, base]) => x.replace(re, base), t).replace(/(\d)\s*\(/g, '$1*(').replace(/\)\s*(?=[a-z(])/gi, ')*').replace(/([a-z])\s+(?=[a-z(])/gi, '$1*').replace(/(\d)\s+(?=[a-z])/gi, '$1*');
  const x = parse(expand(a));
  const y = parse(expand(b));
  const named = BASE_UNITS.some(([re]) => new RegExp(re.source).test(a) || new RegExp(re.source).test(b));
  return named && x !== null && y !== null && same(x, y);
}

/**
 * The arbitrary constants of a text, in order of first appearance: a letter A, B, C, D or K (or c, k)
 * standing alone, not the start of a word (cos), that the question does not write.
 */
function constantsOf(text: string, statement: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(CONSTANT)) {
    const c = m[1] ?? m[2]!;
    if (!out.includes(c) && !new RegExp(`(?<![A-Za-z])${c}(?![A-Za-z])`).test(statement)) out.push(c);
  }
  return out;
}
const CONSTANT = /(?<![A-Za-z])(?:([ABCDK])(?![A-Za-z]{2})|([ck])(?:(?![A-Za-z])|(?=e\^)))/g;

function renameConstants(text: string, from: string[], to: string[]): string {
  return text.replace(CONSTANT, (m: string, a?: string, b?: string) => {
    const i = from.indexOf((a ?? b)!);
    return i >= 0 ? to[i]! : m;
  });
}

const COMPONENT = String.raw`([-+−]?\s*(?:\d+(?:\.\d+)?(?:\s*/\s*\d+)?)?)`;
const UNIT_VECTORS = new RegExp(String.raw`^\s*${COMPONENT}\s*\*?\s*i\s*${COMPONENT.replace('[-+−]?', '[-+−]')}\s*\*?\s*j(?:\s*${COMPONENT.replace('[-+−]?', '[-+−]')}\s*\*?\s*k)?\s*$`);

/**
 * "12i − 6j" for the column vector (12, −6): i, j (and k) unit vectors as the components of a
 * pair, only where the reference is a list of values (a complex "7 + i" has no j). Tuned on D.
 */
function unitVectorComponents(answer: string): string | null {
  const m = UNIT_VECTORS.exec(answer);
  if (!m) return null;
  const part = (c: string | undefined) => {
    const t = (c ?? '').replace(/\s+/g, '').replace('−', '-');
    return t === '' || t === '+' ? '1' : t === '-' ? '-1' : t.replace(/^\+/, '');
  };
  return `(${[m[1], m[2], ...(m[3] !== undefined ? [m[3]] : [])].map(part).join(', ')})`;
}

/**
 * "12 (15/100 * 80)": a number followed by the working that gives it, in brackets, is that number.
 * Only when the bracket holds arithmetic of numbers whose value is the number; "2 (x + 1)" stays a product.
 */
function withoutWorking(text: string): string {
  const m = /^(-?\d+(?:\.\d+)?)\s+\(([\d\s.+\-*/^()]+)\)$/.exec(text);
  if (!m || !/[+\-*/^]/.test(m[2]!)) return text;
  const inner = parse(m[2]!);
  return inner && inner.getVars().length === 0 && Math.abs(valueOf(m[2]!) - Number(m[1])) <= 1e-9 * Math.max(1, Math.abs(Number(m[1]))) ? m[1]! : text;
}

/** Whether every word of the answer but its numbers is a word of the question (any form) or a filler word. */
function onlyQuestionWords(answer: string, statement: string): boolean {
  const q = questionWords(statement);
  const words = wordsOf(answer).filter((x) => /\p{L}/u.test(x.w));
  return words.length > 0 && words.every((x) => FILLER.has(x.w) || [...lemmas(x.w)].some((l) => q.has(l)));
}

/** "{a, b, c}": a set in braces, its elements split at top-level commas or semicolons. */
function setElements(text: string): string[] | null {
  const m = /^\s*\{([^{}]*)\}\s*$/.exec(text);
  if (!m) return null;
  return m[1]!.trim() === '' ? [] : m[1]!.split(/[,;]/).map((e) => normalizeMath(e).replace(/\s+/g, ''));
}

/** An element the grader reads surely: a letter, a whole or decimal number. */
const PLAIN_ELEMENT = /^(?:[a-zA-Z]|-?\d+(?:\.\d+)?)$/;

/**
 * Answer and reference both written as sets in braces: a set has no order and no repeats
 * (`{d, c, b, a}`, `{a, b, c, c, d}` are `{a, b, c, d}`), so the same elements are sure; other
 * elements are a sure refusal when every element is a letter or a number, else the usual reading
 * decides (tuned on F).
 */
function gradeSet(userAnswer: string, reference: string): GradeResult | null {
  const [u, r] = [setElements(userAnswer), setElements(reference)];
  if (!u || !r) return null;
  const sameElement = (a: string, b: string) => a === b || (/^-?[\d.]+$/.test(a) && /^-?[\d.]+$/.test(b) && Number(a) === Number(b));
  const [us, rs] = [[...new Set(u)], [...new Set(r)]];
  const equal = us.length === rs.length && us.every((a) => rs.some((b) => sameElement(a, b)));
  if (equal) return result(1, [reference], [], `Correct: ${userAnswer.trim()} is the set ${reference} (a set has no order and no repeats).`);
  if ([...us, ...rs].every((e) => PLAIN_ELEMENT.test(e))) return result(0, [], [reference], `${userAnswer.trim()} is not the set ${reference}.`);
  return null;
}

/** A value written with no word and no "=" (an equation may give the value in its form: "y = 4x" for k), whose letters are all variables the question writes as single letters. */
function inQuestionVariables(user: Value, text: string, statement: string): boolean {
  if (text.includes('=') || /[a-zA-Z]{2,}/.test(text.replace(/\b(?:sqrt|pi|ln|log|sin|cos|tan)\b/g, ''))) return false;
  const vars = parse(user.expr)?.getVars() ?? [];
  return vars.length > 0 && vars.every((v) => v.length === 1 && !findUnit(v) && new RegExp(`(?<![a-zA-Z])${v}(?![a-zA-Z])`).test(statement));
}

/** "8 square units", "8 sq. units", "8 units^2" (and cubic): a number, then the unit of the axes squared or cubed. */
const AXES_UNIT = /^(.*(?:[\d)π]|pi))\s*(?:(square|sq\.?|cubic|cu\.?)\s+units?|units?\s*(?:\^\s*([23])|([²³])))\s*\.?$/i;

/** The number alone when an area (volume) is asked and the answer gives it in square (cubic) units of the axes. */
function withoutAxesUnit(text: string, statement: string): string {
  const m = AXES_UNIT.exec(text.trim());
  if (!m) return text;
  const cubic = /^cu/i.test(m[2] ?? '') || m[3] === '3' || m[4] === '³';
  return (cubic ? /\bvolumes?\b/i : /\bareas?\b/i).test(statement) ? m[1]!.trim() : text;
}

/** A point written as a bracketed pair of values: "(1, −2)". */
const POINT = /^\(\s*([^(),]+?)\s*,\s*([^(),]+?)\s*\)$/;
/** A point written as its coordinates named: "x = 1, y = −2". */
const NAMED_POINT = /^x\s*=\s*([^,;=]+?)\s*[,;]?\s*(?:and\s+)?y\s*=\s*([^,;=]+?)$/i;

/**
 * "(1, −2) and (−1, 2)", "(1, −2), (−1, 2)", "x = 1, y = −2 and x = −1, y = 2": the points a text
 * lists (at least `least`), each as "(a, b)", or null when it is not only such a list.
 */
function pointsOf(text: string, least: number): string[] | null {
  const t = normalizeMath(text).replace(/[.]$/, '').trim();
  const parts = t.split(/\s*(?:;|\band\b|&)\s*|(?<=\))\s*,\s*(?=\()/i).map((p) => p.trim()).filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    const m = POINT.exec(p) ?? NAMED_POINT.exec(p);
    if (!m) return null;
    out.push(`(${m[1]}, ${m[2]})`);
  }
  return out.length >= least ? out : null;
}

/**
 * A reference that lists two points or more ("the stationary points are (1, −2) and (−1, 2)"): the
 * points are a set, each compared as an ordered pair by the CAS, in any order unless the question
 * asks for one. Sure either way when every point of both sides is read; x-values alone without the
 * points are a sure refusal (tuned on G).
 */
function gradePoints(userAnswer: string, reference: string, statement: string, scheme: string): GradeResult | null {
  const refPoints = pointsOf(reference, 2);
  if (!refPoints) return null;
  const userPoints = pointsOf(userAnswer, 1);
  if (!userPoints) {
    // "x = 1, x = −1" or "1, −1": values alone, no point given.
    const values = readSolutions(normalizeMath(userAnswer));
    if (values && values.parts.length > 0 && !values.tuple && new Set(values.parts.map((p) => p.variable)).size === 1) {
      return result(0, [], [reference], `${userAnswer.trim()} gives values, not the points. The expected answer is ${reference}.`);
    }
    return null;
  }
  const used = new Set<number>();
  const order: number[] = [];
  let sure = true;
  for (const rp of refPoints) {
    const idx = userPoints.findIndex((up, i) => !used.has(i) && gradeMathWithin(up, rp, statement, scheme).score === 1);
    if (idx < 0) continue;
    used.add(idx);
    order.push(idx);
    if (gradeMathWithin(userPoints[idx]!, rp, statement, scheme).confidence !== 'high') sure = false;
  }
  // A point left unmatched is surely wrong only when the CAS reads it as surely as the reference's.
  if (userPoints.some((up, i) => !used.has(i) && refPoints.some((rp) => gradeMathWithin(up, rp, statement, scheme).confidence !== 'high'))) sure = false;
  const all = used.size === refPoints.length && userPoints.length === refPoints.length;
  const reordered = order.some((idx, i) => i > 0 && idx < order[i - 1]!);
  if (all && reordered && ORDER_ASKED.test(statement)) return result(0, [], [reference], `${userAnswer.trim()} has the right points, but not in the order the question asks for. Expected ${reference}.`);
  const graded = all
    ? result(1, [reference], [], `Correct: ${userAnswer.trim()} gives the points ${reference} (in any order).`)
    : result(0, [], [reference], `${userAnswer.trim()} does not give the points ${reference}: ${used.size} of ${refPoints.length} right${userPoints.length > refPoints.length ? `, ${userPoints.length - used.size} not a point asked` : ''}.`);
  return sure ? graded : low(graded);
}

/**
 * "a = 3, b = −7" for "write … in the form (x + a)² + b": the values of the form's letters, put into
 * the form the question gives, are the answer the CAS then checks (tuned on F). Only letters of the
 * form that the reference does not use, every one of them given.
 */
function parametersOfForm(userAnswer: string, reference: string, statement: string): string | null {
  const form = /\bin the form\s+\$?([^.?:;$]+?)\$?\s*(?:[.?:;]|$)/i.exec(statement)?.[1];
  if (!form) return null;
  const pairs = userAnswer.split(/\s*(?:,|;|\band\b)\s*/).map((p) => /^\s*([a-zA-Z])\s*=\s*([-+−]?[\d./√]+)\s*$/.exec(p));
  if (!pairs.length || pairs.some((p) => !p)) return null;
  const values = new Map(pairs.map((p) => [p![1]!, p![2]!.replace('−', '-')] as const));
  const refLetters = new Set(reference.match(/[a-zA-Z]/g) ?? []);
  // A letter of the form alone, or a coefficient before the reference's own letters ("b" of "bi", of "bx"; tuned on H).
  const letterOf = (tok: string) => (tok.length === 1 || [...tok.slice(1)].every((c) => refLetters.has(c)) ? tok[0]! : null);
  const formLetters = new Set((form.match(/[a-zA-Z]+/g) ?? []).map(letterOf).filter((l): l is string => l !== null && !refLetters.has(l)));
  if (formLetters.size === 0 || formLetters.size !== values.size || [...values.keys()].some((l) => !formLetters.has(l))) return null;
  return form
    .replace(/[a-zA-Z]+/g, (tok) => {
      const l = letterOf(tok);
      return l !== null && values.has(l) ? `(${values.get(l)})${tok.length > 1 ? `*${tok.slice(1)}` : ''}` : tok;
    })
    .trim();
}

/** A grade decided by weaker evidence than the CAS's: `low`, for a teacher to review. */
function low(g: GradeResult): GradeResult {
  return { ...g, confidence: 'low', needs_review: true };
}

function decide(user: Answer, ref: Answer, forms: Forms, userAnswer: string, reference: string, userText: string, statement: string, fail: (why: string) => GradeResult): GradeResult {
  if (ref.kind === 'solutions') return gradeSolutions(user, ref, forms, userAnswer, reference, statement);
  // "(5+3)*(4-2)" for "(5 + 3) × (4 − 2) = 30": a reference that is a true statement of numbers,
  // answered by an expression of numbers with its value: the expression without "= 30" may be
  // what is asked; `low` (tuned on F).
  if (ref.kind === 'equation' && user.kind === 'value' && /[-+*/^]/.test(user.expr.replace(/^-/, ''))) {
    const numeric = (t: string) => (parse(t)?.getVars().length ?? 1) === 0;
    if ([ref.lhs, ref.rhs, user.expr].every(numeric) && [ref.lhs, ref.rhs].some((side) => close(valueOf(side), valueOf(user.expr)))) {
      return low(result(1, [reference], [], `Correct: ${userAnswer.trim()} is the expression of ${reference}, without its value; please review.`));
    }
  }

  // A bound on a function's value ("g(x) ≥ 2", a range) answered by the same bound on its argument ("x ≥ 2"):
  // the answer bounds the input, another set (tuned on I, with reading "g(x) ≥ 2" as an inequality).
  if (user.kind === 'intervals' && ref.kind === 'intervals') {
    const output = /^\s*[a-z]\s*\(\s*([a-z])\s*\)\s*(?:<=|>=|<|>|≤|≥)/i.exec(reference);
    if (output && new RegExp(`^\\s*${output[1]}\\s*(?:<=|>=|<|>|≤|≥)`, 'i').test(userAnswer)) return fail(`${userAnswer.trim()} bounds ${output[1]}, the input; the question's answer bounds the function's value.`);
  }
  const verdict = compare(user, ref, forms);
  if (verdict.formOnly) return verdict.unsure ? low(fail(`${describe(user)} has the right value, but ${verdict.why}.`)) : fail(`${describe(user)} has the right value, but ${verdict.why}.`);
  if (!verdict.equal) {
    const why = verdict.why ? ` (${verdict.why})` : '';
    return fail(`${describe(user)} is not equal to the expected answer${why}.`);
  }
  const problem = user.kind === 'matrix' || ref.kind === 'matrix' ? null : formProblem(forms, user, ref, userText);
  // Intervals as written, since the form is what is wrong.
  if (problem) {
    const refused = fail(`${user.kind === 'intervals' ? userAnswer.trim() : describe(user)} has the right value, but ${problem}.`);
    // "√25" for 5 where the question demands no form: a teacher may accept it; `low` (tuned on F).
    return problem.includes('not worked out') && !forms.simplest && !forms.exact ? low(refused) : refused;
  }
  // "sqrt(8)" for "the exact value of sqrt(8)", "7 × 8" for "What is 7 × 8?": the question's own expression is not its answer.
  const squeeze = (t: string) => normalizeMath(t).replace(/\s+/g, '');
  const said = squeeze(userAnswer);
  if (/[-+*/^()]|sqrt|log|sin|cos|tan/.test(said.replace(/^-/, '')) && said !== squeeze(reference) && squeeze(statement).includes(said)) {
    return fail(`${userAnswer.trim()} repeats the expression the question gives; it asks for its value.`);
  }
  const how = verdict.rounded ? ' (a correct rounding)' : user.kind === 'equation' ? ' (the same equation rearranged)' : '';
  const accepted = result(1, [reference], [], `Correct: ${userAnswer.trim()} is equivalent to ${reference}${how}.`);
  // A reference written as a product of whole numbers ("2³ × 3") is a way of writing the value, not
  // the value: the same factors are sure; other factors of the same value are refused when the
  // question asks for primes and one is not prime, or for index form and a factor repeats; else `low` (tuned on E).
  // Standard form ("6 × 10^9") is not such a product: demanded-forms rules read it.
  const refFactors = integerFactors(squeeze(reference))?.filter((f) => f.base !== 10 || f.power === 1) ?? null;
  if (refFactors && refFactors.length === integerFactors(squeeze(reference))!.length) {
    const userFactors = integerFactors(said);
    if (userFactors && sameFactors(userFactors, refFactors)) return accepted;
    if (userFactors && /\bprimes?\b/i.test(statement) && userFactors.some((f) => !isPrime(f.base))) {
      return fail(`${userAnswer.trim()} has the right value, but ${userFactors.find((f) => !isPrime(f.base))!.base} is not a prime.`);
    }
    if (userFactors && /\bindex\b|\bpowers?\b/i.test(statement) && new Set(userFactors.map((f) => f.base)).size < userFactors.length) {
      return fail(`${userAnswer.trim()} has the right value, but the question asks for index form (a repeated factor written as a power).`);
    }
    return low(accepted);
  }
  // An exact reference (π, a root, a logarithm) met only by a rounding the question did not ask
  // for: the question may want the exact form; `low` (tuned on E).
  if (verdict.rounded && IRRATIONAL.test(reference)) return low(accepted);
  // Any reference met only by a rounding the question did not ask for, to fewer significant figures
  // than CONFIDENCE.roundingFigures ("0.13" for 2/15): too coarse to be sure a teacher takes it; `low` (tuned on G).
  if (verdict.rounded && user.kind === 'value' && sigFigsOf(user.literal)[1] < CONFIDENCE.roundingFigures) return low(accepted);
  if (verdict.asWritten) return low(result(1, [reference], [], `Correct: ${userAnswer.trim()} is the expected answer as written, though the question asks for a precision it does not have; please review.`));
  return accepted;
}

/** A reference written with an irrational constant or function (a fraction is no such form: 33.3% for 1/3 is a fair answer). */
const IRRATIONAL = /π|\\pi|\bpi\b|√|sqrt|\\sqrt|\blog|\bln\b|\be\^/i;

interface Factor {
  base: number;
  power: number;
}

/** "2^3*3" as [{2, 3}, {3, 1}]: a product of two or more whole-number factors (powers allowed), else null. */
function integerFactors(squeezed: string): Factor[] | null {
  const parts = squeezed.split('*');
  if (parts.length < 2 && !/\^/.test(squeezed)) return null;
  const out: Factor[] = [];
  for (const p of parts) {
    const m = /^(\d+)(?:\^(\d+))?$/.exec(p);
    if (!m) return null;
    out.push({ base: Number(m[1]), power: m[2] === undefined ? 1 : Number(m[2]) });
  }
  return out;
}

/** The same factors in any order, a power counted as its repeated base (2^3 = 2*2*2). */
function sameFactors(a: Factor[], b: Factor[]): boolean {
  const key = (fs: Factor[]) => fs.flatMap((f) => Array<number>(f.power).fill(f.base)).sort((x, y) => x - y).join('*');
  const power = (fs: Factor[]) => fs.some((f) => f.power > 1);
  // Index form and a repeated factor are two ways of writing: the same only when both use powers or neither does.
  return key(a) === key(b) && power(a) === power(b);
}

function isPrime(n: number): boolean {
  if (!Number.isInteger(n) || n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}
