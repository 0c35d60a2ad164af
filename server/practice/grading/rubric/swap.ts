/**
 * Right words in the wrong places: "In a gas the particles are close together ..., while in a
 * solid they ... are far apart" says the criterion's words, but says of the gas what the criterion
 * says of the solid. A criterion word W is swapped when the answer names a contrasting word U (an
 * antonym, or a thing of the same kind: solid/gas, simile/metaphor, left/right, arteries/veins)
 * and the criterion's other words are said more in U's part of the answer than in W's. Parts are clauses, and "and the ..." starts a new one ("the left side pumps ... and the
 * right side pumps ...").
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Synset } from '../../lexicon/wordnet.ts';
import { type Answer, criterionWords, matchWord, tokenize, STOPWORDS } from './match.ts';

const PARTS = /[.;:!?,]|\b(?:but|however|although|though|whereas|while|unlike)\b|\band\s+(?=(?:the|a|an|its|their|in|on|at|for)\b)/i;
/** Words of the answer read for swaps (its first ones): a long essay is not searched pair by pair. */
const SCAN = 200;
/** Senses of a word read for kinds: the two most frequent ("gas" the state of matter, not petrol; "blow" a stroke, not a kind of break). */
const SENSES = 2;
/** Criterion words the answer must say in the other word's part for a swap: one could be chance... */
const SAID_THERE = 2;
/**
 * ...except when none is said in the word's own part only: in a short criterion ("the anode is the
 * positive electrode"), or where the answer gives the word a part of its own ("the left side pumps
 * blood to the lungs and the right side pumps it to the body": the body is said of the right side).
 */
const SHORT = 4;

const CACHE_SIZE = 20_000;
/** A bounded cache: any words can be sent, so each map empties when it grows past CACHE_SIZE. */
function cached<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size >= CACHE_SIZE) map.clear();
    map.set(key, v);
  }
  return v;
}

function up(s: Synset, depth: number, acc = new Set<number>()): Set<number> {
  if (depth === 0) return acc;
  for (const p of s.pointers) {
    if (p.symbol !== '@' && p.symbol !== '@i') continue;
    acc.add(p.offset);
    up(synset(p.offset), depth - 1, acc);
  }
  return acc;
}

const sensesCache = new Map<string, Synset[]>();
/** A word's frequent noun senses (WordNet lists them most frequent first). */
function nounSenses(word: string): Synset[] {
  return cached(sensesCache, word, () => [...new Set([...lookup(word), ...lookup(lemmatizer.noun(word))])].slice(0, SENSES).map((o) => synset(o)));
}

const kindsCache = new Map<string, Set<number>>();
/** What a word's frequent senses are kinds of, one level up. */
function kinds(word: string): Set<number> {
  return cached(kindsCache, word, () => new Set(nounSenses(word).flatMap((s) => [...up(s, 1)])));
}

const antonymsCache = new Map<string, Set<string>>();
/** The words WordNet gives as antonyms of any sense of `word` (adjective, verb, noun). */
function antonyms(word: string): Set<string> {
  return cached(antonymsCache, word, () => {
    const out = new Set<string>();
    const lemmas = { adj: lemmatizer.adjective(word), verb: lemmatizer.verb(word), noun: lemmatizer.noun(word) };
    for (const pos of ['adj', 'verb', 'noun'] as const) {
      for (const off of new Set([...lookup(word, pos), ...lookup(lemmas[pos], pos)])) {
        for (const p of synset(off, pos).pointers) if (p.symbol === '!') for (const w of synset(p.offset, p.pos).words) out.add(w.toLowerCase());
      }
    }
    return out;
  });
}

function isAntonym(a: string, b: string): boolean {
  const set = antonyms(a);
  return set.size > 0 && [b, lemmatizer.adjective(b), lemmatizer.verb(b), lemmatizer.noun(b)].some((f) => set.has(f));
}

const contrastCache = new Map<string, boolean>();
/** Contrasting words: antonyms, or nouns of one kind (their frequent senses) where neither is a kind of the other. */
export function contrasting(a: string, b: string): boolean {
  return cached(contrastCache, `${a} ${b}`, () => {
    const ka = kinds(a);
    const sameKind = ka.size > 0 && [...kinds(b)].some((k) => ka.has(k));
    if (!(sameKind || isAntonym(a, b)) || matchWord(a, b)) return false;
    if (!sameKind) return true;
    const kindOf = (x: Synset[], y: Synset[]) => x.some((s) => { const anc = up(s, 12); return y.some((t) => anc.has(t.offset)); });
    return !kindOf(nounSenses(a), nounSenses(b)) && !kindOf(nounSenses(b), nounSenses(a));
  });
}

/** The answer's parts: clauses, and "and the ..." starts a new one. */
function answerParts(answer: Answer): string[][] {
  return sentencesOf(answer).flatMap((s) => s.parts);
}

