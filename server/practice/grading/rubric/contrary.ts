/**
 * What a qualified category rules out. "1 point for each example of a renewable energy source"
 * names a phrase WordNet has no tree under, so any distinct item counts (category.ts); but WordNet
 * does say what its qualifier's antonym is said of: "gas and oil are nonrenewable resources", so
 * fossil fuels (the kind gas and oil share) are ruled out, and coal with them. An antonym is
 * disjoint by meaning; sibling kinds are not ("primary color" and "chromatic color" share red),
 * so only the antonym's evidence refuses an item. Without it every distinct item counts as before,
 * and an item the qualifier's own examples name ("renewable energy such as solar energy") is never
 * ruled out.
 */
import { lookup, synset, type Synset } from '../../lexicon/wordnet.ts';
import { forms } from '../text.ts';

/** A kind no counted item may be, and why (told to the student). */
export interface Contrary {
  /** A WordNet noun synset: the item may be neither it nor a kind of it. */
  kind: number;
  /** Its name ("fossil fuel"). */
  label: string;
  /** The WordNet example that rules it out. */
  why: string;
}

export interface Contraries {
  ruledOut: Contrary[];
  /** Kinds the category's own qualifier names as examples: never ruled out. */
  named: Set<number>;
}

export const NO_CONTRARIES: Contraries = { ruledOut: [], named: new Set() };
/** How far above two example words their shared kind may be: "gas" and "oil" are fossil fuels, one level up. */
const SHARED_DEPTH = 1;
/** How far above an item's senses a ruled-out kind is looked for (the depth of WordNet's noun tree). */
const KIND_DEPTH = 14;

function nounSynsets(word: string): number[] {
  return [...new Set([...forms(word)].flatMap((f) => lookup(f)))];
}

const ancestorsCache = new Map<string, Map<number, number>>();
/** Every kind above `offset` (itself included) with its distance, up to `depth` levels; read once per synset (every answer item asks). */
function ancestors(offset: number, depth: number): Map<number, number> {
  const key = `${offset}:${depth}`;
  const hit = ancestorsCache.get(key);
  if (hit) return hit;
  const out = new Map<number, number>([[offset, 0]]);
  let frontier = [offset];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: number[] = [];
    for (const o of frontier) {
      for (const p of synset(o).pointers) {
        if ((p.symbol !== '@' && p.symbol !== '@i') || p.pos !== 'noun' || out.has(p.offset)) continue;
        out.set(p.offset, d);
        next.push(p.offset);
      }
    }
    frontier = next;
  }
  if (ancestorsCache.size > 20_000) ancestorsCache.clear();
  ancestorsCache.set(key, out);
  return out;
}

/** The nearest kinds that some sense of every word falls under ("gas", "oil" → fossil fuel). */
function sharedKinds(words: string[]): Set<number> {
  const perWord = words.map((w) => {
    const near = new Map<number, number>();
    for (const s of nounSynsets(w)) for (const [k, d] of ancestors(s, SHARED_DEPTH)) near.set(k, Math.min(d, near.get(k) ?? Infinity));
    return near;
  });
  if (perWord.some((m) => m.size === 0)) return new Set();
  let best = Infinity;
  const at = new Map<number, number>();
  for (const [k] of perWord[0]!) {
    if (!perWord.every((m) => m.has(k))) continue;
    const d = Math.max(...perWord.map((m) => m.get(k)!));
    at.set(k, d);
    best = Math.min(best, d);
  }
  return new Set([...at].filter(([, d]) => d === best).map(([k]) => k));
}

/** The head noun of a noun phrase: its last word before a preposition ("books on that shelf" → books). */
function headOf(phrase: string): string | null {
  const words = phrase.toLowerCase().split(/\s+(?:on|in|of|at|from|with|for)\s+/)[0]!.match(/[a-z]+/g);
  return words?.at(-1) ?? null;
}

/** A subject read from an example: at most this many words ("gas and oil"), not a clause. */
const SUBJECT_WORDS = 5;

/**
 * The kinds WordNet's examples say an adjective sense of, each with its example: "gas and oil are
 * nonrenewable resources" says it of what gas and oil share (fossil fuel). A lone subject ("books
 * on that shelf are unrenewable") is not read: it may be another sense of the adjective, while
 * two named things and the kind they share are clear.
 */
