/**
 * Word-level matching for rubric grading: lemmas (wink-lemmatizer), Porter2 stems, WordNet
 * synonyms and Levenshtein spelling tolerance; negation cues for polarity.
 */
import { distance } from 'fastest-levenshtein';
import lemmatizer from 'wink-lemmatizer';
import stem from 'wink-porter2-stemmer';
import { synonyms } from '../lexicon/wordnet.ts';

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
  // A dash between letters or digits with no space ("5–7–5", "self‑esteem") joins them as a hyphen does (tuned on G).
  let t = text.toLowerCase().replace(/[’‘`]/g, "'").replace(/(?<=[a-z0-9])[‐‑–—](?=[a-z0-9])/g, '-');
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

/**
 * Caches keyed by words of answers: any text can be sent, so each is emptied when it grows past
 * CACHE_WORDS rather than growing with every distinct word ever graded.
 */
const CACHE_WORDS = 50_000;
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_WORDS) cache.clear();
  cache.set(key, value);
  return value;
}

const formsCache = new Map<string, Set<string>>();
/** The word, its lemmas as noun, verb and adjective, and its stem. */
export function forms(word: string): Set<string> {
  return (
    formsCache.get(word) ??
    remember(formsCache, word, new Set([word, lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word), stemOf(word)]))
  );
}

const stemCache = new Map<string, string>();
function stemOf(word: string): string {
  return stemCache.get(word) ?? remember(stemCache, word, stem(word));
}

/**
 * Senses of a word whose synonyms count (WordNet lists senses most frequent first): "support"
 * is not "digest" because both can mean "tolerate".
 */
const SYNONYM_SENSES = 4;

const synCache = new Map<string, Set<string>>();
/** Single-word WordNet synonyms of every lemma of `word`. */
export function synonymForms(word: string): Set<string> {
  let s = synCache.get(word);
  if (!s) {
    s = new Set<string>();
    for (const lemma of forms(word)) {
      if (lemma.length < 3 || /^\d+$/.test(lemma)) continue;
      for (const syn of synonyms(lemma, SYNONYM_SENSES)) if (!syn.includes(' ')) s.add(syn);
    }
    remember(synCache, word, s);
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
  const tolerance = slipTolerance(conceptWord, userWord);
  if (tolerance === 0) return null;
  if (isSlip(conceptWord, userWord, tolerance) || isSlip(stemOf(conceptWord), stemOf(userWord), tolerance)) return 'spelling';
  return null;
}

/** Letters a spelling slip may get wrong: none in words under 5 letters, 1 up to 7, 2 from 8. */
export function slipTolerance(a: string, b: string): number {
  const len = Math.min(a.length, b.length);
  return len >= 8 ? 2 : len >= 5 ? 1 : 0;
}

/** Within `tolerance` edits of each other (the length difference alone rules most pairs out). */
export function isSlip(a: string, b: string, tolerance = slipTolerance(a, b)): boolean {
  return tolerance > 0 && Math.abs(a.length - b.length) <= tolerance && distance(a, b) <= tolerance;
}

const CHANGE_VERB = String.raw`(?:gets?|got|getting|becomes?|became|becoming|grows?|grew|growing|goes|go|went|going)`;
// Comparatives of amount only: "gets longer" says what grows, which "increases" would lose.
const SMALLER = String.raw`(?:smaller|less|lower|fewer|slower)`;
const BIGGER = String.raw`(?:bigger|larger|greater|more|higher|faster)`;
const DOWN = new RegExp(String.raw`\b${CHANGE_VERB}\s+(?:much\s+|a\s+lot\s+|even\s+)?(?:${SMALLER}|down)\b(?!\s+than)`, 'gi');
const UP = new RegExp(String.raw`\b${CHANGE_VERB}\s+(?:much\s+|a\s+lot\s+|even\s+)?(?:${BIGGER}|up)\b(?!\s+than)`, 'gi');

/**
 * "It gets smaller", "goes up": a change said with a comparative, as the verb a reference uses
 * ("decreases", "increases"). Comparisons with "than" are left alone ("grows larger than X").
 */
export function plainChange(text: string): string {
  return text.replace(DOWN, 'decreases').replace(UP, 'increases');
}