export interface Sentence {
  tokens: string[];
  parts: string[][];
}

/**
 * "The left side pumps blood to the lungs and the right side pumps it to the body": a pronoun
 * after a verb an earlier part of the sentence used stands for what followed that verb there.
 * Each such pronoun is replaced by that word, so the part says what it claims.
 */
function resolvePronouns(parts: string[][]): string[][] {
  return parts.map((part, i) =>
    part.map((t, j) => {
      if (i === 0 || j === 0 || (t !== 'it' && t !== 'them')) return t;
      for (const earlier of parts.slice(0, i).reverse()) {
        const at = earlier.indexOf(part[j - 1]!);
        const object = at < 0 ? undefined : earlier.slice(at + 1).find((x) => !STOPWORDS.has(x));
        if (object && object !== 'it' && object !== 'them') return object;
      }
      return t;
    }),
  );
}

const SENTENCE_END = /(?<!\d)[.;!?]|[.;!?](?!\d)/;
const read = new WeakMap<Answer, Sentence[]>();
/** The answer's sentences, as words and as parts; read once per answer (every criterion asks). */
export function sentencesOf(answer: Answer): Sentence[] {
  let v = read.get(answer);
  if (!v) {
    v = answer.text
      .split(SENTENCE_END)
      .map((t) => ({ tokens: tokenize(t), parts: resolvePronouns(t.split(PARTS).map(tokenize).filter((p) => p.length > 0)) }))
      .filter((x) => x.tokens.length > 0);
    read.set(answer, v);
  }
  return v;
}

/** Whether `word` starts a compound name in `tokens` ("immune system", "white blood cell"): then it is not a thing of its own. */
function startsCompound(tokens: string[], word: string): boolean {
  return tokens.some((t, i) => t === word && [2, 3].some((n) => i + n <= tokens.length && lookup(tokens.slice(i, i + n).map((x, k) => (k === n - 1 ? lemmatizer.noun(x) : x)).join(' ')).length > 0));
}

const leading = new WeakMap<Answer, string[][]>();
/** The parts within the answer's first SCAN words: an essay is not searched pair by pair. */
function leadingParts(answer: Answer): string[][] {
  let v = leading.get(answer);
  if (!v) {
    v = [];
    let budget = SCAN;
    for (const p of answerParts(answer)) {
      if (budget <= 0) break;
      v.push(p.slice(0, budget));
      budget -= p.length;
    }
    leading.set(answer, v);
  }
  return v;
}

/** Whether the answer says the criterion's words in its order, close together: then nothing is swapped. */
function saysInOrder(words: string[], all: string[]): boolean {
  const tokens = all.filter((t) => !STOPWORDS.has(t));
  const span = words.length + 2;
  for (let start = 0; start < tokens.length; start++) {
    if (matchWord(words[0]!, tokens[start]!) === null) continue;
    let k = 1;
    for (let i = start + 1; i < tokens.length && i - start < span && k < words.length; i++) if (matchWord(words[k]!, tokens[i]!) !== null) k++;
    if (k === words.length) return true;
  }
  return false;
}

const pairsRead = new WeakMap<Answer, Set<string>>();
/**
 * Things the question sets against each other: "differences between RAM and ROM", "the
 * protagonist and the antagonist", "mitosis versus meiosis". Each pair (both orders) as "a b".
 */
function questionPairs(answer: Answer): Set<string> {
  let v = pairsRead.get(answer);
  if (!v) {
    v = new Set();
    const text = (answer.statement ?? '').toLowerCase();
    for (const m of text.matchAll(/\b([a-z][a-z-]+)\s+(?:and|or|vs\.?|versus)\s+(?:the\s+|a\s+|an\s+)?([a-z][a-z-]+)\b/g)) {
      const [a, b] = [m[1]!, m[2]!];
      if (a === b || STOPWORDS.has(a) || STOPWORDS.has(b)) continue;
      v.add(`${a} ${b}`).add(`${b} ${a}`);
    }
    pairsRead.set(answer, v);
  }
  return v;
}

/** Criteria longer than this are prose: their words belong to several claims, not one. */
const MAX_WORDS = 10;

