/**
 * An answer read as a teacher reads it: words as written (accents and unit symbols read,
 * contractions opened), split into statements, each asserted, denied by a negation cue, or taken
 * back by a correction ("mitochondria? no, ribosomes"). Short answers and the claims added to a
 * numeric answer are read this way.
 */
import { readableText } from './accents.ts';
import { lemmas } from './senses.ts';
import { NEGATIONS, STOPWORDS } from './text.ts';

/** Words around an answer that say nothing about it. */
export const FILLER = new Set([...STOPWORDS, 'think', 'believe', 'guess', 'maybe', 'probably', 'sure', 'pretty', 'called', 'known', 'named', 'yes', 'ok', 'okay', 'well', 'um', 'uh', 'sir', 'miss', 'please']);
/** A statement made only of these takes back what came before it. */
const RETRACT = new Set(['no', 'nope', 'wrong', 'wait', 'sorry', 'actually', 'oops', 'mean', 'i', 'scratch', 'that', 'not', 'oh', 'hmm', 'correction']);
/** A negation cue denies what stands at most this many words after it. */
export const NEG_SCOPE = 5;

export interface Word {
  /** Lower case. */
  w: string;
  /** As written. */
  raw: string;
}

export interface Statement {
  words: Word[];
  retracted: boolean;
  /** "like a pile of plates", "such as ...": an illustration, not another answer. */
  illustration?: boolean;
  /** Written in brackets ("hands (4 inches each)"): a gloss on what came before (tuned on H). */
  bracketed?: boolean;
  /** Indexes of negation cues. */
  cues: number[];
}

export interface Match {
  statement: number;
  start: number;
  end: number;
  how: string;
}

/** "CO₂", "H₂O", "m²": subscript and superscript digits read as digits. */
function plainDigits(text: string): string {
  return text.replace(/[₀-₉]/g, (c) => String(c.charCodeAt(0) - 0x2080)).replace(/[⁰¹²³⁴-⁹]/g, (c) => String('⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)));
}

/**
 * Words as read: accents stripped and unit symbols named (accents.ts), so "García" is one word and
 * "Ω" is "ohm"; letters of other scripts are words too, only not English ones.
 */
export function wordsOf(text: string): Word[] {
  const t = readableText(plainDigits(text)).replace(/[’‘`]/g, "'").replace(/\b(can)'t\b|\bcannot\b/gi, 'can not').replace(/\bwon't\b/gi, 'will not').replace(/\b(\w+)n't\b/gi, '$1 not');
  return [...t.matchAll(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu)].map((m) => ({ w: m[0].toLowerCase().replace(/'s$/, ''), raw: m[0] }));
}

/**
 * Words of an answer that are read. A short-answer reply longer than this is an essay; reading
 * every n-gram of 20,000 characters against WordNet would hold the event loop for a second.
 */
export const MAX_SHORT_ANSWER_WORDS = 300;

/** Statements in order; a statement of retraction words takes back every earlier one. */
export function statements(answer: string): Statement[] {
  // Split with the separators kept (odd indexes), so "no" after a question mark can be told from "no" after a comma.
  const split = answer.split(/([.;!?,:()]+|\s[-–—]+\s|\b(?:but|however|although|though|whereas|instead|rather|i mean)\b)/i);
  const out: Statement[] = [];
  let budget = MAX_SHORT_ANSWER_WORDS;
  let depth = 0;
  for (let k = 0; k < split.length; k += 2) {
    const piece = split[k]!;
    const after = split[k - 1] ?? '';
    if (budget <= 0) break;
    const words = wordsOf(piece).slice(0, budget);
    budget -= words.length;
    if (words.length === 0) continue;
    if (words.every((x) => RETRACT.has(x.w)) && words.some((x) => x.w !== 'i' && x.w !== 'that')) {
      for (const s of out) s.retracted = true;
      continue;
    }
    // "actually Y" / "no, Y" at the start of a statement also corrects what came before.
    // "no perspective" after a comma is a denial of it, not a correction: "no" corrects after a question or a stop.
    const correcting = words[0].w === 'no' && words.length > 1 && out.length > 0 && /[?!.;]|^$/.test(after.trim() || '?') && !/^no\s+(?:one|body)/i.test(piece.trim());
    if (['actually', 'correction'].includes(words[0].w) || correcting) {
      for (const s of out) s.retracted = true;
      if (words[0].w === 'no') words.shift();
    }
    const illustration = /^\s*(?:like|such\s+as|for\s+example|for\s+instance|e\.?g\.?|as\s+in)\b/i.test(piece);
    depth = Math.max(0, depth + (after.match(/\(/g)?.length ?? 0) - (after.match(/\)/g)?.length ?? 0));
    const bracketed = depth > 0 && out.length > 0;
    out.push({ words, retracted: false, illustration, ...(bracketed ? { bracketed } : {}), cues: words.flatMap((x, i) => (NEGATIONS.has(x.w) ? [i] : [])) });
  }
  return out;
}

export function contentWords(words: Word[]): Word[] {
  return words.filter((x) => !FILLER.has(x.w) && !NEGATIONS.has(x.w));
}


/** Words of the question: a negation of these is a denial of the claim the question asks about. */
export function questionWords(statement: string): Set<string> {
  return new Set(contentWords(wordsOf(statement)).flatMap((x) => [...lemmas(x.w)]));
}

/** Whether a match is denied in its statement: a negation just before it, or after it over the question's own words. */
export function denied(st: Statement, m: Match, qWords: Set<string>): boolean {
  for (const c of st.cues) {
    if (c < m.end && m.start - c <= NEG_SCOPE) return true;
    if (c >= m.end) {
      const after = contentWords(st.words.slice(c + 1));
      if (after.length === 0 || after.some((x) => [...lemmas(x.w)].some((l) => qWords.has(l)))) return true;
    }
  }
  return false;
}
