/**
 * What a set description asks of WordNet: the category it names (its head: "bones" in "bones of
 * the human body"), the words that narrow it (which the chosen sense or every term must account
 * for), subject words that only help choose a sense ("biology"), and whether it asks for kinds
 * of the category or its parts ("parts of a flower"). "acids and bases" names two categories.
 */
import lemmatizer from 'wink-lemmatizer';

/** Words that say nothing about the subject: request words, audience, quantities. */
export const FILLER = new Set(
  (
    'vocabulary vocab terms term terminology definitions definition words word glossary quiz quizzes test tests practice problems problem questions question ' +
    'review revision study set sets kinds kind types type sorts sort parts part names name list lists about on for the a an with grade grades level levels ' +
    'unit chapter lesson lessons basic basics intro introduction to key important common main all various some examples example my our your ' +
    'kids children students pupils beginners beginner class classes school middle high elementary year years gcse ks1 ks2 ks3 ap ib please make create ' +
    'easy hard medium advanced simple beginning intermediate english'
  ).split(' '),
);

/** Subject names: they pick between meanings when they match one, and are never required. */
export const SUBJECTS = new Set(
  'science sciences biology chemistry physics geology astronomy anatomy botany zoology ecology geography history literature music art arts math maths mathematics grammar linguistics economics medicine'.split(
    ' ',
  ),
);

export interface HeadCandidate {
  /** A WordNet lemma to look up (singular, spaces). */
  phrase: string;
  plural: boolean;
  /** Words of the description this phrase leaves out; the sense or every term must account for them. */
  required: string[];
}

export interface Conjunct {
  /** Most specific first. */
  candidates: HeadCandidate[];
  /** Subject words ("biology"): they choose between meanings, never required. */
  soft: string[];
}

export interface VocabQuery {
  relation: 'kinds' | 'parts';
  conjuncts: Conjunct[];
}

function clean(description: string): string {
  return description
    .toLowerCase()
    .replace(/\bgrades?\s*\d+(\s*(-|to|and)\s*\d+)?\b|\b\d+(st|nd|rd|th)\s+grade\b|\byear\s*\d+\b|\b[kK]-?\d+\b/g, ' ')
    .replace(/[^a-z\s'-]/g, ' ')
    .replace(/'s\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Singular of a noun and whether the word was plural ("rocks" -> rock; "photosynthesis" stays). */
export function singular(word: string): { lemma: string; plural: boolean } {
  const lemma = lemmatizer.noun(word);
  return { lemma, plural: lemma !== word || /[^siu]s$/.test(word) };
}

/** Whole-description lemmas such as "part of speech" or "state of matter" (plural on either end). */
export function wholePhrases(description: string): string[] {
  const words = clean(description)
    .split(' ')
    .filter((w) => w && !['vocabulary', 'vocab', 'terms', 'glossary', 'definitions', 'quiz', 'the', 'a', 'an'].includes(w));
  if (words.length < 2 || words.length > 5) return [];
  const first = singular(words[0]!).lemma;
  const last = singular(words[words.length - 1]!).lemma;
  return [...new Set([words.join(' '), [first, ...words.slice(1)].join(' '), [...words.slice(0, -1), last].join(' ')])];
}

function candidatesOf(text: string, hints: readonly string[]): { candidates: HeadCandidate[]; soft: string[] } {
  const soft: string[] = [...hints];
  // The head is the first part (before "of", "in", "from", ...) that holds a word other than filler.
  const parts = text
    .split(/\b(?:of|in|from|for|during|about|on|at)\b/)
    .map((part) =>
      part.split(/\s+/).filter((w) => {
        if (!w || FILLER.has(w) || w.length < 2) return false;
        if (SUBJECTS.has(w)) {
          soft.push(w);
          return false;
        }
        return true;
      }),
    );
  const headAt = parts.findIndex((w) => w.length > 0);
  if (headAt === -1) return { candidates: [], soft };
  const words = parts[headAt]!;
  const qualified = parts.slice(headAt + 1).flat();
  const candidates: HeadCandidate[] = [];
  for (let i = 0; i < words.length; i++) {
    const slice = words.slice(i);
    const { lemma, plural } = singular(slice[slice.length - 1]!);
    candidates.push({ phrase: [...slice.slice(0, -1), lemma].join(' '), plural, required: [...words.slice(0, i), ...qualified] });
  }
  return { candidates, soft };
}

export function parseDescription(description: string): VocabQuery {
  // "plates (flatware)": words in parentheses say which meaning, like a subject word.
  const hints = [...description.matchAll(/\(([^)]*)\)/g)].flatMap((m) => clean(m[1]!).split(' ')).filter((w) => w.length > 2 && !FILLER.has(w));
  const text = clean(description.replace(/\([^)]*\)/g, ' '));
  const relation = /\bparts of\b|\bparts$|\banatomy of\b/.test(text) ? 'parts' : 'kinds';
  // "acids and bases": two categories; "X of A and B" stays one (the "and" is in the qualifier).
  const head = text.split(/\b(?:of|in|from|for)\b/)[0]!;
  const pieces = /\band\b/.test(head) ? [...head.split(/\band\b/), ''].slice(0, -1) : [text];
  const rest = pieces.length > 1 ? text.slice(head.length) : '';
  const conjuncts = pieces
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, 3)
    .map((p) => candidatesOf(`${p} ${rest}`, hints));
  // Each category must stand on its own: the other's words would pick a meaning by coincidence
  // ("acids and bases": "acid" is named by the nucleotide sense of "base").
  return { relation, conjuncts };
}
