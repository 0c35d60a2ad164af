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
  'vocabulary vocab terms term definitions definition words word quiz test practice problems problem questions question review study set sets kinds kind types type names name list about on for the a an and with grade level unit chapter lesson basic basics intro introduction to key important common main all various some examples example'.split(' '),
);

/** Phrases to try, most specific first: "bones of the human body" -> "bones", ...; "cell organelles" -> "cell organelles", "organelles". */
export function candidatePhrases(description: string): { phrase: string; plural: boolean }[] {
  const cleaned = description
    .toLowerCase()
    .replace(/\bgrade\s*\d+\b|\b\d+(st|nd|rd|th)\s+grade\b/g, ' ')
    .replace(/[^a-z\s'-]/g, ' ');
  const heads = cleaned.split(/\b(?:of|in|from|for)\b/).map((part) => part.split(/\s+/).filter((w) => w && !FILLER.has(w)));
  const out: { phrase: string; plural: boolean }[] = [];
  for (const words of heads) {
    for (let i = 0; i < words.length; i++) {
      const slice = words.slice(i);
      const last = slice[slice.length - 1];
      const lemma = lemmatizer.noun(last);
      const plural = lemma !== last || /[^s]s$/.test(last);
      out.push({ phrase: [...slice.slice(0, -1), lemma].join(' '), plural });
    }
  }
  return out;
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
  for (const { phrase, plural } of candidatePhrases(description)) {
    if (!explicit && !plural) continue;
    for (const off of lookup(phrase)) {
      const root = synset(off);
      const acc = new Map<string, Term>();
      collect(root, 2, acc, new Set([off]));
      acc.delete(root.words[0].toLowerCase());
      if (acc.size >= MIN_TERMS) return { ok: true, topic: { root: root.words[0], rootDefinition: root.definition, terms: [...acc.values()] } };
      if (!tooFew || acc.size > tooFew.found) tooFew = { root: root.words[0], found: acc.size };
    }
  }
  return tooFew ? { ok: false, reason: 'too-few', ...tooFew } : { ok: false, reason: 'none' };
}
