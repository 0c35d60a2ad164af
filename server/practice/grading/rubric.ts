/**
 * Rubric grading of text answers. The rubric (scoring_details, else the reference answer) is
 * split into concepts, each worth the points it states ("(2 pts)") or 1. A concept is met when
 * the answer covers at least 70% of its content words (lemma, synonym or spelling match), half
 * met from 40%; a concept whose matched words sit in a clause of opposite polarity ("does not",
 * "isn't", "never") counts as contradicted and earns nothing.
 */
import type { GradeResult } from '../types.ts';
import { GradingInputError } from './errors.ts';
import { longerTerm } from './longer-term.ts';
import { clauses, matchWord, NEGATIONS, STOPWORDS, tokenize, type WordMatch } from './text.ts';

export interface Concept {
  text: string;
  points: number;
  /** Alternative wordings; any one may be met. */
  variants: string[];
}

const POINTS = [
  /\(\s*(\d+(?:\.\d+)?)\s*(?:pts?|points?|marks?)\s*\)/i,
  /\[\s*(\d+(?:\.\d+)?)\s*(?:pts?|points?|marks?)?\s*\]/i,
  /^\s*(\d+(?:\.\d+)?)\s*(?:pts?|points?|marks?)\s*(?:[:\-–—]|for\b)/i,
  /[:\-–—]\s*(\d+(?:\.\d+)?)\s*(?:pts?|points?|marks?)\s*$/i,
];
const LEAD = /^(?:full credit (?:for|if)|award (?:\d+ )?(?:pts?|points?) (?:for|if)|(?:the )?(?:student|answer) (?:must |should )?(?:mentions?|states?|explains?|includes?|notes?|says?)(?: that)?|must (?:mention|state|include|explain)(?: that)?|mentions?(?: that)?|states?(?: that)?)\s*/i;

export function parseRubric(text: string, fromReference: boolean): Concept[] {
  let pieces = text
    .split(/\n+/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)]|[a-z][.)])\s+/i, '').trim())
    .filter(Boolean);
  if (pieces.length === 1) pieces = pieces[0].split(/;\s+(?![^(]*\))/).map((p) => p.trim()).filter(Boolean);
  if (fromReference && pieces.length === 1) pieces = pieces[0].split(/(?<=[.!?])\s+(?=[A-Z])/).filter(Boolean);
  const concepts: Concept[] = [];
  for (let piece of pieces) {
    let points = 1;
    for (const re of POINTS) {
      const m = re.exec(piece);
      if (m) {
        points = Number(m[1]);
        piece = piece.replace(re, ' ').trim();
        break;
      }
    }
    const variants: string[] = [];
    const also = /\((?:also accepted|accept|or)[:\s]+([^)]*)\)/i.exec(piece);
    if (also) {
      piece = piece.replace(also[0], ' ').trim();
      variants.push(...also[1].split(/,|\bor\b/).map((s) => s.trim()).filter(Boolean));
    }
    const main = piece.replace(LEAD, '').replace(/[.:]\s*$/, '').trim();
    const alts = main.split(/\s+\|\s+|\s+\/\s+/).map((s) => s.trim()).filter(Boolean);
    if (alts.length === 0) continue;
    concepts.push({ text: alts[0], points, variants: [...alts, ...variants] });
  }
  return concepts;
}

const NEG_SCOPE = 5;

/**
 * Word comparisons one grade may make (distinct rubric words x distinct answer words): each is a
 * lemma, synonym and spelling check, so this keeps a grade within a few tens of milliseconds. A
 * long essay (1,000 distinct words) against a rubric of 400 distinct words fits.
 */
export const MAX_WORD_PAIRS = 400_000;

function content(words: string[]): string[] {
  return words.filter((w) => !STOPWORDS.has(w) && !NEGATIONS.has(w));
}

interface VariantResult {
  coverage: number;
  contradicted: boolean;
  matches: WordMatch[];
  /** A longer name of something else that holds the reference's words (reference answers only). */
  otherTerm?: string;
}

/** A distinct word of the answer at its first occurrence (clause, index within the clause). */
interface AnswerWord {
  word: string;
  clause: number;
  index: number;
}

/**
 * The answer's distinct words in document order. Matching scans these instead of every word: the
 * first occurrence of the first matching word is where a scan of every word would stop too.
 */
