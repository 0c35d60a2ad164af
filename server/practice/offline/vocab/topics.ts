/**
 * Vocabulary sets from WordNet: a description names a noun category ("cell organelles",
 * "planets", "bones of the human body"); its terms are the category's hyponyms, instances and
 * parts, each with its WordNet gloss as the definition.
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Synset } from './wordnet.ts';

export interface Term {
  term: string;
  synonyms: string[];
  definition: string;
}

export interface VocabTopic {
  root: string;
  rootDefinition: string;
  terms: Term[];
}

export const MIN_TERMS = 4;
const FILLER = new Set(
  'vocabulary vocab terms term definitions definition words word quiz test practice problems problem questions question review study set sets kinds kind types type parts part names name list about on for the a an and with grade level unit chapter lesson basic basics intro introduction to key important common main all various some examples example'.split(' '),
);

/**
 * Phrases to try, most specific first, from the description's head only: the first part (before
 * "of", "in", "from", "for") that holds a word other than filler. "bones of the human body" ->
 * "bone"; "types of rocks" -> "rock" (the first part is all filler); "photosynthesis in plants" ->
 * "photosynthesis" only: "plants" there says where, not what the set is about. Each phrase carries
 * the head words it leaves out (`dropped`), which the chosen sense must account for.
 */
export function candidatePhrases(description: string): { phrase: string; plural: boolean; dropped: string[]; qualified: string[] }[] {
  const cleaned = description
    .toLowerCase()
    .replace(/\bgrade\s*\d+\b|\b\d+(st|nd|rd|th)\s+grade\b/g, ' ')
    .replace(/[^a-z\s'-]/g, ' ');
  const parts = cleaned.split(/\b(?:of|in|from|for)\b/).map((part) => part.split(/\s+/).filter((w) => w && !FILLER.has(w)));
  const headAt = parts.findIndex((w) => w.length > 0);
  const words = headAt === -1 ? [] : parts[headAt]!;
  // What the parts after the head say of it ("causes of the French revolution": french, revolution).
  const qualified = headAt === -1 ? [] : parts.slice(headAt + 1).flat();
  const out: { phrase: string; plural: boolean; dropped: string[]; qualified: string[] }[] = [];
  for (let i = 0; i < words.length; i++) {
    const slice = words.slice(i);
    const last = slice[slice.length - 1]!;
    const lemma = lemmatizer.noun(last);
    const plural = lemma !== last || /[^s]s$/.test(last);
    out.push({ phrase: [...slice.slice(0, -1), lemma].join(' '), plural, dropped: words.slice(0, i), qualified });
  }
  return out;
}

/**
 * Whether a sense accounts for the head words a shorter phrase left out: each must appear in the
 * sense's words or definition, or in those of its hypernyms ("cell organelles" -> organelle, "a
 * specialized part of a cell"). "World War II causes" -> cause does not mention war: refused, so
 * a set is never about another sense of the last word.
 */
function explainsModifiers(root: Synset, dropped: readonly string[]): boolean {
  if (dropped.length === 0) return true;
  return mentions(root, dropped);
}

/**
 * WordNet's lexicographer files of concrete things (artifacts, body, animals, food, objects,
 * plants, substances...): a head like "bones" or "planets" names such a category whatever a
 * qualifier adds ("of the human body"). An abstract head ("causes", "themes", "effects") is about
 * its qualifier ("of the French Revolution"), which WordNet's sense of the head does not know.
 */
const CONCRETE_LEXFILES = new Set([5, 6, 8, 13, 17, 20, 27]);

function fitsQualifiers(root: Synset, qualified: readonly string[]): boolean {
  return qualified.length === 0 || CONCRETE_LEXFILES.has(root.lexFile) || mentions(root, qualified);
}

/** Whether every word appears in the sense's words or definition, or those of its hypernyms. */
function mentions(root: Synset, wanted: readonly string[]): boolean {
  const texts = [root.words.join(' '), root.definition];
  for (const p of root.pointers) if (p.pos === 'noun' && (p.symbol === '@' || p.symbol === '@i')) texts.push(synset(p.offset).words.join(' '), synset(p.offset).definition);
  const text = ` ${texts.join(' ').toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  return wanted.every((w) => text.includes(` ${w} `) || text.includes(` ${lemmatizer.noun(w)} `));
}

/** Hyponyms and instances down to `depth`; parts (part meronyms) of the root itself only. */
function collect(root: Synset, depth: number, acc: Map<string, Term>, seen: Set<number>, isRoot = true): void {
  for (const p of root.pointers) {
    if (p.pos !== 'noun' || seen.has(p.offset)) continue;
    if (p.symbol !== '~' && p.symbol !== '~i' && !(isRoot && p.symbol === '%p')) continue;
    seen.add(p.offset);
    const s = synset(p.offset);
    const term = s.words[0];
    if (!acc.has(term.toLowerCase()) && s.definition.length > 10) {
      acc.set(term.toLowerCase(), { term, synonyms: s.words.slice(1), definition: s.definition });
    }
    if (depth > 1) collect(s, depth - 1, acc, seen, false);
  }
}

export type VocabLookup = { ok: true; topic: VocabTopic } | { ok: false; reason: 'none' } | { ok: false; reason: 'too-few'; root: string; found: number };

/** Finds the first candidate phrase that names a WordNet noun category with enough terms. */
export function findVocabTopic(description: string, explicit: boolean): VocabLookup {
  let tooFew: { root: string; found: number } | undefined;
  for (const { phrase, plural, dropped, qualified } of candidatePhrases(description)) {
    if (!explicit && !plural) continue;
    for (const off of lookup(phrase)) {
      const root = synset(off);
      if (!explainsModifiers(root, dropped) || !fitsQualifiers(root, qualified)) continue;
      const acc = new Map<string, Term>();
      collect(root, 2, acc, new Set([off]));
      acc.delete(root.words[0].toLowerCase());
      if (acc.size >= MIN_TERMS) return { ok: true, topic: { root: root.words[0], rootDefinition: root.definition, terms: [...acc.values()] } };
      if (!tooFew || acc.size > tooFew.found) tooFew = { root: root.words[0], found: acc.size };
    }
  }
  return tooFew ? { ok: false, reason: 'too-few', ...tooFew } : { ok: false, reason: 'none' };
}
