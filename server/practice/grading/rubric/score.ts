/**
 * Scoring an answer against read criteria, with an explanation per criterion: met, partly met,
 * missed, contradicted (the answer says the opposite) or not accepted (it gives only what the
 * rubric refuses); for levels, the level reached and why not the next; for per-item criteria,
 * the items counted.
 */
import type { GradeResult } from '../../types.ts';
import { GradingInputError } from '../errors.ts';
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Pos } from '../../lexicon/wordnet.ts';
import { gradeMath } from '../math/index.ts';
import { antonymOf } from '../senses.ts';
import { gradeShortAnswer } from '../short-answer.ts';
import { calcFacts, calcNeeds, describeFacts, meets, namedFormula, showsEquation, showsFormula, substitutesCorrectly, symbolFormula, type CalcFacts } from './calc.ts';
import { categoryOf, categoryWords, HEADS, onlyCounts } from './category.ts';
import { countItems } from './count.ts';
import { contrariesOf, NO_CONTRARIES } from './contrary.ts';
import { opposesKind, reversed, sentencesOf, swapped } from './swap.ts';
import { numberExamples, numberProperty } from './number-example.ts';
import { forms } from '../text.ts';
import {
  type Answer,
  best,
  contentWords,
  criterionWords,
  firstLongerTerm,
  fraction,
  isContradicted,
  judge,
  judgeWords,
  type Judgement,
  LEVEL_QUALITY_AND_EXAMPLES,
  matchWord,
  questionWords,
  NEGATIONS,
  readAnswer,
  saysRefused,
  STOPWORDS,
  tokenize,
} from './match.ts';
import { keyedJudgement, keyOf } from './keyed.ts';
import { fmt, readReference, readRubric } from './parse.ts';
import type { Concept, Criterion, Levels, PerItem, ReadRubric } from './types.ts';

/**
 * Word comparisons one grade may make (distinct rubric words x distinct answer words): each is a
 * lemma, synonym and spelling check, so this keeps a grade within a few tens of milliseconds. A
 * long essay (1,000 distinct words) against a rubric of 400 distinct words fits.
 */
export const MAX_WORD_PAIRS = 400_000;

/** Wordings one grade may compare (criteria, levels, alternatives, options): a real rubric has tens. */
export const MAX_WORDINGS = 400;

export const LAYOUTS =
  'one criterion per line or bullet ("- names X (1 mark)"), several on a line with their points ("1 point: X. 1 point: Y", "X (1), Y (2)"), ' +
  'a heading over a list ("Award 3 marks for:"), level descriptors ("2 marks: ... / 1 mark: ..."), per-item counts ("1 mark for each reason, up to 3") ' +
  'or a sentence saying what a good answer contains';

interface Outcome {
  got: number;
  line: string;
  met: string[];
  missed: string[];
}

function sameWord(a: string, b: string): boolean {
  const m = matchWord(a, b);
  return m === 'exact' || m === 'lemma';
}

interface ConceptJudgement {
  fraction: number;
  best: Judgement;
  /** The refused wording the answer gives instead. */
  rejected: string | null;
}

