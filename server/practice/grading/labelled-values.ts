/**
 * "Labelled values" (tuned on H): a reference that is several values, each with a label or a
 * comparison word of its own ("mean = 5, standard deviation = 2", "centre (2, −3), radius 5",
 * "below 0 or above 32", "P = 13 at (3, 2)"), is no term and no single expression: the term matcher
 * read its numbers as a numbered term's and the CAS could not read the words. It is graded value by
 * value: every value of the answer put beside the reference's value of the same label (or, with no
 * label that tells, of the same place), numbers compared exactly (24/5 is 4.8), points entry by
 * entry, a comparison ("x < 0", "below 0") in the reference's direction.
 *
 * - The same values, labels the reference's own words (or their initials or starts: "sd", "var", "r")
 *   or none, in the reference's order: sure.
 * - The same values under labels the grader cannot read ("sd", "σ", "r") or in another order with
 *   no label saying so: accepted, `low`.
 * - A value other than the reference's, or one missing, when every value was read: a sure refusal;
 *   a value that rounds to the reference's (or the reverse): `low`.
 * - An answer with more values than the reference (working), none, or a number the reader does not
 *   take as a plain value (a power, a root, π, a percentage, a digit joined to a letter): not this
 *   rule's; the grader goes on as before.
 */
import type { GradeResult } from '../types.ts';
import { referenceVerdict } from './verdict.ts';

type Dir = '<' | '>' | '';
interface Part {
  /** The value: one number, or a point's numbers. */
  nums: number[];
  /** The label's tokens: words, Greek letters one by one, operators. */
  label: Set<string>;
  dir: Dir;
  /** A comparison written with a sign: whether it includes its bound (≤, ≥, <=, >=); null without a sign. */
  closed: boolean | null;
  raw: string;
}

const NUM = String.raw`[-−–]?\s?\d+(?:\.\d+)?(?:\s?\/\s?\d+(?:\.\d+)?)?`;
const POINT = new RegExp(String.raw`\(\s*(${NUM})\s*,\s*(${NUM})\s*(?:,\s*(${NUM})\s*)?\)`, 'g');
const NUMBER = new RegExp(String.raw`(?<![\p{L}\d.,^_'′])${NUM}(?![\d.]*\p{L})`, 'gu');
/** What this reader does not take as a plain value; such an answer or reference is left to the other rules. */
const NOT_PLAIN = /[\^√π%∞²³⁰¹⁴⁵⁶⁷⁸⁹]|\d\s*[eE]\s*[-+]?\d|\d,\d{3}\b|\d\s*[:×*]\s*\d|\bsqrt\b|\bpi\b|\\/;
const NUMBER_WORD = /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|half|halves|quarters?|thirds?|minus|negative)\b/i;
const LESS = /<|≤|\b(?:below|under|less|lower than|smaller|fewer|at most)\b/i;
const MORE = />|≥|\b(?:above|over|greater|more|higher than|larger|bigger|at least|exceeds?)\b/i;
/** Words joining parts; they are no label. */
const JOINS = new Set(['and', 'or', 'at', 'with', 'when', 'where', 'is', 'are', 'the', 'of', 'a', 'an', 'so', 'then', 'it', 'its', 'equals', 'to', 'be']);

function numberOf(text: string): number {
  const t = text.replace(/[−–]/g, '-').replace(/\s+/g, '');
  const [a, b] = t.split('/');
  return b === undefined ? Number(a) : Number(a) / Number(b);
}

function tokens(label: string): Set<string> {
  const out = new Set<string>();
  for (const m of label.toLowerCase().matchAll(/[a-z]+|[\u0370-\u03ff]|[+×*/·]/g)) {
    const t = m[0]!;
    if (/^[\u0370-\u03ff]$/.test(t) || /^[+×*/·]$/.test(t) || !JOINS.has(t)) out.add(t === '·' || t === '×' ? '*' : t);
  }
  return out;
}

