/**
 * Whether an answer says what a rubric wording says: the share of the wording's content words the
 * answer holds (lemma, synonym or spelling match, text.ts), and whether the answer says them with
 * the opposite polarity (a negation cue up to NEG_SCOPE words before a matched word, same clause).
 */
import lemmatizer from 'wink-lemmatizer';
import { formulaNames } from '../chem.ts';
import { MATCH } from '../thresholds.ts';
import { longerTerm } from '../longer-term.ts';
import type { CalcFacts } from './calc.ts';
import { lookup, synset } from '../../lexicon/wordnet.ts';
import { clauses, forms, matchWord, NEGATIONS, plainChange, STOPWORDS, tokenize, type WordMatch } from '../text.ts';

const NEG_SCOPE = 5;

/** Instruction words of a rubric ("the answer should explain why", "names", "correctly"): not what the answer must say. */
const LEAD_WORDS = [
  /^(?:a|an|the)\s+(?:(?:good|full|complete|correct|strong|excellent|top)\s+)?(?:student|answer|response|candidate|pupil)s?\s+(?:should|must|will|needs?\s+to|has\s+to|is\s+expected\s+to|may)?\s*/i,
  /^(?:students?|answers?|responses?|candidates?|pupils?)\s+(?:should|must|will|needs?\s+to|has\s+to|may)\s*/i,
  /^(?:full\s+credit|credit|look|award(?:\s+\w+)?(?:\s+(?:marks?|points?))?)\s+(?:for|if|when)\s+/i,
  /^(?:must|should|also)\s+/i,
  /^(?:correctly|clearly|accurately|fully)\s+/i,
  /^(?:mentions?|states?|explains?|names?|identif(?:y|ies)|describes?|defines?|lists?|outlines?|gives?|provides?|suggests?|recogni[sz]es?|notes?|discusses?|includes?|says?|writes?|refers?\s+to|points?\s+out|demonstrates?|shows?|showing)\b\s*(?:(?:that|why|how|what|which|whether)\b\s*)?/i,
];

/** The part of a rubric wording the answer must say. */
export function matchable(text: string): string {
  let t = text.trim();
  for (let round = 0; round < 6; round++) {
    const before = t;
    for (const re of LEAD_WORDS) t = t.replace(re, '');
    if (t === before) break;
  }
  return t.trim() || text.trim();
}

/** Words of judgement, not content ("correctly", "detailed"): no answer says them. */
const QUALITY = new Set(
  'correctly clearly accurately correct valid relevant appropriate suitable thorough thoroughly detailed fully partially briefly vaguely sensible reasonable explanation explanations description descriptions understanding knowledge demonstrates demonstrate awareness identification identifies identify identifying naming stating mentioning recognition recognises recognizes'.split(' '),
);
/** More such words, read as judgement only in level descriptors ("a basic, limited explanation"). */
export const LEVEL_QUALITY = new Set(
  'detail details basic limited simple clear brief vague some partial full good excellent well developed logical coherent sophisticated accurate sound little few mostly generally minimal superficial attempt response answer reference references extended both specific particular named relevant'.split(' '),
);
/** Level descriptors' judgement words and "example": a level's example is looked for as a cue, not a word. */
export const LEVEL_QUALITY_AND_EXAMPLES = new Set([...LEVEL_QUALITY, 'example', 'examples', 'instance', 'instances']);

/** Particles of phrasal verbs ("speeds up", "gives off"): the verb carries the meaning. */
const PARTICLES = new Set(['up', 'out', 'off']);

export function contentWords(words: string[]): string[] {
  return words.filter((w) => !STOPWORDS.has(w) && !NEGATIONS.has(w) && !PARTICLES.has(w));
}

const wordsCache = new Map<string, string[]>();
/** Characters of wording the cache may hold (any text can be sent): emptied when it would grow past this. */
const WORDS_CACHE_CHARS = 1_000_000;
let wordsCacheChars = 0;

