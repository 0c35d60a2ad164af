/**
 * Word-level matching for rubric grading: lemmas (wink-lemmatizer), Porter2 stems, WordNet
 * synonyms and Levenshtein spelling tolerance; negation cues for polarity.
 */
import { distance } from 'fastest-levenshtein';
import lemmatizer from 'wink-lemmatizer';
import stem from 'wink-porter2-stemmer';
import { synonyms } from '../offline/vocab/wordnet.ts';

export const STOPWORDS = new Set(
  'a an the of to in on at by for with from and or as is are was were be been being it its this that these those which who whom what when where how than then there their they them he she his her we our you your i my me into onto over under about also can could should would may might must will shall do does did has have had having so such very just only more most some any each per via full credit point points pt pts mark marks mention mentions mentioned answer answers student states state explain explains include includes including award give gives'.split(
    ' ',
  ),
);
export const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nor', 'neither', 'without', 'cannot', 'nothing', 'nobody', 'nowhere']);

const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b|\bcannot\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/\b(\w+)n't\b/g, '$1 not'],
];

export function tokenize(text: string): string[] {
  let t = text.toLowerCase().replace(/[’‘`]/g, "'");
  for (const [re, rep] of CONTRACTIONS) t = t.replace(re, rep);
  return t.match(/[a-z0-9]+(?:['-][a-z0-9]+)*/g) ?? [];
}

/** Clauses: negation scope does not cross these boundaries. */
export function clauses(text: string): string[][] {
  return text
    .split(/[.;:!?,]|\b(?:but|however|although|though|whereas|while)\b/i)
    .map(tokenize)
    .filter((c) => c.length > 0);
}

const formsCache = new Map<string, Set<string>>();
/** The word, its lemmas as noun, verb and adjective, and its stem. */
export function forms(word: string): Set<string> {
  let f = formsCache.get(word);
  if (!f) {
    f = new Set([word, lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word), stem(word)]);
    formsCache.set(word, f);
  }
  return f;
}

const synCache = new Map<string, Set<string>>();
/** Single-word WordNet synonyms of every lemma of `word`. */
export function synonymForms(word: string): Set<string> {
  let s = synCache.get(word);
  if (!s) {
    s = new Set<string>();
    for (const lemma of forms(word)) {
      if (lemma.length < 3 || /^\d+$/.test(lemma)) continue;
      for (const syn of synonyms(lemma)) if (!syn.includes(' ')) s.add(syn);
    }
    synCache.set(word, s);
  }
  return s;
}

export type WordMatch = 'exact' | 'lemma' | 'synonym' | 'spelling' | null;

export function matchWord(conceptWord: string, userWord: string): WordMatch {
  if (conceptWord === userWord) return 'exact';
  const cf = forms(conceptWord);
  const uf = forms(userWord);
  for (const f of uf) if (cf.has(f)) return 'lemma';
  const syn = synonymForms(conceptWord);
  for (const f of uf) if (syn.has(f)) return 'synonym';
  const len = Math.min(conceptWord.length, userWord.length);
  const tolerance = len >= 8 ? 2 : len >= 5 ? 1 : 0;
  if (tolerance > 0 && distance(conceptWord, userWord) <= tolerance) return 'spelling';
  if (tolerance > 0 && distance(stem(conceptWord), stem(userWord)) <= tolerance) return 'spelling';
  return null;
}