/** The parts of a text: each value with the label before it (after it when nothing is before). Null when it is not plain. */
function partsOf(text: string): Part[] | null {
  if (NOT_PLAIN.test(text)) return null;
  // Function applications (E(X), f(1), P(A)) are labels, not points or values.
  const t = text.replace(/[\p{L}'′]\(\s*[^()]*\)/gu, (m) => m.replace(/[()\d.,−–-]/g, ' '));
  const found: { at: number; end: number; nums: number[] }[] = [];
  let masked = t.replace(POINT, (m, a: string, b: string, c: string | undefined, at: number) => {
    found.push({ at, end: at + m.length, nums: [a, b, c].filter((x): x is string => x !== undefined).map(numberOf) });
    return ' '.repeat(m.length);
  });
  masked = masked.replace(NUMBER, (m, at: number) => {
    found.push({ at, end: at + m.length, nums: [numberOf(m)] });
    return ' '.repeat(m.length);
  });
  if (/\d/.test(masked)) return null; // a digit the reader did not take (a subscript, x1, 5cm)
  if (NUMBER_WORD.test(masked)) return null; // a value in words ("mean five") is read by the other rules
  found.sort((a, b) => a.at - b.at);
  // Each value owns the text from the end of the previous one (a label before it, the usual way).
  const parts: Part[] = found.map((f, i) => {
    const before = t.slice(i === 0 ? 0 : found[i - 1]!.end, f.at);
    const seg = before.split(/[,;]|\band\b|\bor\b|\bat\b|\bwhen\b/i).pop() ?? before;
    const dirText = seg;
    const dir: Dir = LESS.test(dirText) ? '<' : MORE.test(dirText) ? '>' : '';
    let label = tokens(seg.replace(/[<>≤≥=]/g, ' '));
    // "x < 0": a comparison's variable is no label; the direction says which part it is.
    if (dir && [...label].every((w) => /^[a-z]$/.test(w))) label = new Set();
    const sign = /[<>≤≥]/.exec(dirText) ? /[≤≥]|[<>]\s*=|=\s*[<>]/.test(dirText) : null;
    return { nums: f.nums, label, dir, closed: dir ? sign : null, raw: t.slice(i === 0 ? 0 : found[i - 1]!.end, f.end).trim() };
  });
  // A label after the only value ("5 N"): a unit, not a label; a trailing word after the last value is read nowhere.
  return parts;
}

const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const sameValue = (a: Part, b: Part) => a.nums.length === b.nums.length && a.nums.every((x, i) => sameNumber(x, b.nums[i]!));
/** One value rounds to the other (2.83 and 2.828): a precision question, not a wrong value. */
function rounds(a: Part, b: Part): boolean {
  if (a.nums.length !== b.nums.length) return false;
  return a.nums.every((x, i) => {
    const y = b.nums[i]!;
    const places = (v: number) => Math.min(6, (String(v).split('.')[1] ?? '').length);
    const p = Math.min(places(x), places(y));
    return sameNumber(Number(x.toFixed(p)), Number(y.toFixed(p))) || Math.abs(x - y) < 0.5 * 10 ** -p + 1e-12;
  });
}

/**
 * An answer's label read against a reference label: a word that is the initials of the reference
 * label's words ("sd" for "standard deviation"), or the start of one of its words ("var" for
 * "variance"; a single letter only when it is the whole label: "r" for "radius"), is that word.
 */
function readLabel(a: Set<string>, r: Set<string>): Set<string> {
  const words = [...r].filter((w) => /^[a-z]+$/.test(w));
  const initials = words.map((w) => w[0]).join('');
  return new Set(
    [...a].flatMap((t) => {
      if (r.has(t) || !/^[a-z]+$/.test(t)) return [t];
      if (words.length >= 2 && t === initials) return words;
      const start = words.filter((w) => w.startsWith(t) && (t.length >= 3 || a.size === 1));
      return start.length === 1 ? start : [t];
    }),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const common = [...a].filter((x) => b.has(x)).length;
  return common / (a.size + b.size - common);
}

/** Whether a reference is several labelled values: two or more, each part with a label or comparison of its own. */
export function labelledValues(reference: string): Part[] | null {
  const parts = partsOf(reference);
  if (!parts || parts.length < 2) return null;
  // Labels come before their values: a reference ending in a word ("2 hours 30 minutes") has them after (units), and is not read so.
  const tail = reference.replace(/^[\s\S]*[\d)]/, '');
  if (/\p{L}/u.test(tail)) return null;
  // Every value labelled or compared, or the reference's values joined by words ("0 and 32" is a list, not labelled).
  if (!parts.some((p) => p.label.size > 0 || p.dir)) return null;
  // The parts' labels tell them apart; two parts with one label are a list of one quantity (left to the CAS).
  const labels = parts.map((p) => [...p.label].sort().join(' '));
  if (labels.some((l, i) => l && labels.indexOf(l) !== i)) return null;
  return parts;
}

export function gradeLabelledValues(userAnswer: string, reference: string): GradeResult | null {
  const ref = labelledValues(reference);
  if (!ref) return null;
  const ans = partsOf(userAnswer);
  if (!ans || ans.length === 0 || ans.length > ref.length) return null;
  const grade = (ok: boolean, sure: boolean, why: string): GradeResult => referenceVerdict(reference, ok, sure, why);
  // Align: a label that fits one reference part best goes there; the others take the places left, in order.
  const slot: number[] = new Array(ans.length).fill(-1);
  const taken = new Set<number>();
  let unreadLabel = false;
  ans.forEach((a, i) => {
    if (a.label.size === 0) return;
    const scores = ref.map((r) => jaccard(readLabel(a.label, r.label), r.label));
    const best = Math.max(...scores);
    if (best > 0 && scores.filter((s) => s === best).length === 1 && !taken.has(scores.indexOf(best))) {
      slot[i] = scores.indexOf(best);
      taken.add(slot[i]!);
      if (![...readLabel(a.label, ref[slot[i]!]!.label)].every((w) => ref[slot[i]!]!.label.has(w))) unreadLabel = true;
    } else unreadLabel = true;
  });
  let next = 0;
  ans.forEach((_, i) => {
    if (slot[i] !== -1) return;
    while (taken.has(next)) next++;
    slot[i] = next;
    taken.add(next);
  });
  const pairs = ans.map((a, i) => [a, ref[slot[i]!]!] as const);
  // A bound included or not is part of a comparison written with signs: "x > 0" is not "x ≥ 0" (tuned on I).
  const wrong = pairs.find(([a, r]) => !sameValue(a, r) || (a.dir !== '' && a.dir !== r.dir) || (a.closed !== null && r.closed !== null && a.closed !== r.closed));
  if (wrong) {
    // Another order of the same values, no label saying so ("1.5 and 3.5"): the student may have meant the labels the other way.
    const asSet = ans.length === ref.length && ans.every((a) => ref.some((r) => sameValue(a, r))) && ref.every((r) => ans.some((a) => sameValue(a, r)));
    if (asSet && ans.every((a) => a.label.size === 0 && a.dir === '')) return grade(true, false, 'The answer gives the values in another order; please review.');
    const [a, r] = wrong;
    // The same value in the other direction ("x > 0" for "below 0") is another region: sure.
    const near = !sameValue(a, r) && rounds(a, r);
    return grade(false, !near, near ? `"${a.raw}" is near ${r.raw} but not it; please review.` : `"${a.raw}" is not ${r.raw}.`);
  }
  if (ans.length < ref.length) {
    const missing = ref.filter((_, j) => !slot.includes(j)).map((r) => r.raw).join(', ');
    return grade(false, true, `The answer does not give ${missing}.`);
  }
  const inOrder = slot.every((s, i) => s === i);
  const sure = !unreadLabel && (inOrder || ans.every((a) => a.label.size > 0));
  return grade(true, sure, sure ? 'Correct: the answer gives every value.' : 'Correct: the answer gives every value, under labels the grader cannot read; please review.');
}