/** The words a wording is judged on; cached for the plain, level and as-written readings (a rubric's wordings come back with every answer). */
export function criterionWords(wording: string, extraQuality?: Set<string>, asWritten = false): string[] {
  const kind = asWritten ? 'w' : !extraQuality ? 'c' : extraQuality === LEVEL_QUALITY_AND_EXAMPLES ? 'l' : null;
  if (kind === null) return wordsOf(wording, extraQuality, asWritten);
  const key = kind + wording;
  const hit = wordsCache.get(key);
  if (hit) return hit;
  const words = wordsOf(wording, extraQuality, asWritten);
  if (wordsCacheChars + key.length > WORDS_CACHE_CHARS) {
    wordsCache.clear();
    wordsCacheChars = 0;
  }
  wordsCache.set(key, words);
  wordsCacheChars += key.length;
  return words;
}

function wordsOf(wording: string, extraQuality: Set<string> | undefined, asWritten: boolean): string[] {
  if (asWritten) {
    // A reference answer's words are all the answer's: no instruction or judgement words to drop.
    const tokens = tokenize(wording);
    const words = contentWords(tokens);
    return words.length ? words : tokens.filter((w) => !NEGATIONS.has(w));
  }
  const tokens = tokenize(matchable(wording));
  const words = contentWords(tokens).filter((w) => !QUALITY.has(w) && !extraQuality?.has(w));
  if (words.length) return words;
  const loose = contentWords(tokens);
  return loose.length ? loose : tokens.filter((w) => !NEGATIONS.has(w));
}

/** A distinct word of the answer at its first occurrence (clause, index within the clause), and whether every occurrence is negated. */
interface AnswerWord {
  word: string;
  clause: number;
  index: number;
  /** Every occurrence has a negation cue up to NEG_SCOPE words before it in its clause. */
  negated: boolean;
}

export interface Answer {
  text: string;
  /** Lemmas of the question's content words: a criterion's words the question already says may be left out. */
  question: Set<string>;
  /** Words of the rubric's other criteria, while one criterion is scored. */
  otherClaims?: Set<string>;
  /** The question as written (empty when unknown). */
  statement?: string;
  /** A worked calculation's facts, when the problem has a mathematical reference (calc.ts). */
  calc?: (CalcFacts & { reference: string }) | null;
  clauses: string[][];
  /** Distinct words in document order: the first occurrence of a match is where a scan of every word would stop too. */
  words: AnswerWord[];
}

export function questionWords(statement: string): Set<string> {
  return new Set(contentWords(tokenize(statement)).flatMap((w) => [...forms(w)]));
}

const FORMULA_TOKEN = /\b(?:[A-Z][a-z]?[0-9\u2080-\u2089]*){1,4}\b/g;
const SUBSCRIPT = /[\u2080-\u2089]/g;
const namesCache = new Map<string, string>();
/** The names a chemical formula stands for, as WordNet words: "NaCl" → sodium chloride, common salt; "H2O" → water. */
function formulaWords(token: string): string {
  let v = namesCache.get(token);
  if (v === undefined) {
    const plain = token.replace(SUBSCRIPT, (d) => String(d.charCodeAt(0) - 0x2080));
    const names = formulaNames(plain);
    const synsets = [...names.flatMap((n) => lookup(n).slice(0, 1)), ...lookup(plain).filter((o) => synset(o).words.includes(plain))];
    v = [...new Set([...names, ...synsets.flatMap((o) => synset(o).words)])].filter((w) => w !== plain).join(', ');
    if (namesCache.size > 10_000) namesCache.clear();
    namesCache.set(token, v);
  }
  return v;
}

/** "forming NaCl and H2O": each formula is followed by its names, so "salt" and "water" are said. */
function withFormulaNames(text: string): string {
  return text.replace(FORMULA_TOKEN, (t) => {
    const names = formulaWords(t);
    return names ? `${t} (${names})` : t;
  });
}