function judgeConcept(all: string[], rejects: string[], answer: Answer, fromReference: boolean, extraQuality?: Set<string>): ConceptJudgement {
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
    const why = variants.reduce<string | null>((w, v) => w ?? opposite(v, answer, b.used), null) ?? swapped(said, answer) ?? reversed(said, answer);
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
  const candidates = answer.words.slice(0, OPPOSITE_SCAN).filter((u) => near.has(u.word) && !words.some((cw) => sameWord(cw, u.word)));
  for (const cw of words) {
    if (says(cw)) continue;
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

function missingWords(j: Judgement): string {
  return j.missing.length ? ` — missing: ${j.missing.slice(0, 6).join(', ')}` : '';
}

function scoreConcept(c: Concept, answer: Answer, fromReference: boolean): Outcome {
  // "Gives a correct example of a prime number" for a question about prime numbers: an example is asked for.
  // (The question may say "example" too: "Give an example and explain why ...".)
  const property = numberProperty(c.text, answer.statement ?? '');
  const words = criterionWords((c.variants[0] ?? '').replace(property?.phrase ?? '\0', ' ')).filter((w) => !DETERMINERS.has(w));
  const asksExample = words.some((w) => EXAMPLE_WORDS.has(w)) && words.every((w) => EXAMPLE_WORDS.has(w) || [...forms(w)].some((f) => answer.question.has(f)));
  if (!fromReference && c.variants.length === 1 && asksExample) {
    // "1 mark for an example": an answer gives one rather than saying the word; a number's property is checked.
    const numbers = property && numberExamples(answer.text, property);
    const given = numbers ? numbers.good.length > 0 : givesExample(answer.text);
    const pts = `(${given ? fmt(c.points) : 0}/${fmt(c.points)})`;
    if (given) return { got: c.points, line: `Met: ${c.text} ${pts} (${numbers ? `${numbers.good[0]} is ${property!.name}` : 'an example is given'}).`, met: [c.text], missed: [] };
    const why = numbers?.offered.length ? `${numbers.offered.slice(0, 3).join(', ')} ${numbers.offered.length > 1 ? 'are' : 'is'} not ${property!.name}` : 'no example given';
    return { got: 0, line: `Missed: ${c.text} ${pts} — ${why}.`, met: [], missed: [c.text] };
  }
  const { fraction: f, best: b, rejected } = judgeConcept(c.variants, c.rejects, answer, fromReference);
  // Marks are whole: a half-said one-mark criterion earns nothing; a two-mark one half its marks.
  const got = Math.floor(c.points * f);
  const pts = `(${fmt(got)}/${fmt(c.points)})`;
  if (rejected) return { got: 0, line: `Not accepted: "${c.text}" — the answer gives "${rejected}", which the rubric does not accept (0/${fmt(c.points)}).`, met: [], missed: [`${c.text} (not accepted: ${rejected})`] };
  if (isContradicted(b)) return { got: 0, line: `Contradicted: "${c.text}" — ${b.why ?? 'the answer says the opposite (negation)'} (0/${fmt(c.points)}).`, met: [], missed: [`${c.text} (contradicted)`] };
  if (f === 1) {
    const how = b.matches.includes('synonym') ? ' (by synonym)' : b.matches.includes('spelling') ? ' (allowing for spelling)' : '';
    return { got, line: `Met: ${c.text} ${pts}${how}.`, met: [c.text], missed: [] };
  }
  if (f > 0) return { got, line: `Partly met: ${c.text} ${pts}${missingWords(b)}.`, met: [`${c.text} (partly)`], missed: [] };
  if (b.otherTerm) return { got, line: `Missed: ${c.text} ${pts} — "${b.otherTerm}" names something else.`, met: [], missed: [c.text] };
  return { got, line: `Missed: ${c.text} ${pts}.`, met: [], missed: [c.text] };
}

/** "an example of either", "one example": which example is not content. */
const DETERMINERS = new Set(['either', 'each', 'one', 'both', 'any', 'another', 'other']);
const EXAMPLE_WORDS = new Set(['example', 'examples', 'instance', 'instances']);
/** "with few or no specific examples" asks for none. */
const NONE_BEFORE = new Set(['no', 'few', 'without', 'little', 'limited', 'lacking', 'lacks', 'any']);
function asksForExample(text: string): boolean {
  const t = tokenize(text);
  return t.some((w, i) => EXAMPLE_WORDS.has(w) && !t.slice(Math.max(0, i - 4), i).some((x) => NONE_BEFORE.has(x)));
}
const NONE_ASKED = /\b(?:with\s+)?(?:(?:few|little|very\s+few)\s+or\s+no|no|few|little|limited|without)\s+(?:specific\s+|relevant\s+|named\s+|supporting\s+)?(?:examples?|instances?|evidence|details?)\b/gi;
/** "and links between them", "makes connections": a level that asks for points linked to each other... */
const LINK_WORDS = String.raw`\b(?:links?|linked|linking|connections?|connected|connecting|interrelat\w*)\b(?:\s+(?:between|among)\s+(?:them|these|the\s+\w+|\w+))?`;
const LINKS = new RegExp(LINK_WORDS, 'i');
const ALL_LINKS = new RegExp(LINK_WORDS, 'gi');
/** ...is met by reasoning that joins them. */
const CONNECTIVE = /\b(?:so|because|therefore|thus|hence|which\s+(?:means|leads|causes|results)|this\s+(?:means|leads|causes|results)|causing|leading\s+to|as\s+a\s+result|in\s+turn|results?\s+in|due\s+to)\b/i;
const EXAMPLE_CUE = /\b(?:for example|for instance|e\.\s?g\.?|eg|such as|like|including|instance|example)\b|\b\d/i;
/** Whether the answer gives an example: a cue word quoted as a word ("uses 'like' or 'as'") is not one. */
function givesExample(text: string): boolean {
  return EXAMPLE_CUE.test(text.replace(/(["'])\s*\w+(?:\s+\w+)?\s*\1/g, ' '));
}

interface LevelCheck {
  met: boolean;
  partly: boolean;
  full: boolean;
  why: string;
}

/** A level is met when its descriptor is (70% of its words) and so is what sets it above the level below. */
function checkLevel(l: Levels['levels'][number], lower: Levels['levels'][number] | undefined, guidance: Concept[], answer: Answer, fromReference: boolean): LevelCheck {
  const quality = LEVEL_QUALITY_AND_EXAMPLES;
  const wantsExample = asksForExample(l.text) && !(lower && asksForExample(lower.text));
  const hasExample = givesExample(answer.text);
  const wantsLinks = LINKS.test(l.text) && !(lower && LINKS.test(lower.text));
  // The links are read from the answer's reasoning, not as words it must repeat; "with few or no
  // examples" says what the level lacks, not a denial the answer must make.
  const plain = (t: string) => {
    const unasked = t.replace(NONE_ASKED, ' ');
    return wantsLinks ? unasked.replace(ALL_LINKS, ' ') : unasked;
  };
  l = { ...l, text: plain(l.text), variants: l.variants.map(plain) };
  const hasLinks = CONNECTIVE.test(answer.text);
  // What the question already says ("of global warming") does not stop a descriptor from only counting.
  const levelWords = criterionWords(l.text, quality).filter((w) => ![...forms(w)].some((f) => answer.question.has(f)) || HEADS.has(w));
  if (l.counted && !guidance.length && onlyCounts(levelWords)) {
    // "2 marks: both reasons / 1 mark: one reason": the number of distinct items decides. Each
    // clause of a chain ("X releases CO2, which traps heat") can be one: a cause and its effect.
    const asItems: PerItem = { kind: 'each', text: l.text, points: l.needs, per: 1, options: [], open: true, category: null, contraries: NO_CONTRARIES, topic: l.text, rejects: l.rejects };
    const { units } = countItems(asItems, answer, () => 0, [], { clauses: true });
    const enough = units >= l.needs;
    const why = !enough ? `gives ${units} distinct item(s); it needs ${l.needs}` : wantsExample && !hasExample ? 'no example given' : '';
    return { met: enough && (!wantsExample || hasExample), partly: units > 0, full: enough, why };
  }
  const j = judgeConcept(l.variants, l.rejects, answer, fromReference, quality);
  if (j.rejected) return { met: false, partly: false, full: false, why: `gives "${j.rejected}", which the rubric does not accept` };
  // With indicative points, a level is also met by them, each judged on its own: a contrary word
  // somewhere in a long descriptor does not outweigh them.
  if (isContradicted(j.best) && !guidance.length) return { met: false, partly: false, full: false, why: 'the answer says the opposite' };
  let why = j.best.missing.length ? `missing: ${j.best.missing.slice(0, 6).join(', ')}` : '';
  let extraMet = true;
  if (lower && j.fraction === 1) {
    const lowerWords = lower.variants.flatMap((v) => criterionWords(v, quality));
    const extra = criterionWords(l.variants[0] ?? l.text, quality).filter((w) => !lowerWords.some((o) => sameWord(o, w)));
    if (extra.length) {
      const e = judgeWords(extra, false, answer);
      extraMet = e.coverage >= 0.5;
      if (!extraMet) why = `missing: ${e.missing.slice(0, 6).join(', ')}`;
    }
  }
  if (wantsExample && !hasExample) why = why ? `${why}; no example given` : 'no example given';
  if (wantsLinks && !hasLinks) why = why ? `${why}; its points are not linked` : 'its points are not linked (no "so", "because", "which means"...)';
  const met = j.fraction === 1 && !isContradicted(j.best) && extraMet && (!wantsExample || hasExample) && (!wantsLinks || hasLinks);
  if (met || !guidance.length) return { met, partly: j.fraction > 0, full: j.best.coverage === 1, why };
  // Met instead by enough of the indicative points.
  const made = guidance.filter((g) => judgeConcept(g.variants, g.rejects, answer, fromReference).fraction === 1).length;
  if (made >= l.needs) return { met: true, partly: true, full: made > l.needs || j.best.coverage === 1, why: '' };
  return { met: false, partly: made > 0 || j.fraction > 0, full: false, why: `makes ${made} of the indicative points; it needs ${l.needs}` };
}

/**
 * "3 marks: describes A AND B AND C / 2 marks: two of these processes / 1 mark: one process":
 * lower levels that count the top level's points are met by that many of them, which serve as
 * the levels' indicative points when the rubric lists none.
 */
function topLevelPoints(c: Levels): Concept[] {
  const top = c.levels[0];
  if (!top || c.levels.length < 2) return [];
  const parts = top.text.split(/\s+AND\s+/).map((p) => p.trim()).filter((p) => criterionWords(p).length > 0);
  const counts = c.levels.slice(1).some((l) => l.counted);
  if (parts.length < 2 || !counts) return [];
  return parts.map((p) => ({ kind: 'concept', text: p, points: 1, variants: [p], rejects: top.rejects }));
}

function scoreLevels(c: Levels, answer: Answer, fromReference: boolean, facts: CalcFacts | null): Outcome {
  const guidance = c.guidance.length ? c.guidance : topLevelPoints(c);
  const fromTop = !c.guidance.length && guidance.length > 0;
  const checks = c.levels.map((l, i): LevelCheck => {
    // A worked calculation's levels ("correct answer with steps shown but missing units") are read off the answer by the CAS.
    const needs = facts ? calcNeeds(l.text) : null;
    if (facts && needs) {
      const met = meets(facts, needs);
      return { met, partly: met, full: met, why: met ? '' : `the answer has ${describeFacts(facts)}` };
    }
    if (i === 0 && fromTop) {
      // "A AND B AND C": the top level is all of its points.
      const made = guidance.filter((g) => judgeConcept(g.variants, g.rejects, answer, fromReference).fraction === 1).length;
      return { met: made === guidance.length, partly: made > 0, full: made === guidance.length, why: `makes ${made} of its ${guidance.length} points` };
    }
    return checkLevel(l, c.levels[i + 1], guidance, answer, fromReference);
  });
  const reached = checks.findIndex((k) => k.met);
  const top = fmt(c.points);
  if (reached < 0) {
    const lowest = c.levels[c.levels.length - 1]!;
    const lowCheck = checks[checks.length - 1]!;
    const got = lowCheck.partly && lowest.min < lowest.points ? lowest.min : 0;
    const state = lowCheck.partly ? 'partly meets' : 'does not meet';
    const line = `${got > 0 ? 'Partly met' : 'Missed'}: levels — no level reached (${fmt(got)}/${top}); the answer ${state} the lowest, "${lowest.label}: ${lowest.text}"${lowCheck.why ? ` (${lowCheck.why})` : ''}.`;
    return { got, line, met: got > 0 ? [`${lowest.label}: ${lowest.text} (partly)`] : [], missed: [`${lowest.label}: ${lowest.text}`] };
  }
  const l = c.levels[reached]!;
  const got = l.min < l.points && !checks[reached]!.full ? l.min : l.points;
  const above = c.levels[reached - 1];
  const status = reached === 0 ? 'Met' : 'Partly met';
  const why = above ? `; not "${above.label}": ${checks[reached - 1]!.why || 'its descriptor is not met'}` : '';
  const range = l.min < l.points ? (got === l.points ? ' (top of its range: every word of it is there)' : ' (bottom of its range: not every word of it is there)') : '';
  return {
    got,
    line: `${status}: level reached "${l.label}: ${l.text}"${range} (${fmt(got)}/${top})${why}.`,
    met: [`${l.label}: ${l.text}`],
    missed: above ? [`${above.label}: ${above.text}`] : [],
  };
}

/** "Give two examples of mammals ...": the category a rubric's bare "each correct example" means. */
/**
 * A two-word option met by its second word alone, which the answer gives with another word or a
 * denial before it: "round arches" is not "pointed arches", nor "no perspective" "linear
 * perspective". Its first word alone is fine ("alliances" for "the alliance system").
 */
function otherModifier(option: string, j: Judgement, answer: Answer): boolean {
  const words = criterionWords(option);
  if (words.length !== 2 || j.missing[0] !== words[0] || j.used.length !== 1) return false;
  const tokens = tokenize(answer.text);
  const at = tokens.indexOf(j.used[0]!);
  const before = tokens[at - 1];
  return at > 0 && before !== undefined && (NEGATIONS.has(before) || !STOPWORDS.has(before));
}

/** "Give examples of renewable energy sources": what a descriptor that only counts ("each example") is about. */
function categoryFromQuestion(statement: string): Pick<PerItem, 'category' | 'contraries'> | null {
  const m = /\b(?:examples?|instances?|kinds?|types?)\s+of\s+([a-z]+(?:[ -][a-z]+){0,3})/i.exec(statement);
  if (!m) return null;
  const text = `example of ${m[1]}`;
  return { category: categoryOf(text.split(' ').slice(0, 3).join(' ')), contraries: contrariesOf(categoryWords(text)) };
}

function scorePerItem(rubricItem: PerItem, answer: Answer, fromReference: boolean, elsewhere: string[], statement: string): Outcome {
  const fromQuestion = !rubricItem.category && !rubricItem.options.length && onlyCounts(criterionWords(rubricItem.topic)) ? categoryFromQuestion(statement) : null;
  const c = fromQuestion ? { ...rubricItem, ...fromQuestion } : rubricItem;
  const judgeOption = (o: Concept, a: Answer): number => {
    const j = judgeConcept(o.variants, o.rejects, a, fromReference);
    return j.fraction === 1 && otherModifier(o.text, j.best, a) ? 0 : j.fraction;
  };
  const { units, counted, refused } = countItems(c, answer, judgeOption, elsewhere);
  const got = Math.min(c.points, units * c.per);
  const capItems = fmt(c.points / c.per);
  const list = counted.length ? `: ${counted.slice(0, 8).map((s) => `"${s}"`).join(', ')}` : '';
  const kind = c.category ? ` (each a kind of ${c.category})` : '';
  const notCounted = refused.length ? `; not counted: ${refused.slice(0, 4).join('; ')}` : '';
  const body = `${c.text} — ${fmt(units)} distinct item(s) counted${kind}${list}, ${fmt(c.per)} each, at most ${capItems}${notCounted} (${fmt(got)}/${fmt(c.points)})`;
  if (got >= c.points) return { got, line: `Met: ${body}.`, met: [c.text], missed: [] };
  if (got > 0) return { got, line: `Partly met: ${body}.`, met: [`${c.text} (${fmt(units)} of ${capItems})`], missed: [] };
  return { got, line: `Missed: ${body}.`, met: [], missed: [c.text] };
}

function wordings(c: Criterion): string[] {
  if (c.kind === 'concept') return [...c.variants, ...c.rejects];
  if (c.kind === 'levels') return [...c.levels.flatMap((l) => [...l.variants, ...l.rejects]), ...c.guidance.flatMap((g) => g.variants)];
  return [c.topic, ...c.rejects, ...c.options.flatMap((o) => o.variants)];
}

interface Prepared {
  read: ReadRubric;
  wordingCount: number;
  rubricWords: number;
}

/** Rubrics read recently: a set's rubric is graded once per student, and reading it costs more than most grades. */
const PREPARED = new Map<string, Prepared>();
const PREPARED_MAX = 128;
/** Longer rubrics are read each time: the cache stays a few MB whatever is sent. */
const PREPARED_MAX_CHARS = 4000;

/** A rubric as read, from the cache of rubrics read recently. */
export function readPrepared(rubric: string, fromReference: boolean): ReadRubric {
  return prepare(rubric, fromReference).read;
}

function prepare(rubric: string, fromReference: boolean): Prepared {
  const key = `${fromReference ? 'r' : 's'}${rubric}`;
  const hit = PREPARED.get(key);
  if (hit) {
    PREPARED.delete(key);
    PREPARED.set(key, hit);
    return hit;
  }
  const read = fromReference ? readReference(rubric) : readRubric(rubric);
  const wordingCount = read.criteria.reduce((n, c) => n + wordings(c).length, 0);
  const rubricWords = wordingCount > MAX_WORDINGS ? 0 : new Set(read.criteria.flatMap((c) => wordings(c).flatMap(tokenize))).size;
  const prepared = { read, wordingCount, rubricWords };
  if (rubric.length > PREPARED_MAX_CHARS) return prepared;
  if (PREPARED.size >= PREPARED_MAX) PREPARED.delete(PREPARED.keys().next().value!);
  PREPARED.set(key, prepared);
  return prepared;
}

export function gradeRubric(userAnswer: string, rubric: string, fromReference: boolean, statement = '', reference = ''): GradeResult {
  const field = fromReference ? 'correct_answer' : 'scoring_details';
  const { read, wordingCount, rubricWords } = prepare(rubric, fromReference);
  if (read.criteria.length === 0) {
    throw new GradingInputError(
      ['body', 'problem', field],
      fromReference
        ? 'The reference answer has no words to compare an answer with.'
        : `The rubric has no criterion to grade against (a heading or a total alone is not one). Write ${LAYOUTS}.`,
    );
  }
  if (wordingCount > MAX_WORDINGS) {
    throw new GradingInputError(
      ['body', 'problem', field],
      `The rubric reads as ${wordingCount} criteria and alternatives; at most ${MAX_WORDINGS} can be compared with an answer. Shorten it to the points that earn marks.`,
    );
  }
  const answer = readAnswer(userAnswer, questionWords(statement));
  answer.statement = statement;
  const facts = calcFacts(userAnswer, reference, statement);
  answer.calc = facts && { ...facts, reference };
  if (rubricWords * answer.words.length > MAX_WORD_PAIRS) {
    throw new GradingInputError(
      ['body', 'problem', field],
      `The rubric (${rubricWords} distinct words) and the answer (${answer.words.length}) are too large to grade together: their product may be at most ${MAX_WORD_PAIRS.toLocaleString('en-US')}. Shorten the rubric to the concepts that earn points.`,
    );
  }
  // Each criterion's own words: a part of the answer that holds another's is about that one.
  const claimWords = read.criteria.map((c) => new Set(wordings(c).flatMap((w) => criterionWords(w)).filter((w) => ![...forms(w)].some((f) => answer.question.has(f)))));
  const outcomes = read.criteria.map((c, i) => {
    answer.otherClaims = new Set(claimWords.flatMap((ws, k) => (k === i ? [] : [...ws].filter((w) => !claimWords[i]!.has(w)))));
    if (c.kind === 'concept') return scoreConcept(c, answer, fromReference);
    if (c.kind === 'levels') return scoreLevels(c, answer, fromReference, facts);
    const elsewhere = read.criteria.filter((o) => o !== c).flatMap((o) => (o.kind === 'concept' ? o.variants : o.kind === 'levels' ? o.levels.flatMap((l) => l.variants) : o.options.flatMap((x) => x.variants)));
    return scorePerItem(c, answer, fromReference, elsewhere, statement);
  });
  const max = Math.round(read.criteria.reduce((s, c) => s + c.points, 0) * 100) / 100;
  const score = Math.round(outcomes.reduce((s, o) => s + o.got, 0) * 100) / 100;
  const notes = read.notes.length ? `${read.notes.join(' ')} ` : '';
  return {
    score,
    max_score: max,
    method: 'rubric',
    met: outcomes.flatMap((o) => o.met),
    missed: outcomes.flatMap((o) => o.missed),
    explanation: `${fmt(score)} of ${fmt(max)} point(s). ${notes}${outcomes.map((o) => o.line).join(' ')}`,
  };
}

