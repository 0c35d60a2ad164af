/**
 * Whether an answer meets one concept of a rubric: its best wording (words said, in any form),
 * what the rubric refuses, a value named, and the opposite said instead (an antonym, another
 * degree, the contrary of a word of the question). Levels and per-item criteria are judged with it.
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Pos } from '../../lexicon/wordnet.ts';
import { gradeMath } from '../math/index.ts';
import { antonymOf } from '../senses.ts';
import { gradeShortAnswer } from '../short-answer.ts';
import { forms } from '../text.ts';
import { namedFormula, showsEquation, showsFormula, substitutesCorrectly, symbolFormula } from './calc.ts';
import { keyedJudgement, keyOf } from './keyed.ts';
import { type Answer, best, contentWords, criterionWords, firstLongerTerm, fraction, judge, judgeWords, type Judgement, matchWord, NEGATIONS, saysRefused, tokenize } from './match.ts';
import { opposesKind, reversed, sentencesOf, swapped } from './swap.ts';

export interface Outcome {
  got: number;
  line: string;
  met: string[];
  missed: string[];
  /** The answer's words that met the criterion ('' when unmet). */
  evidence?: string;
  /** Decided by a rule the grader can check (key words all said, or none; a refusal the rubric names). */
  sure?: boolean;
  /** The answer's words that met it (met or partly met). */
  used?: string[];
  /** Missed with none of its words said: sure only when the answer says nothing else (score.ts). */
  blank?: boolean;
}

export function sameWord(a: string, b: string): boolean {
  const m = matchWord(a, b);
  return m === 'exact' || m === 'lemma';
}

interface ConceptJudgement {
  fraction: number;
  best: Judgement;
  /** The refused wording the answer gives instead. */
  rejected: string | null;
}

export function judgeConcept(all: string[], rejects: string[], answer: Answer, fromReference: boolean, extraQuality?: Set<string>): ConceptJudgement {
  // A key the criterion names ("(temperature)") is judged with its role, not also on its own.
  const keys = new Set(fromReference ? [] : all.map((v) => keyOf(v)?.key.toLowerCase()).filter((k): k is string => !!k));
  const variants = all.filter((v) => !keys.has(v.trim().toLowerCase()));
  // With a refusal beside it ("energy is released; do not accept 'energy is made'"), the words
  // the two share tell nothing: the criterion is judged on its own words.
  const refused = new Set(rejects.flatMap((r) => criterionWords(r)));
  const judgeVariant = (v: string, skip?: (w: string) => boolean): Judgement => {
    const otherTerm = fromReference ? firstLongerTerm(v, answer) : null;
    if (otherTerm) return { coverage: 0, contradicted: false, matches: [], missing: [], used: [], otherTerm };
    const keyed = !fromReference && !skip && keyedJudgement(v, answer);
    if (keyed) return keyed;
    const own = criterionWords(v, extraQuality).filter((w) => !refused.has(w));
    if (refused.size && own.length) return judgeWords(own, tokenize(v).some((w) => NEGATIONS.has(w)), answer, skip);
    return aliased(v, judge(v, answer, { extraQuality, asWritten: fromReference, skip }));
  };
  // A named thing ("carbon dioxide", "Shakespeare") said by another name a short answer accepts:
  // a formula ("CO2"), a surname, a number in words. Short answers only: an essay is read by its words.
  const aliased = (v: string, j: Judgement): Judgement => {
    if (fromReference || j.coverage >= 1 || j.contradicted || answer.words.length > ALIAS_ANSWER_WORDS) return j;
    const named = contentWords(tokenize(v));
    if (named.length === 0 || named.length > 3) return j;
    // Names only: the short answer's synonyms of a sense it picked are not the rubric's to accept ("digests" for "support").
    const r = gradeShortAnswer(answer.text, v, answer.statement ?? '', { among: true, namesOnly: true });
    return r.score === 1 ? { ...j, coverage: 1, missing: [], matches: ['synonym'] } : j;
  };
  // "the answer 5 m/s with units": the final value by the CAS, with a unit where the criterion asks for one.
  const value = answer.calc && variants.some((v) => namesValue(v, answer.calc!.reference));
  if (value && answer.calc) {
    const ok = answer.calc.correct && (!variants.some((v) => /\bunits?\b/i.test(v)) || answer.calc.units);
    return { fraction: ok ? 1 : 0, best: { coverage: ok ? 1 : 0, contradicted: false, matches: [], missing: ok ? [] : [`the value ${answer.calc.reference}${answer.calc.correct ? ' with its unit' : ''}`], used: [] }, rejected: null };
  }
  const judged = variants.map((v) => judgeVariant(v));
  // The working a criterion asks for, read with the CAS: the formula shown, the values substituted.
  if (answer.calc && !fromReference) {
    const { reference } = answer.calc;
    const statement = answer.statement ?? '';
    const formula = variants.map(namedFormula).find((f) => f !== null);
    const symbols = formula ? null : variants.map(symbolFormula).find((f) => f !== null);
    const ok = formula ? showsFormula(answer.text, formula, statement) : symbols ? showsEquation(answer.text, symbols) : substitutesCorrectly(variants[0] ?? '', answer.text, reference, statement);
    if (ok !== null && ok !== undefined) {
      const what = formula ? `the formula ${formula}` : symbols ? `the formula ${symbols}` : 'the values substituted into an expression worth the answer';
      // Single letters say nothing as words: a formula in symbols is the CAS's to judge.
      if (ok || symbols || !formula || fraction(best(judged)) < 1) return { fraction: ok ? 1 : 0, best: { coverage: ok ? 1 : 0, contradicted: false, matches: [], missing: ok ? [] : [what], used: [] }, rejected: null };
    }
  }
  let b = best(judged);
  const said = variants[judged.indexOf(b)];
  if (fraction(b) > 0 && !fromReference && said) {
    // "the price falls" against "explains that the price rises": the contrary claim earns nothing;
    // nor does saying of the gas what the criterion says of the solid, or "from B to A" for "from A to B".
    // Any wording of it: "move more slowly" says the opposite of "gain kinetic energy / move faster".
    const why = variants.reduce<string | null>((w, v) => w ?? opposite(v, answer, b.used), null) ?? swapped(said, answer) ?? reversed(said, answer) ?? otherAcronym(said, answer.text);
    if (why) b = { ...b, contradicted: true, coverage: Math.max(b.coverage, 0.4), why };
  }
  const f = fraction(b);
  for (const r of rejects) {
    if (!saysRefused(r, answer)) continue;
    if (f < 1) return { fraction: 0, best: b, rejected: r };
    // Met without the words only the refused wording has? Then the refused wording is not all it gives.
    const ownWords = variants.flatMap((v) => criterionWords(v, extraQuality));
    const refusedOnly = criterionWords(r).filter((w) => !ownWords.some((o) => sameWord(o, w)));
    const skip = (uw: string) => refusedOnly.some((w) => matchWord(w, uw) !== null);
    // ...and all of the criterion's words must then be said: "turns clear" refused leaves "the limewater turns milky" unmet by "limewater turns".
    const again = best(variants.map((v) => judgeVariant(v, skip)));
    if (again.coverage < 1 || again.contradicted) return { fraction: 0, best: b, rejected: r };
  }
  return { fraction: f, best: b, rejected: null };
}

