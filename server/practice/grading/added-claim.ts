/**
 * A claim an answer adds to the right number: "7, so it is acidic" gives the number and then
 * says something the question's own words refute. Read with the statements of a short answer and
 * WordNet's glosses (an adjective glossed with a number for a quantity the question names).
 */
import type { GradeResult } from '../types.ts';
import { readableText } from './accents.ts';
import { numberFromWords } from './number-words.ts';
import { antonymOf, lemmas, senses } from './senses.ts';
import { contentWords, denied, FILLER, MAX_SHORT_ANSWER_WORDS, NEG_SCOPE, questionWords, statements, wordsOf, type Word } from './statements.ts';
import { NEGATIONS } from './text.ts';

/** Words that join a claim to the number and say nothing themselves ("7, which means it is ..."). */
const LINKS = new Set(['mean', 'means', 'meaning', 'because', 'since', 'therefore', 'hence', 'thus', 'make', 'makes', 'making', 'value', 'number']);
/** A comparison a gloss makes with a number: "a pH of less than 7", "between 90 and 180 degrees". */
const COMPARISON = /\b(less than|lower than|fewer than|below|under|greater than|more than|higher than|above|over|exceeding|equal to|between|of)\s+(-?\d+(?:\.\d+)?)(?:\s+and\s+(-?\d+(?:\.\d+)?))?/gi;
/** Distinct added words whose senses are read, and characters of a gloss read after the question's word. */
const MAX_CLAIM_WORDS = 40;
const GLOSS_WINDOW = 60;
const GAP_BEFORE_COMPARISON = 25;
/** Characters of an answer read for an added claim: past its first 300 words (MAX_SHORT_ANSWER_WORDS) at any length of word. */
const MAX_CLAIM_CHARS = MAX_SHORT_ANSWER_WORDS * 20;

function compares(op: string, a: number, b: number | undefined, v: number): boolean {
  switch (op.toLowerCase()) {
    case 'less than':
    case 'lower than':
    case 'fewer than':
    case 'below':
    case 'under':
      return v < a;
    case 'greater than':
    case 'more than':
    case 'higher than':
    case 'above':
    case 'over':
    case 'exceeding':
      return v > a;
    case 'between':
      return b !== undefined && v > Math.min(a, b) && v < Math.max(a, b);
    default:
      return v === a;
  }
}

/**
 * What a gloss says of a quantity the question names, as comparisons with numbers: "acidic"
 * (having a pH of less than 7), "obtuse" (of an angle; between 90 and 180 degrees). Null when the
 * gloss names no number for it. The comparisons are read from just after the quantity's word.
 */
function glossCondition(definition: string, quantity: string): { text: string; holds: (v: number) => boolean } | null {
  const d = definition.toLowerCase();
  const at = new RegExp(`\\b${quantity.replace(/[^a-z0-9]/g, '')}s?\\b`).exec(d);
  if (!at) return null;
  const window = d.slice(at.index + at[0].length, at.index + at[0].length + GLOSS_WINDOW);
  const found: { op: string; a: number; b?: number }[] = [];
  let last = 0;
  for (const m of window.matchAll(COMPARISON)) {
    const gap = window.slice(last, m.index);
    // The first comparison close to the quantity's word; each further one joined to it ("but less than 180").
    if (found.length === 0 ? gap.length > GAP_BEFORE_COMPARISON || /\d/.test(gap) : !/^[\s,]*(?:but|and)?[\s,]*$/.test(gap)) break;
    found.push({ op: m[1], a: Number(m[2]), b: m[3] === undefined ? undefined : Number(m[3]) });
    last = m.index + m[0].length;
  }
  if (found.length === 0) return null;
  return { text: definition.trim(), holds: (v) => found.every((c) => compares(c.op, c.a, c.b, v)) };
}

/** The number a reference states ("7", "90°", "100 °C", "seven"), or null for any other reference. */
function referenceNumber(reference: string): number | null {
  const t = readableText(reference).trim().replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\u2212/g, '-');
  const m = /^-?\d+(?:\.\d+)?/.exec(t);
  if (m) {
    // A unit may follow, after a space ("100 degrees Celsius", "7 pH"); "2π" or "3x" is not a number.
    const rest = t.slice(m[0].length);
    return rest.trim() === '' || (/^\s+[A-Za-z]/.test(rest) && !/\d/.test(rest) && wordsOf(rest).length <= 3) ? Number(m[0]) : null;
  }
  return numberFromWords(t);
}