export function readAnswer(text: string, question: Set<string> = new Set()): Answer {
  const userClauses = clauses(withFormulaNames(plainChange(text)));
  const seen = new Map<string, AnswerWord>();
  const words: AnswerWord[] = [];
  userClauses.forEach((clause, ci) =>
    clause.forEach((word, wi) => {
      const negated = clause.slice(Math.max(0, wi - NEG_SCOPE), wi).some((w) => NEGATIONS.has(w));
      const first = seen.get(word);
      // "No light of its own; it reflects light": the word is said plainly once, so it is not denied.
      if (first) {
        if (!negated) first.negated = false;
        return;
      }
      const w = { word, clause: ci, index: wi, negated };
      seen.set(word, w);
      words.push(w);
    }),
  );
  return { text, question, clauses: userClauses, words };
}

export interface Judgement {
  coverage: number;
  contradicted: boolean;
  matches: WordMatch[];
  /** The wording's words the answer lacks. */
  missing: string[];
  /** Answer words that matched. */
  used: string[];
  /** Why it is contradicted, when not by a negation. */
  why?: string;
  /** A longer name of something else that holds the reference's words (reference answers only). */
  otherTerm?: string;
}

const OPPOSITE_PREFIX = /^(?:in|un|non|dis|im|ir|il|anti)-?$/;

/** "independent" is not a misspelling of "dependent", nor "unstable" of "stable". */
function prefixedOpposite(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.length > short.length && long.endsWith(short) && OPPOSITE_PREFIX.test(long.slice(0, long.length - short.length));
}

/**
 * Verbs with a sense beside almost every other verb ("did" is a synonym of "caused", "kept" of
 * "held"): in an answer they say too little to stand for a criterion's verb.
 */
const LIGHT_VERBS = new Set(['be', 'do', 'have', 'get', 'take', 'give', 'keep', 'go', 'put', 'set', 'come', 'let', 'say']);

/** matchWord, refusing opposites formed with a prefix and light verbs as synonyms; a noun said as a verb of its meaning counts ("spins" for "rotation"). */
export function rubricWordMatch(conceptWord: string, userWord: string): WordMatch {
  if (prefixedOpposite(conceptWord, userWord)) return null;
  const m = matchWord(conceptWord, userWord);
  if (m === 'synonym' && LIGHT_VERBS.has(lemmatizer.verb(userWord))) return null;
  if (m) return m;
  // A derived form ("rotate" for "rotation") is the word in another form; another word of the derived
  // sense ("spin", "demand" for "necessity" by way of "necessitate") is a WordNet link, weaker evidence.
  if (!LIGHT_VERBS.has(lemmatizer.verb(userWord)) && [userWord, lemmatizer.verb(userWord), lemmatizer.noun(userWord)].some((f) => derivedForms(conceptWord).has(f))) {
    return sharedStem(conceptWord, userWord) >= DERIVED_STEM ? 'lemma' : 'synonym';
  }
  return kindNamedAfter(userWord, conceptWord) ? 'synonym' : null;
}

/** Letters a derived form shares with its word at the start ("rotat-ion", "rotat-e"; "di-e" for "dea-th" is not). */
const DERIVED_STEM = 4;