const ACRONYM_BEFORE = /\b([A-Z]{2,5})\s+([a-z]{3,})\b/g;

/**
 * "MAC address" for "IP address", "RNA polymerase" for "DNA polymerase": another acronym before the
 * criterion's word names another kind of the thing, unless the answer also says the criterion's
 * acronym (tuned on I: a reading of JSON-lines criteria showed it on set E).
 */
export function otherAcronym(criterion: string, answer: string): string | null {
  for (const [, mine, word] of criterion.matchAll(ACRONYM_BEFORE)) {
    if (new RegExp(`\\b${mine}\\b`).test(answer)) continue;
    for (const [, theirs, after] of answer.matchAll(ACRONYM_BEFORE)) {
      if (theirs !== mine && sameWord(after!, word!)) return `"${theirs} ${after}" names another ${word} than "${mine} ${word}"`;
    }
  }
  return null;
}

/** Whether a criterion names the reference value ("the answer 5 m/s", "the correct answer 12 cm²"). */
function namesValue(wording: string, reference: string): boolean {
  return [...wording.matchAll(/[$€£]?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?(?:\s*(?:[a-zA-Z°²³/^]+\d?)+)?/g)].some((m) => gradeMath(m[0].trim(), reference, '').score === 1);
}

/** Distinct words of an answer short enough to be read for other names of a criterion's thing. */
const ALIAS_ANSWER_WORDS = 60;

/** Answer words read for opposites: the antonym check looks up every pair. */
const OPPOSITE_SCAN = 300;

/**
 * An opposite of the criterion in the answer ("increases" where the criterion says "reduce",
 * "falls" for "rises"), when the answer does not also say the criterion's word: the answer
 * makes the contrary claim.
 */
