/**
 * What WordNet says of a word, for grading: its senses (in any of its forms), senses close
 * enough to count as the same meaning, antonyms, hypernyms, and the lemmas of its regular forms.
 * Cached per word: the same references and answers are read again and again.
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Pos, type Synset } from '../lexicon/wordnet.ts';

export const POSES: Pos[] = ['noun', 'verb', 'adj', 'adv'];

const senseCache = new Map<string, Synset[]>();
/** The senses of a word or phrase in `poses`, of its lemmas too (a phrase's last word inflects). */
export function senses(phrase: string, poses: Pos[] = POSES): Synset[] {
  const key = `${poses.join()}:${phrase}`;
  let s = senseCache.get(key);
  if (!s) {
    s = [];
    for (const pos of poses) {
      const forms = new Set([phrase, pos === 'noun' ? lemmatizer.noun(phrase) : pos === 'verb' ? lemmatizer.verb(phrase) : pos === 'adj' ? lemmatizer.adjective(phrase) : phrase]);
      // A phrase's last word carries the plural: "red blood cells".
      const parts = phrase.split(' ');
      if (parts.length > 1 && pos === 'noun') forms.add([...parts.slice(0, -1), lemmatizer.noun(parts[parts.length - 1])].join(' '));
      for (const f of forms) for (const off of lookup(f, pos)) if (!s.some((x) => x.offset === off && x.pos === pos)) s.push(synset(off, pos));
    }
    if (senseCache.size > 20_000) senseCache.clear();
    senseCache.set(key, s);
  }
  return s;
}

/** Whether WordNet knows the word in any form (a slip of spelling is not a word). */
export function isWord(w: string): boolean {
  return senses(w).length > 0;
}

/** The senses `s` points to with these pointer symbols (`!` antonym, `@` hypernym, `&` similar, ...). */
export function related(s: Synset, symbols: string[]): Synset[] {
  return s.pointers.filter((p) => symbols.includes(p.symbol)).map((p) => synset(p.offset, p.pos));
}

export function hasWord(s: Synset, w: string): boolean {
  return s.words.some((x) => x.toLowerCase() === w);
}

/** Adverbs of degree: a gloss "very loud" says another degree of loud, not loud. */
const DEGREE = /\b(?:very|extremely|exceedingly|excessively|overly|too|highly|intensely|somewhat|slightly|moderately|mildly|rather|fairly|unusually|extraordinarily)\s+([a-z-]+)/gi;

/**
 * Whether one of two linked adjective senses is glossed as a degree of the other: "fortissimo"
 * (very loud) of "forte, loud", "overjoyed" (extremely joyful) of "joyful", "tepid" (moderately
 * warm) of "warm". Such a sense is a stronger or weaker answer, not the same one; "glad" and
 * "cheerful" are linked to "joyful" with no such gloss.
 */
const degreeCache = new Map<string, boolean>();
function anotherDegree(a: Synset, b: Synset): boolean {
  const key = `${a.offset}:${b.offset}`;
  let v = degreeCache.get(key);
  if (v === undefined) {
    const says = (x: Synset, y: Synset) => [...x.definition.matchAll(DEGREE)].some((m) => hasWord(y, m[1].toLowerCase()));
    v = says(a, b) || says(b, a);
    if (degreeCache.size > 20_000) degreeCache.clear();
    degreeCache.set(key, v);
  }
  return v;
}

/** Senses close enough to count as the same meaning: the synset, and for adjectives similar and see-also senses of the same degree. */
export function closeSenses(word: string, expected?: Synset[]): Synset[] {
  const out: Synset[] = [];
  for (const s of expected ?? senses(word)) {
    out.push(s);
    if (s.pos !== 'adj') continue;
    for (const r of related(s, ['&', '^'])) {
      if (anotherDegree(s, r)) continue;
      out.push(r);
      for (const r2 of related(r, ['^'])) if (!anotherDegree(r, r2)) out.push(r2);
    }
  }
  return out;
}

/** `maxSenses`: only the reference word's most frequent senses of each part of speech ("sets up" is not the sun setting). */
export function antonymOf(refWord: string, userWord: string, poses: Pos[] = POSES, maxSenses = Infinity): boolean {
  const seen = new Map<Pos, number>();
  for (const s of senses(refWord, poses)) {
    const n = (seen.get(s.pos) ?? 0) + 1;
    seen.set(s.pos, n);
    if (n > maxSenses) continue;
    for (const a of related(s, ['!'])) if (hasWord(a, userWord) || hasWord(a, lemmatizer.verb(userWord)) || hasWord(a, lemmatizer.noun(userWord)) || hasWord(a, lemmatizer.adjective(userWord))) return true;
  }
  return false;
}

const hypernymCache = new Map<string, Set<string>>();
/** Hypernyms and instance hypernyms up to `depth` levels, as "pos:offset". */
export function hypernymsWithin(s: Synset, depth: number): Set<string> {
  const key = `${s.pos}:${s.offset}:${depth}`;
  let acc = hypernymCache.get(key);
  if (!acc) {
    acc = new Set<string>();
    if (depth > 0) {
      for (const h of related(s, ['@', '@i'])) {
        acc.add(`${h.pos}:${h.offset}`);
        for (const k of hypernymsWithin(h, depth - 1)) acc.add(k);
      }
    }
    if (hypernymCache.size > 20_000) hypernymCache.clear();
    hypernymCache.set(key, acc);
  }
  return acc;
}


/** The lemma a word inflects from, when it inflects irregularly (went < go, mice < mouse). */
export function irregular(word: string): boolean {
  for (const lemma of [lemmatizer.verb(word), lemmatizer.noun(word)]) {
    if (lemma === word) continue;
    let common = 0;
    while (common < lemma.length && lemma[common] === word[common]) common++;
    // went < go, ran < run, mice < mouse; not studies < study, mitochondria < mitochondrion.
    if (common < lemma.length - 2 || (common < lemma.length - 1 && lemma.length <= 4)) return true;
  }
  return false;
}

export function lemmas(word: string): Set<string> {
  return new Set([word, lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word)]);
}