function sharedStem(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Senses of a word read for its derived forms: the frequent ones. */
const DERIVED_SENSES = 3;
const derivedCache = new Map<string, Set<string>>();
/**
 * The nouns and verbs WordNet derives from a word's frequent noun and verb senses, with the other
 * words of their synsets: "rotation" → rotate, revolve, spin; "death" → die. The same claim said
 * with the verb.
 */
function derivedForms(word: string): Set<string> {
  let v = derivedCache.get(word);
  if (!v) {
    v = new Set<string>();
    for (const pos of ['noun', 'verb'] as const) {
      const lemma = pos === 'noun' ? lemmatizer.noun(word) : lemmatizer.verb(word);
      for (const off of lookup(lemma, pos).slice(0, DERIVED_SENSES)) {
        for (const p of synset(off, pos).pointers) {
          if (p.symbol !== '+' || (p.pos !== 'noun' && p.pos !== 'verb')) continue;
          for (const w of synset(p.offset, p.pos).words) if (!w.includes(' ')) v.add(w.toLowerCase());
        }
      }
    }
    if (derivedCache.size > 10_000) derivedCache.clear();
    derivedCache.set(word, v);
  }
  return v;
}

const kindCache = new Map<string, boolean>();
/**
 * "sunlight" is a kind of light, "rainwater" of water: a compound named after what it is a kind
 * of and after what its definition says ("the rays of the sun"). A prefix is not such a part: a
 * pronucleus is a nucleus, but not the answer "nucleus".
 */
function kindNamedAfter(compound: string, head: string): boolean {
  if (head.length < 4 || compound.length <= head.length || !compound.endsWith(head)) return false;
  const first = compound.slice(0, compound.length - head.length);
  const key = `${compound} ${head}`;
  let v = kindCache.get(key);
  if (v === undefined) {
    v = lookup(compound).some(
      (off) =>
        new RegExp(`\\b${first}`, 'i').test(synset(off).definition) &&
        synset(off).pointers.some((p) => (p.symbol === '@' || p.symbol === '@i') && synset(p.offset).words.some((w) => w.toLowerCase() === head)),
    );
    if (kindCache.size > 10_000) kindCache.clear();
    kindCache.set(key, v);
  }
  return v;
}

const phraseCache = new Map<string, boolean>();
/** Two words WordNet lists together as one noun ("carbon dioxide", "cell membrane"). */
function isPhrase(a: string, b: string): boolean {
  const key = `${a} ${b}`;
  let v = phraseCache.get(key);
  if (v === undefined) {
    v = lookup(key).length > 0;
    if (phraseCache.size > 10_000) phraseCache.clear();
    phraseCache.set(key, v);
  }
  return v;
}

/**
 * How much of a criterion the answer says. Words the question already says ("the Industrial
 * Revolution" in "Describe the Industrial Revolution", "the treaty" in a question about the
 * treaty) need not be repeated, and repeating them earns nothing, when the criterion says
 * something else too.
 */
export function judgeWords(all: string[], negated: boolean, answer: Answer, skip?: (answerWord: string) => boolean): Judgement {
  const own = all.filter((w) => /^\d/.test(w) || ![...forms(w)].some((f) => answer.question.has(f)));
  const j = judgeList(own.length > 0 ? own : all, negated, answer, skip);
  // "Explains why 1 is not prime" against "1 has only one factor, so it is not prime": a denial is
  // said of the clause, wherever its cue stands and whichever of its words the question gave.
  if (negated && j.contradicted && answer.clauses.some((c) => c.some((w) => NEGATIONS.has(w)) && c.some((w) => all.some((cw) => rubricWordMatch(cw, w))))) {
    return { ...j, contradicted: false };
  }
  return j;
}

/**
 * "run-off" said as "runs off", "short-term" as "short term", or "runoff": a hyphenated word of a
 * criterion met by its parts, side by side in one clause, or written as one word (tuned on D).
 */
function compoundSaid(cw: string, answer: Answer): string[] | null {
  const parts = cw.split('-');
  if (parts.length < 2 || parts.some((p) => !/^[a-z]+$/.test(p))) return null;
  const joined = parts.join('');
  const one = answer.words.find((w) => !w.negated && (w.word === joined || lemmatizer.noun(w.word) === joined || lemmatizer.verb(w.word) === joined));
  if (one) return [one.word];
  const same = (a: string, b: string) => {
    const m = matchWord(a, b);
    return m === 'exact' || m === 'lemma';
  };
  for (const clause of answer.clauses) {
    for (let i = 0; i + parts.length <= clause.length; i++) {
      if (parts.every((p, k) => same(p, clause[i + k]!))) return clause.slice(i, i + parts.length);
    }
  }
  return null;
}

/** How much of `words` (a wording's words; `negated` when the wording itself is negative) the answer says. */
function judgeList(words: string[], negated: boolean, answer: Answer, skip?: (answerWord: string) => boolean): Judgement {
  let hit = 0;
  const matches: WordMatch[] = [];
  const missing: string[] = [];
  const used: string[] = [];
  let userNegated = false;
  for (const cw of words) {
    let best: WordMatch = null;
    // The first plain use of a matching word; a denied one ("no light of its own") only when there is no other.
    let denied: { match: WordMatch; word: string } | null = null;
    for (const { word: uw, negated: wordNegated } of answer.words) {
      if (skip?.(uw)) continue;
      const m = rubricWordMatch(cw, uw);
      if (!m) continue;
      if (wordNegated) {
        denied ??= { match: m, word: uw };
        continue;
      }
      best = m;
      used.push(uw);
      break;
    }
    if (!best && denied) {
      best = denied.match;
      used.push(denied.word);
      userNegated = true;
    }
    if (!best) {
      const parts = compoundSaid(cw, answer);
      if (parts) {
        best = 'lemma';
        used.push(...parts);
      }
    }
    matches.push(best);
    if (best) hit++;
    else missing.push(cw);
  }
  // A name of two words is one thing: "carbon monoxide" says half of "carbon dioxide" and none of it.
  for (let i = 0; i + 1 < words.length; i++) {
    if (!matches[i] === !matches[i + 1] || !isPhrase(words[i]!, words[i + 1]!)) continue;
    const k = matches[i] ? i : i + 1;
    matches[k] = null;
    missing.push(words[k]!);
    hit--;
  }
  const coverage = words.length ? hit / words.length : 0;
  return { coverage, contradicted: hit > 0 && userNegated !== negated, matches, missing, used };
}

export function judge(wording: string, answer: Answer, opts: { extraQuality?: Set<string>; skip?: (w: string) => boolean; asWritten?: boolean } = {}): Judgement {
  const negated = tokenize(wording).some((w) => NEGATIONS.has(w));
  const j = requireNamed(wording, judgeWords(criterionWords(wording, opts.extraQuality, opts.asWritten), negated, answer, opts.skip), answer);
  return opts.asWritten ? j : requireClaim(wording, requireListed(wording, j, answer));
}

/**
 * Names say what a criterion is about, its other words what it claims: "the President vetoes it"
 * says nothing of "signed by the President", nor "the Earth is closer" of "the tilt of the Earth".
 */
function requireClaim(wording: string, j: Judgement): Judgement {
  if (j.coverage < MET) return j;
  const names = new Set([...wording.matchAll(/(?<![.!?]\s|^)\b([A-Z][a-z]+)\b/g)].map((m) => m[1]!.toLowerCase()));
  if (names.size === 0) return j;
  const claims = criterionWords(wording).filter((w) => !names.has(w));
  // j.missing lists the criterion's words the answer lacks: a claim word not among them was said.
  return claims.length === 0 || claims.some((w) => !j.missing.includes(w)) ? j : { ...j, coverage: Math.min(j.coverage, 0.39) };
}

/** Items of a list of three or more joined by "and" ("solid, liquid and gas"); none for other wordings. */
export function andList(wording: string): string[] {
  if (/\b(?:any|one|two|three|four)\s+of\b|\bat\s+least\b|\bor\b|\be\.?g\b|\bsuch\s+as\b/i.test(wording)) return [];
  const body = wording.slice(wording.lastIndexOf(':') + 1);
  const m = /^(.*?),?\s+and\s+([^,.;()]+)/i.exec(body);
  if (!m || !m[1]!.includes(',')) return [];
  const chunks = m[1]!.split(',').map((c) => c.trim());
  const words = (c: string) => contentWords(tokenize(c));
  // The first chunk may carry the words before the list ("plants need light"): its last word starts it.
  const first = words(chunks[0]!);
  const items = [first.length > 3 ? first.slice(-1) : first, ...chunks.slice(1).map(words), words(m[2]!)];
  // Things or kinds named ("igneous, sedimentary and metamorphic"), not how something is done:
  // "far apart, moving quickly and randomly" describes, it does not list.
  const manner = items.some((i) => i.some((w) => /(?:ly|ing)$/.test(w) && lookup(w).length === 0));
  return items.length >= 3 && !manner && items.every((i) => i.length > 0 && i.length <= 3) ? items.map((i) => i.join(' ')) : [];
}

/**
 * "Names the three states of matter: solid, liquid and gas": a list joined by "and" is all of it;
 * two of the three is not the criterion, however many of its words are said.
 */
function requireListed(wording: string, j: Judgement, answer: Answer): Judgement {
  if (j.coverage === 0) return j;
  const items = andList(wording);
  if (!items.length) return j;
  const said = (item: string) =>
    tokenize(item).some((w) => [...forms(w)].some((f) => answer.question.has(f)) || answer.words.some((u) => !u.negated && rubricWordMatch(w, u.word) !== null));
  const lacking = items.filter((i) => !said(i));
  return lacking.length ? { ...j, coverage: Math.min(j.coverage, 0.39), missing: [...new Set([...lacking, ...j.missing])] } : j;
}

// "one" is left out: "one effect", "one rotation" name a thing, not a count to check.
const NUMBER_WORDS = new Set('zero two three four five six seven eight nine ten eleven twelve hundred thousand million'.split(' '));

/**
 * Names and numbers a criterion states are what it is about: "began in Britain" is not met by
 * "started in France", nor "four chambers" by "two chambers", however many other words match.
 * Words the question already says are exempt.
 */
export function requireNamed(wording: string, j: Judgement, answer: Answer): Judgement {
  if (j.coverage === 0) return j;
  // A count of generic things ("compares two things") is not a number the answer must say.
  const named = [...wording.matchAll(/(?<![.!?]\s|^)\b([A-Z][a-z]+)\b|\b(\d+(?:\.\d+)?)\b|\b([a-z]+)\b(?!\s+(?:things?|ways?|points?|reasons?|examples?|factors?|items?|parts?)\b)/g)]
    .map((m) => (m[1] ? m[1].toLowerCase() : m[2] ?? (NUMBER_WORDS.has(m[3]!) ? m[3]! : null)))
    .filter((w): w is string => !!w && !STOPWORDS.has(w) && (/^\d/.test(w) || ![...forms(w)].some((f) => answer.question.has(f))));
  const lacking = named.filter((w) => j.missing.includes(w));
  return lacking.length ? { ...j, coverage: Math.min(j.coverage, 0.39), missing: [...new Set([...lacking, ...j.missing])] } : j;
}

/** A reference answer's words inside a longer name of something else in the answer. */
export function firstLongerTerm(wording: string, answer: Answer): string | null {
  const words = contentWords(tokenize(wording));
  for (const clause of answer.clauses) {
    const term = longerTerm(words, clause);
    if (term) return term;
  }
  return null;
}

/** The share of a criterion's content words an answer must say for the criterion to be met (thresholds.ts). */
export const MET = MATCH.met;

/** Met (1) from half of the words, partly (0.5) from 40% (a criterion of two marks or more earns half its marks), else 0; contradicted is 0. */
export function fraction(j: Judgement): number {
  if (j.contradicted || j.otherTerm) return 0;
  return j.coverage >= MET ? 1 : j.coverage >= MATCH.partly ? 0.5 : 0;
}

export function best(js: Judgement[]): Judgement {
  return js.reduce((a, b) => (fraction(b) > fraction(a) || (fraction(b) === fraction(a) && b.coverage > a.coverage && !b.contradicted) ? b : a));
}

/** Share of a refusal's words the answer must give: all or nearly ("its water powered watermills" for "the Nile was used to power watermills"). */
const REFUSED_SHARE = MATCH.refused;

/**
 * Whether the answer gives a refused wording ("do not accept X"): all or nearly all of its words
 * (the question's own need not be said), none by a slip of spelling ("sibilance" is not
 * "simile"), and not denied. Half of a refusal is not a refusal.
 */
export function saysRefused(refusal: string, answer: Answer): boolean {
  const j = judge(refusal, answer);
  return j.coverage >= REFUSED_SHARE && !j.contradicted && !j.matches.includes('spelling');
}

export function isContradicted(j: Judgement): boolean {
  return j.contradicted && j.coverage >= MATCH.partly;
}

export { tokenize, rubricWordMatch as matchWord, STOPWORDS, NEGATIONS };