function saidOf(adj: Synset): Map<number, string> {
  const out = new Map<number, string>();
  const names = adj.words.map((w) => w.toLowerCase().replace(/[^a-z -]/g, '')).join('|');
  const copula = new RegExp(String.raw`^(.+?)\s+(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:${names})\b\s*([a-z]*)`, 'i');
  for (const [, example] of adj.gloss.matchAll(/"([^"]+)"/g)) {
    const [, subject, noun] = copula.exec(example!) ?? [];
    if (!subject || subject.split(/\s+/).length > SUBJECT_WORDS) continue;
    const heads = subject.split(/\s*,\s*|\s+(?:and|or)\s+/).map(headOf).filter((h): h is string => h !== null);
    if (heads.length < 2) continue;
    // "Mercury and Venus are inferior planets": the planets they share, not the Roman gods.
    const kinds = [...sharedKinds(heads)];
    const ofNoun = noun ? kinds.filter((k) => related(noun, k)) : [];
    for (const k of ofNoun.length ? ofNoun : kinds) out.set(k, example!);
  }
  return out;
}

/** Things WordNet's examples name as instances of an adjective sense: "renewable energy such as solar energy". */
function namedBy(adj: Synset): number[] {
  const names = adj.words.map((w) => w.toLowerCase().replace(/[^a-z -]/g, '')).join('|');
  const such = new RegExp(String.raw`\b(?:${names})\s+\w+\s+(?:such\s+as|like)\s+([a-z ]+?)(?:\s+(?:is|are|was|were)\b|$)`, 'i');
  return [...adj.gloss.matchAll(/"([^"]+)"/g)].flatMap(([, example]) => such.exec(example!)?.[1]?.split(/\s+(?:and|or)\s+/).flatMap((name) => lookup(name).slice(0, 1)) ?? []);
}

/** Adjective senses of a word, hyphens dropped ("non-renewable" is WordNet's "nonrenewable"). */
function adjectiveSenses(word: string): Synset[] {
  const w = word.replace(/-/g, '');
  return [...new Set([...lookup(word, 'adj'), ...lookup(w, 'adj')])].map((o) => synset(o, 'adj'));
}

/**
 * Whether `kind` is a sense of `head`, a kind of one or above one. A ruled-out kind so related to
 * the category's head is not disjoint from the category ("monotremes and marsupials are aplacental
 * mammals" does not rule mammals out of "placental mammal", nor "Mercury and Venus are inferior
 * planets" terrestrial planets out of "superior planet": Mars is both).
 */
function related(head: string, kind: number): boolean {
  const own = nounSynsets(head);
  return own.some((o) => ancestors(o, KIND_DEPTH).has(kind)) || [...ancestors(kind, KIND_DEPTH).keys()].some((k) => own.includes(k));
}

function byQualifier(qualifier: string, head: string): Contraries {
  const senses = adjectiveSenses(qualifier);
  const named = new Set(senses.flatMap((s) => [...saidOf(s).keys(), ...namedBy(s)]));
  const ruledOut: Contrary[] = [];
  for (const p of senses.flatMap((s) => s.pointers.filter((x) => x.symbol === '!'))) {
    const antonym = synset(p.offset, 'adj');
    for (const [kind, example] of saidOf(antonym)) {
      if (!named.has(kind) && !related(head, kind) && !ruledOut.some((c) => c.kind === kind)) ruledOut.push({ kind, label: synset(kind).words[0]!.toLowerCase(), why: `WordNet: "${example}"` });
    }
  }
  return { ruledOut, named };
}

const cache = new Map<string, Contraries>();
/** What the category words of a per-item descriptor ("renewable energy source", "igneous rock") rule out. */
export function contrariesOf(categoryWords: string[]): Contraries {
  if (categoryWords.length < 2) return NO_CONTRARIES;
  const key = categoryWords.join(' ');
  let v = cache.get(key);
  if (!v) {
    v = byQualifier(categoryWords[0]!, categoryWords.at(-1)!);
    if (cache.size > 1000) cache.clear();
    cache.set(key, v);
  }
  return v;
}

/** Why an item (its content words) is ruled out: a word or two-word name of it is a ruled-out kind or a kind of one. Null when none is. */
export function ruledOut(words: string[], c: Contraries): string | null {
  if (!c.ruledOut.length) return null;
  const names = words.flatMap((w, i) => (i + 1 < words.length ? [`${w} ${words[i + 1]}`, w] : [w]));
  const kinds = names.map((name) => {
    const out = new Set<number>();
    for (const s of name.includes(' ') ? lookup(name) : nounSynsets(name)) for (const k of ancestors(s, KIND_DEPTH).keys()) out.add(k);
    return out;
  });
  if (kinds.some((k) => [...c.named].some((n) => k.has(n)))) return null;
  for (const contrary of c.ruledOut) {
    const i = kinds.findIndex((k) => k.has(contrary.kind));
    if (i >= 0) return `"${names[i]}" is ${names[i] === contrary.label ? 'ruled out' : `a kind of ${contrary.label}`} (${contrary.why})`;
  }
  return null;
}