/** The swap the answer makes against a criterion's wording, described; null when none. */
export function swapped(wording: string, answer: Answer): string | null {
  const words = criterionWords(wording);
  if (words.length < 2 || words.length > MAX_WORDS) return null;
  const parts = leadingParts(answer);
  if (saysInOrder(words, sentencesOf(answer).flatMap((t) => t.tokens))) return null;
  const memo = new Map<string, boolean>();
  const same = (w: string, x: string) => {
    const key = `${w} ${x}`;
    let v = memo.get(key);
    if (v === undefined) memo.set(key, (v = matchWord(w, x) !== null));
    return v;
  };
  const has = (part: string[], w: string) => part.some((x) => same(w, x));
  const wordingTokens = tokenize(wording);
  // A contrasting word matters only in a part that says some of the criterion.
  // A contrasting word the answer only denies ("the wall doesn't need to be fat") is not said of anything (tuned on D).
  const denied = new Set(answer.words.filter((x) => x.negated).map((x) => x.word));
  const candidates = [...new Set(parts.filter((p) => words.some((w) => has(p, w))).flat())].filter((u) => !STOPWORDS.has(u) && !denied.has(u) && u.length > 2 && !/^\d/.test(u) && !words.some((w) => same(w, u)));
  for (const w of words) {
    if (/^\d/.test(w)) continue;
    for (const u of candidates) {
      if (!contrasting(w, u) && !questionPairs(answer).has(`${w} ${u}`)) continue;
      // "the passive voice" against "the active voice": compounds of one head contrast whole.
      const head = wordingTokens[wordingTokens.indexOf(w) + 1];
      const parallel = head !== undefined && parts.some((p) => p.some((x, i) => x === u && p[i + 1] === head));
      if (!parallel && (startsCompound(wordingTokens, w) || parts.some((p) => startsCompound(p, u)))) continue;
      const ofW = parts.filter((p) => has(p, w));
      // "scatters it more than red light": the thing compared with is not what the claim is about.
      const ofU = parts.filter((p) => p.includes(u) && !has(p, w) && !/^(?:than|unlike|not)$/.test(p[p.indexOf(u) - 1] ?? '') && !/^(?:than|unlike|not)$/.test(p[p.indexOf(u) - 2] ?? ''));
      let forW = 0;
      let forU = 0;
      for (const p of words) {
        if (p === w) continue;
        const inW = ofW.some((part) => has(part, p));
        const inU = ofU.some((part) => has(part, p));
        if (inW && !inU) forW++;
        if (inU && !inW) forU++;
      }
      if (forU > forW && (forU >= SAID_THERE || (forW === 0 && (words.length <= SHORT || ofW.length > 0)))) return `it says of "${u}" what the criterion says of "${w}"`;
    }
  }
  return null;
}

/** Content words of "from X to Y" spans: what is left after the words both sides share ("concentration"). */
function fromTo(tokens: string[]): { from: string[]; to: string[] }[] {
  const out: { from: string[]; to: string[] }[] = [];
  tokens.forEach((t, i) => {
    if (t !== 'from') return;
    const to = tokens.indexOf('to', i + 1);
    if (to < 0 || to - i > 6) return;
    const end = tokens.slice(to + 1).findIndex((x) => /^(?:and|but|so|because|through|across|by|via|which|until)$/.test(x));
    const a = tokens.slice(i + 1, to).filter((x) => !STOPWORDS.has(x));
    const b = tokens.slice(to + 1, end < 0 ? to + 6 : to + 1 + Math.min(end, 5)).filter((x) => !STOPWORDS.has(x));
    const from = a.filter((x) => !b.some((y) => matchWord(x, y)));
    const dest = b.filter((y) => !a.some((x) => matchWord(x, y)));
    if (from.length && dest.length) out.push({ from, to: dest });
  });
  return out;
}

/**
 * "from a dilute solution to a more concentrated solution" answered "from a concentrated solution
 * to a dilute one": the direction is reversed. Described; null when not.
 */
export function reversed(wording: string, answer: Answer): string | null {
  const want = fromTo(tokenize(wording));
  if (!want.length) return null;
  const said = sentencesOf(answer).flatMap((s) => fromTo(s.tokens));
  const meets = (xs: string[], ys: string[]) => xs.some((x) => ys.some((y) => matchWord(x, y) !== null));
  for (const w of want) {
    for (const s of said) {
      if (meets(w.from, s.to) && meets(w.to, s.from) && !(meets(w.from, s.from) && meets(w.to, s.to))) return `the answer says from ${s.from.join(' ')} to ${s.to.join(' ')}: the other way round`;
    }
  }
  return null;
}

const opposesCache = new Map<string, boolean>();
/**
 * "increases" against "reduce": WordNet gives "reduce" no antonym, but it is a way to decrease,
 * whose antonym is increase. The verb's frequent senses and what they are ways of.
 */
export function opposesKind(verb: string, answerWord: string): boolean {
  return cached(opposesCache, `${verb} ${answerWord}`, () => {
    const u = lemmatizer.verb(answerWord);
    return lookup(lemmatizer.verb(verb), 'verb')
      .slice(0, SENSES)
      .some((off) =>
        synset(off, 'verb').pointers.some(
          (h) => h.symbol === '@' && synset(h.offset, 'verb').pointers.some((a) => a.symbol === '!' && synset(a.offset, a.pos).words.some((w) => w.toLowerCase() === u)),
        ),
      );
  });
}