function answerWords(userClauses: string[][]): AnswerWord[] {
  const seen = new Set<string>();
  const out: AnswerWord[] = [];
  userClauses.forEach((clause, ci) =>
    clause.forEach((word, wi) => {
      if (seen.has(word)) return;
      seen.add(word);
      out.push({ word, clause: ci, index: wi });
    }),
  );
  return out;
}

function judge(variant: string, userClauses: string[][], answer: AnswerWord[]): VariantResult {
  const conceptTokens = tokenize(variant);
  let words = content(conceptTokens);
  if (words.length === 0) words = conceptTokens.filter((w) => !NEGATIONS.has(w));
  const conceptNegated = conceptTokens.some((w) => NEGATIONS.has(w));
  let hit = 0;
  const matches: WordMatch[] = [];
  let userNegated = false;
  for (const cw of words) {
    let best: WordMatch = null;
    for (const { word: uw, clause, index } of answer) {
      best = matchWord(cw, uw);
      if (!best) continue;
      // A negation cue up to NEG_SCOPE words before the matched word, in the same clause.
      if (userClauses[clause]!.slice(Math.max(0, index - NEG_SCOPE), index).some((w) => NEGATIONS.has(w))) userNegated = true;
      break;
    }
    matches.push(best);
    if (best) hit++;
  }
  const coverage = words.length ? hit / words.length : 0;
  return { coverage, contradicted: hit > 0 && userNegated !== conceptNegated, matches };
}

export function gradeRubric(userAnswer: string, rubric: string, fromReference: boolean): GradeResult {
  const concepts = parseRubric(rubric, fromReference);
  const max = concepts.reduce((s, c) => s + c.points, 0);
  const userClauses = clauses(userAnswer);
  const answer = answerWords(userClauses);
  const rubricWords = new Set(concepts.flatMap((c) => c.variants.flatMap(tokenize))).size;
  if (rubricWords * answer.length > MAX_WORD_PAIRS) {
    throw new GradingInputError(
      ['body', 'problem', fromReference ? 'correct_answer' : 'scoring_details'],
      `The rubric (${rubricWords} distinct words) and the answer (${answer.length}) are too large to grade together: their product may be at most ${MAX_WORD_PAIRS.toLocaleString('en-US')}. Shorten the rubric to the concepts that earn points.`,
    );
  }
  const met: string[] = [];
  const missed: string[] = [];
  const lines: string[] = [];
  let score = 0;
  for (const c of concepts) {
    const results = c.variants.map((v) => {
      const otherTerm = fromReference ? firstLongerTerm(v, userClauses) : null;
      return otherTerm ? { coverage: 0, contradicted: false, matches: [], otherTerm } : judge(v, userClauses, answer);
    });
    const best = results.reduce((a, b) => (score01(b) > score01(a) ? b : a));
    const fraction = score01(best);
    const got = c.points * fraction;
    score += got;
    const label = `${c.text} (${fmt(got)}/${fmt(c.points)})`;
    if (best.contradicted && best.coverage >= 0.4) {
      missed.push(`${c.text} (contradicted)`);
      lines.push(`Contradicted: "${c.text}" — the answer says the opposite (negation) (0/${fmt(c.points)}).`);
    } else if (fraction === 1) {
      met.push(c.text);
      const how = best.matches.includes('synonym') ? ' (by synonym)' : best.matches.includes('spelling') ? ' (allowing for spelling)' : '';
      lines.push(`Met: ${label}${how}.`);
    } else if (fraction > 0) {
      met.push(`${c.text} (partly)`);
      lines.push(`Partly met: ${label}.`);
    } else if (best.otherTerm) {
      missed.push(c.text);
      lines.push(`Missed: ${label} — "${best.otherTerm}" names something else.`);
    } else {
      missed.push(c.text);
      lines.push(`Missed: ${label}.`);
    }
  }
  score = Math.round(score * 100) / 100;
  return {
    score,
    max_score: max,
    method: 'rubric',
    met,
    missed,
    explanation: `${fmt(score)} of ${fmt(max)} point(s). ${lines.join(' ')}`,
  };
}

function firstLongerTerm(variant: string, userClauses: string[][]): string | null {
  const words = content(tokenize(variant));
  for (const clause of userClauses) {
    const term = longerTerm(words, clause);
    if (term) return term;
  }
  return null;
}

function score01(r: VariantResult): number {
  if (r.contradicted) return 0;
  return r.coverage >= 0.7 ? 1 : r.coverage >= 0.4 ? 0.5 : 0;
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}