/**
 * A claim an answer adds to the right number that the question's own words refute, or null. The
 * number is read by the math grader, which passes over prose after it; this reads the prose as a
 * short answer is read: the number must not be denied or taken back, the added words must not be
 * the opposite of the question's or reference's words ("6, an irregular polygon" when asked about
 * a regular one), and an added word WordNet glosses with a number for a quantity the question
 * names must agree with the reference ("7, so it is acidic": the adjective acidic is "having a pH
 * of less than 7"). Words under a negation are not claimed ("7, neither acidic nor alkaline").
 */
export function addedClaimAgainst(reference: string, answer: string, statement: string): string | null {
  const value = referenceNumber(reference);
  if (value === null) return null;
  // Each number in the answer as one word: the reference's value, or another.
  const text = readableText(answer.slice(0, MAX_CLAIM_CHARS)).replace(/\u2212/g, '-').replace(/-?\d+(?:[.,]\d+)*/g, (lit) => (Number(lit.replace(/,(?=\d{3}\b)/g, '').replace(',', '.')) === value ? ' refvalue ' : ' othervalue '));
  const sts = statements(text);
  const qWords = questionWords(statement);
  const given = (w: string) => w === 'refvalue' || numberFromWords(w) === value;
  const said = sts.flatMap((st, si) => st.words.flatMap((x, i) => (given(x.w) ? [{ st, m: { statement: si, start: i, end: i + 1, how: '' } }] : [])));
  if (said.length > 0 && said.every(({ st, m }) => st.retracted || denied(st, m, qWords))) return 'The answer gives the number and then denies or takes it back.';

  const own = [...contentWords(wordsOf(statement)), ...contentWords(wordsOf(reference))].map((x) => x.w).filter((w) => !/\d/.test(w));
  const ownLemmas = new Set([...own.flatMap((w) => [...lemmas(w)]), ...qWords]);
  const claimed: Word[] = [];
  for (const st of sts) {
    if (st.retracted) continue;
    st.words.forEach((x, i) => {
      if (claimed.length >= MAX_CLAIM_WORDS || claimed.some((c) => c.w === x.w)) return;
      if (given(x.w) || x.w === 'othervalue' || numberFromWords(x.w) !== null || FILLER.has(x.w) || NEGATIONS.has(x.w) || LINKS.has(x.w)) return;
      if ([...lemmas(x.w)].some((l) => ownLemmas.has(l))) return;
      if (st.cues.some((c) => c < i && i - c <= NEG_SCOPE)) return;
      claimed.push(x);
    });
  }
  for (const x of claimed) for (const q of new Set(own)) if (antonymOf(q, x.w)) return `The answer adds "${x.raw}", the opposite of "${q}".`;
  for (const x of claimed) {
    let against: string | null = null;
    let agrees = false;
    // Adjectives only: they say what the thing asked about is; a noun's gloss may give its own value ("pi": about 3.14).
    for (const s of senses(x.w, ['adj'])) {
      for (const q of new Set(own)) {
        const c = glossCondition(s.definition, q);
        if (!c) continue;
        if (c.holds(value)) agrees = true;
        else against ??= c.text;
      }
    }
    if (against && !agrees) return `The answer adds "${x.raw}", which WordNet glosses as "${against}"; ${value} is not.`;
  }
  return null;
}

/**
 * A full-marks grade of a numeric reference, refused when the answer adds a claim against it
 * (`addedClaimAgainst`); any other grade as it is.
 */
export function checkAddedClaim(result: GradeResult, reference: string, answer: string, statement: string): GradeResult {
  if (result.max_score <= 0 || result.score !== result.max_score) return result;
  const why = addedClaimAgainst(reference, answer, statement);
  return why ? { ...result, score: 0, met: [], missed: [reference], explanation: `${why} The expected answer is ${reference}.` } : result;
}
