/**
 * "1 point for each example of a mammal": the kind of thing each counted item must be. Only a
 * one-word WordNet noun with kinds under it is checked ("mammal", "organelle", "metal"): WordNet's
 * tree under such words is dependable, while under phrases ("greenhouse gas": methane is missing)
 * it would refuse right answers, so those count any distinct item.
 */
import { lookup, synset } from '../../lexicon/wordnet.ts';
import { forms } from '../text.ts';

/** Counting nouns: "each reason", "each way", "each example of X" (X is then the category). */
export const HEADS = new Set(
  'example examples instance instances reason reasons way ways point points idea ideas factor factors cause causes effect effects consequence consequences advantage advantages disadvantage disadvantages benefit benefits drawback drawbacks feature features characteristic characteristics property properties function functions use uses type types kind kinds sort sorts step steps stage stages difference differences similarity similarities argument arguments piece pieces evidence method methods strategy strategies symptom symptoms role roles item items fact facts detail details explanation explanations suggestion suggestions impact impacts change changes problem problems solution solutions limitation limitations strength strengths weakness weaknesses quote quotes quotation quotations statement statements observation observations risk risks'.split(
    ' ',
  ),
);
const KIND_HEADS = new Set('example examples instance instances type types kind kinds sort sorts'.split(' '));
const QUALIFIERS = new Set(
  'correct correctly valid relevant appropriate accurate accurately different distinct separate named identified given stated described explained listed mentioned suitable sensible reasonable clearly well further additional other each every per any one a an the correct additional new'.split(
    ' ',
  ),
);

const COUNTS = new Set('one two three four five six seven eight nine ten both several more least different distinct separate'.split(' '));

/** A descriptor that only counts ("both reasons", "two or more examples"): nothing to match but the number of items. */
export function onlyCounts(words: string[]): boolean {
  return words.length > 0 && words.some((w) => HEADS.has(w)) && words.every((w) => HEADS.has(w) || COUNTS.has(w) || /^\d+$/.test(w));
}

const WELL_KNOWN = new Map<string, boolean>();
function wellKnownCategory(word: string): boolean {
  let v = WELL_KNOWN.get(word);
  if (v === undefined) {
    v = lookup(word).some((o) => synset(o).pointers.some((p) => p.symbol === '~' || p.symbol === '~i'));
    WELL_KNOWN.set(word, v);
  }
  return v;
}

/** The words of the category a per-item descriptor names: "each correct example of a renewable energy source" → renewable, energy, source. */
export function categoryWords(descriptor: string): string[] {
  const words = descriptor
    .toLowerCase()
    .replace(/\b(?:of\s+)?the\s+following\b/g, ' ')
    .match(/[a-z]+(?:-[a-z]+)*/g)
    ?.filter((w) => !QUALIFIERS.has(w));
  if (!words?.length) return [];
  if (!HEADS.has(words[0]!)) return words;
  return KIND_HEADS.has(words[0]!) && words[1] === 'of' ? words.slice(2) : [];
}

/** The category a per-item descriptor names, if WordNet can check it. */
export function categoryOf(descriptor: string): string | null {
  const rest = categoryWords(descriptor);
  if (rest.length !== 1) return null;
  const noun = [...forms(rest[0]!)].find((f) => lookup(f).length > 0);
  return noun && wellKnownCategory(noun) ? noun : null;
}

const MAX_DEPTH = 14;
const memo = new Map<string, boolean>();

/** Whether some noun sense of `word` is a kind (or instance) of `category`. */
export function isKindOf(word: string, category: string): boolean {
  const key = `${word} ${category}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const target = new Set(lookup(category));
  const seen = new Set<number>();
  let frontier = [...forms(word)].flatMap((f) => lookup(f));
  let found = false;
  for (let depth = 0; frontier.length && depth < MAX_DEPTH && !found; depth++) {
    const next: number[] = [];
    for (const o of frontier) {
      if (seen.has(o)) continue;
      seen.add(o);
      if (depth > 0 && target.has(o)) {
        found = true;
        break;
      }
      for (const p of synset(o).pointers) if ((p.symbol === '@' || p.symbol === '@i') && p.pos === 'noun') next.push(p.offset);
    }
    frontier = next;
  }
  if (memo.size > 20_000) memo.clear();
  memo.set(key, found);
  return found;
}

/** Whether any word or two-word name of an answer item is a kind of `category`. */
export function itemIsKindOf(words: string[], category: string): boolean {
  for (let i = 0; i < words.length; i++) {
    if (i + 1 < words.length && isKindOf(`${words[i]} ${words[i + 1]}`, category)) return true;
    if (isKindOf(words[i]!, category)) return true;
  }
  return false;
}
