/**
 * Right words in the wrong places: "In a gas the particles are close together ..., while in a
 * solid they ... are far apart" says the criterion's words, but says of the gas what the criterion
 * says of the solid. A criterion word W is swapped when the answer names a contrasting word U (an
 * antonym, or a thing of the same kind: solid/gas, simile/metaphor, left/right, chloroplast/
 * mitochondrion) and the criterion's other words are said more in U's part of the answer than in
 * W's. Parts are clauses, and "and the ..." starts a new one ("the left side pumps ... and the
 * right side pumps ...").
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Synset } from '../../offline/vocab/wordnet.ts';
import { antonymOf } from '../short-answer.ts';
import { type Answer, criterionWords, matchWord, tokenize, STOPWORDS } from './match.ts';

const PARTS = /[.;:!?,]|\b(?:but|however|although|though|whereas|while|unlike)\b|\band\s+(?=(?:the|a|an|its|their|in|on|at|for)\b)/i;
/** Answer words compared with each criterion word: a long essay is not searched pair by pair. */
const SCAN = 200;
/** Senses of a word read for kinds: the frequent ones. */
const SENSES = 3;
/** Criterion words the answer must say in the other word's part for a swap: one could be chance... */
const SAID_THERE = 2;
/** ...except in a short criterion ("the anode is the positive electrode"), when none is said in the word's own part. */
const SHORT = 4;

function up(s: Synset, depth: number, acc = new Set<number>()): Set<number> {
  if (depth === 0) return acc;
  for (const p of s.pointers) {
    if (p.symbol !== '@' && p.symbol !== '@i') continue;
    acc.add(p.offset);
    up(synset(p.offset), depth - 1, acc);
  }
  return acc;
}

function nounSenses(word: string): Synset[] {
  const lemma = lemmatizer.noun(word);
  return [...new Set([...lookup(word), ...lookup(lemma)])].map((o) => synset(o));
}

const cache = new Map<string, boolean>();
/** Contrasting words: antonyms, or nouns of one kind where neither is a kind of the other. */
export function contrasting(a: string, b: string): boolean {
  const key = `${a} ${b}`;
  let v = cache.get(key);
  if (v !== undefined) return v;
  v = false;
  if (!matchWord(a, b)) {
    if (antonymOf(a, b, ['adj', 'verb', 'noun'])) v = true;
    else {
      const sa = nounSenses(a);
      const sb = nounSenses(b);
      const kindOf = (x: Synset[], y: Synset[]) => x.some((s) => { const anc = up(s, 12); return y.some((t) => anc.has(t.offset)); });
      // Their common senses only (WordNet lists a word's senses most frequent first): "convert" the person is not what "convert" says.
      if (sa.length && sb.length && !kindOf(sa, sb) && !kindOf(sb, sa)) v = sa.slice(0, SENSES).some((s) => { const k = up(s, 1); return sb.slice(0, SENSES).some((t) => [...up(t, 1)].some((x) => k.has(x))); });
    }
  }
  if (cache.size > 20_000) cache.clear();
  cache.set(key, v);
  return v;
}

/** The answer's parts: clauses, and "and the ..." starts a new one. */
export function answerParts(answer: Answer): string[][] {
  return answer.text.split(PARTS).map(tokenize).filter((p) => p.length > 0);
}

/** Words that start a part of a compound name ("immune system", "white blood cell"): not a thing of their own. */
function modifiers(tokens: string[]): Set<string> {
  const out = new Set<string>();
  tokens.forEach((t, i) => {
    for (const n of [2, 3]) if (i + n <= tokens.length && lookup(tokens.slice(i, i + n).map((x, k) => (k === n - 1 ? lemmatizer.noun(x) : x)).join(' ')).length) out.add(t);
  });
  return out;
}

/** Criteria longer than this are prose: their words belong to several claims, not one. */
const MAX_WORDS = 10;

/** The swap the answer makes against a criterion's wording, described; null when none. */
export function swapped(wording: string, answer: Answer): string | null {
  const words = criterionWords(wording);
  if (words.length < 2 || words.length > MAX_WORDS) return null;
  const parts = answerParts(answer);
  const has = (part: string[], w: string) => part.some((x) => matchWord(w, x) !== null);
  const inCompound = new Set([...modifiers(tokenize(wording)), ...parts.flatMap((p) => [...modifiers(p)])]);
  const candidates = answer.words.slice(0, SCAN).map((x) => x.word).filter((u) => !STOPWORDS.has(u) && u.length > 2 && !/^\d/.test(u) && !inCompound.has(u) && !words.some((w) => matchWord(w, u)));
  for (const w of words) {
    if (/^\d/.test(w) || inCompound.has(w)) continue;
    for (const u of candidates) {
      if (!contrasting(w, u)) continue;
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
      if (forU > forW && (forU >= SAID_THERE || (forW === 0 && words.length <= SHORT))) return `it says of "${u}" what the criterion says of "${w}"`;
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
  const said = answer.text.split(/[.;!?]/).flatMap((s) => fromTo(tokenize(s)));
  const meets = (xs: string[], ys: string[]) => xs.some((x) => ys.some((y) => matchWord(x, y) !== null));
  for (const w of want) {
    for (const s of said) {
      if (meets(w.from, s.to) && meets(w.to, s.from) && !(meets(w.from, s.from) && meets(w.to, s.to))) return `the answer says from ${s.from.join(' ')} to ${s.to.join(' ')}: the other way round`;
    }
  }
  return null;
}

const kindCache = new Map<string, boolean>();
/**
 * "increases" against "reduce": WordNet gives "reduce" no antonym, but it is a way to decrease,
 * whose antonym is increase. The verb's frequent senses and what they are ways of.
 */
export function opposesKind(verb: string, answerWord: string): boolean {
  const key = `${verb} ${answerWord}`;
  let v = kindCache.get(key);
  if (v === undefined) {
    const u = lemmatizer.verb(answerWord);
    v = lookup(lemmatizer.verb(verb), 'verb')
      .slice(0, SENSES)
      .some((off) =>
        synset(off, 'verb').pointers.some(
          (h) => h.symbol === '@' && synset(h.offset, 'verb').pointers.some((a) => a.symbol === '!' && synset(a.offset, a.pos).words.some((w) => w.toLowerCase() === u)),
        ),
      );
    if (kindCache.size > 20_000) kindCache.clear();
    kindCache.set(key, v);
  }
  return v;
}