function opposite(wording: string, answer: Answer, used: string[]): string | null {
  const words = criterionWords(wording);
  // Said where the criterion is: in a sentence holding its words, but not in a part about another
  // criterion ("deforestation increases run-off, and dams hold back water" does not say that dams
  // increase flooding).
  const others = answer.otherClaims ?? new Set<string>();
  const near = new Set(
    sentencesOf(answer)
      .filter((t) => used.some((u) => t.tokens.includes(u)))
      .flatMap((t) => t.parts)
      .filter((p) => p.filter((w) => others.has(w) && !used.includes(w)).length <= p.filter((w) => used.includes(w) && !others.has(w)).length)
      .flat(),
  );
  const said = saidForms(answer);
  const says = (cw: string) => [...forms(cw)].some((f) => said.has(f));
  // The answer's words the criterion says itself ("from hotter to colder" holds both ends) are not opposites.
  // A denied opposite affirms ("the wall doesn't have to be fat" for "thinner"; tuned on D).
  const candidates = answer.words.slice(0, OPPOSITE_SCAN).filter((u) => near.has(u.word) && !u.negated && !words.some((cw) => sameWord(cw, u.word)));
  for (const cw of words) {
    // Said in other words too ("start" for "begins"): the answer says it, an opposite elsewhere is about something else (tuned on D).
    if (says(cw) || used.some((u) => matchWord(cw, u) !== null)) continue;
    // Verbs ("rises" against "falls") and comparisons ("shorter" against "longer"); nouns and
    // adjectives of a list (solid, liquid) are not claims against each other.
    const poses: Pos[] = /(?:er|est)$/.test(cw) && lemmatizer.adjective(cw) !== cw ? ['verb', 'adj'] : ['verb'];
    for (const { word } of candidates) {
      // "move more slowly" against "move faster": an adverb's adjective against the criterion's.
      const base = adverbBase(word);
      if (antonymOf(cw, word, poses, OPPOSITE_SENSES) || opposesKind(cw, word) || (base !== null && antonymOf(cw, base, ['adj'], OPPOSITE_SENSES))) return `the answer says "${word}", the opposite of "${cw}"`;
    }
  }
  return degreeAgainst(wording, answer, near);
}

/** Senses of a criterion's word read for opposites: its frequent ones ("rises" is no opposite of "sets up"). */
const OPPOSITE_SENSES = 2;

const MORE = new Set(['more', 'greater', 'higher', 'increased']);
const LESS = new Set(['less', 'fewer', 'lower', 'reduced', 'decreased']);

/**
 * "collide less often" against "collide more frequently": the same thing said in the other
 * degree. Read where the criterion is (`near`: the answer's words in its parts), for the word
 * right after "more"/"less" on each side.
 */
function degreeAgainst(wording: string, answer: Answer, near: Set<string>): string | null {
  const want = tokenize(wording);
  const said = tokenize(answer.text);
  for (let i = 0; i + 1 < want.length; i++) {
    const up = MORE.has(want[i]!) ? true : LESS.has(want[i]!) ? false : null;
    if (up === null) continue;
    for (let j = 0; j + 1 < said.length; j++) {
      const other = up ? LESS.has(said[j]!) : MORE.has(said[j]!);
      if (other && near.has(said[j + 1]!) && matchWord(want[i + 1]!, said[j + 1]!) !== null) return `the answer says "${said[j]} ${said[j + 1]}", the opposite of "${want[i]} ${want[i + 1]}"`;
    }
  }
  return null;
}

const adverbCache = new Map<string, string | null>();
/** The adjective an adverb is formed from ("slowly" → slow), by WordNet; null for other words. */
function adverbBase(word: string): string | null {
  let v = adverbCache.get(word);
  if (v === undefined) {
    v = null;
    for (const off of lookup(word, 'adv')) {
      const p = synset(off, 'adv').pointers.find((x) => x.symbol === '\\' && x.pos === 'adj');
      if (p) {
        v = synset(p.offset, 'adj').words[0]!.toLowerCase();
        break;
      }
    }
    if (adverbCache.size > 10_000) adverbCache.clear();
    adverbCache.set(word, v);
  }
  return v;
}

const formsSaid = new WeakMap<Answer, Set<string>>();
/** Every form (lemma, stem) of every word of the answer. */
function saidForms(answer: Answer): Set<string> {
  let v = formsSaid.get(answer);
  if (!v) {
    v = new Set(answer.words.flatMap((u) => [...forms(u.word)]));
    formsSaid.set(answer, v);
  }
  return v;
}

export function missingWords(j: Judgement): string {
  return j.missing.length ? ` — missing: ${j.missing.slice(0, 6).join(', ')}` : '';
}

/** Words that name an example ("an example of", "instances"). */
export const EXAMPLE_WORDS = new Set(['example', 'examples', 'instance', 'instances']);
const EXAMPLE_CUE = /\b(?:for example|for instance|e\.\s?g\.?|eg|such as|like|including|instance|example)\b|\b\d/i;
/** Whether the answer gives an example: a cue word quoted as a word ("uses 'like' or 'as'") is not one. */
export function givesExample(text: string): boolean {
  return EXAMPLE_CUE.test(text.replace(/(["'])\s*\w+(?:\s+\w+)?\s*\1/g, ' '));
}
