/**
 * A superlative the answer adds about its thing: "Jupiter, which is also the closest planet to the
 * Sun". A superlative names one thing of its kind, so when WordNet's glosses give it to another
 * ("Mercury: the smallest planet and the nearest to the sun") and not to the answer's thing, the
 * added claim is false. WordNet is the only knowledge read: a superlative no gloss gives to any
 * thing of the kind ("the most beautiful planet") is left alone.
 */
import lemmatizer from 'wink-lemmatizer';
import { lookup, synset, type Synset } from '../lexicon/wordnet.ts';
import { STOPWORDS } from './text.ts';

/** Things of a kind read for glosses: its kinds and instances, this many levels down, at most MAX_THINGS. */
const DEPTH = 3;
const MAX_THINGS = 3000;
/** Senses of the kind's noun read ("planet": the celestial body, not the astrology sense). */
const KIND_SENSES = 2;
/** Words after the noun read as the superlative's complement ("to the Sun", "in Africa"). */
const COMPLEMENT_WORDS = 4;
/** Words after a superlative that name no kind ("the biggest one"). */
const NOT_KINDS = new Set(['one', 'ones', 'thing', 'things', 'kind', 'type', 'part', 'way', 'of', 'in', 'to', 'on', 'at', 'for']);
const IRREGULAR: Record<string, string> = { best: 'good', worst: 'bad', farthest: 'far', furthest: 'far', least: 'little', most: 'much' };

interface Claim {
  /** As written: "closest planet to the Sun". */
  text: string;
  /** The adjective ("close"). */
  base: string;
  /** Superlative forms that say the same ("closest", "nearest"). */
  forms: Set<string>;
  kind: string;
  complement: string[];
}

/** Superlative forms of an adjective: near → nearest, close → closest, big → biggest, early → earliest. */
function superlatives(adj: string): string[] {
  const out = [`${adj}est`, `most ${adj}`];
  if (adj.endsWith('e')) out.push(`${adj}st`);
  if (adj.endsWith('y')) out.push(`${adj.slice(0, -1)}iest`);
  if (/[^aeiou][aeiou][bdgmnpt]$/.test(adj)) out.push(`${adj}${adj.at(-1)}est`);
  for (const [sup, base] of Object.entries(IRREGULAR)) if (base === adj) out.push(sup);
  return out;
}

/** The adjective a superlative is of ("closest" → close), or null when the word is none. */
function baseOf(word: string): string | null {
  if (IRREGULAR[word] && word !== 'most' && word !== 'least') return IRREGULAR[word]!;
  if (!/est$/.test(word)) return null;
  const base = lemmatizer.adjective(word);
  return base !== word && lookup(base, 'adj').length > 0 ? base : null;
}

/** Words of an answer read for superlatives, and claims checked: each costs a scan of its kind's glosses. */
const SCAN_WORDS = 300;
const MAX_CLAIMS = 4;

function claimsIn(text: string): Claim[] {
  const words = (text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? []).slice(0, SCAN_WORDS);
  const out: Claim[] = [];
  words.forEach((w, i) => {
    if (out.length >= MAX_CLAIMS) return;
    const most = (w === 'most' || w === 'least') && words[i + 1] ? words[i + 1]! : null;
    const base = most ?? baseOf(w);
    const at = most ? i + 2 : i + 1;
    const kind = words[at];
    if (!base || !kind || NOT_KINDS.has(kind) || lookup(lemmatizer.noun(kind)).length === 0) return;
    const synonyms = new Set([base, ...lookup(base, 'adj').flatMap((o) => synset(o, 'adj').words.map((x) => x.toLowerCase()))]);
    const forms = new Set([...synonyms].filter((s) => !s.includes(' ')).flatMap(superlatives));
    if (most) for (const s of synonyms) forms.add(`most ${s}`);
    const complement = words.slice(at + 1, at + 1 + COMPLEMENT_WORDS).filter((x) => !STOPWORDS.has(x)).slice(0, 2);
    const said = words.slice(i, at + 1 + COMPLEMENT_WORDS);
    while (STOPWORDS.has(said.at(-1)!)) said.pop();
    out.push({ text: said.join(' '), base, forms, kind: lemmatizer.noun(kind), complement });
  });
  return out;
}

const thingsCache = new Map<string, Synset[]>();
/** The kinds and instances of a kind's noun, DEPTH levels down. */
function thingsOf(kind: string): Synset[] {
  let v = thingsCache.get(kind);
  if (!v) {
    const seen = new Set<number>();
    let frontier = lookup(kind).slice(0, KIND_SENSES);
    for (let d = 0; d < DEPTH && frontier.length && seen.size < MAX_THINGS; d++) {
      const next: number[] = [];
      for (const o of frontier) for (const p of synset(o).pointers) if ((p.symbol === '~' || p.symbol === '~i') && !seen.has(p.offset) && seen.size < MAX_THINGS) (seen.add(p.offset), next.push(p.offset));
      frontier = next;
    }
    v = [...seen].map((o) => synset(o));
    if (thingsCache.size > 500) thingsCache.clear();
    thingsCache.set(kind, v);
  }
  return v;
}

/** Words that do not narrow a superlative: "the largest ocean in the world" is the largest ocean. */
const UNRESTRICTED = new Set(['world', 'known', 'ever']);
const ORDINAL = /^(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$/;

const kindWordsCache = new Map<string, Set<string>>();
/** The words of a kind's senses ("planet"; "mountain", "mount"). */
function kindWords(kind: string): Set<string> {
  let v = kindWordsCache.get(kind);
  if (!v) {
    v = new Set([kind, ...lookup(kind).slice(0, KIND_SENSES).flatMap((o) => synset(o).words.map((w) => w.toLowerCase()))]);
    if (kindWordsCache.size > 500) kindWordsCache.clear();
    kindWordsCache.set(kind, v);
  }
  return v;
}

/**
 * How many words after a gloss's superlative name the claim's kind: 0 when none is named ("the
 * nearest to the sun"), 1 or 2 for the kind ("planet", "mountain peak"); null when they name another
 * kind ("the highest volcano" is not "the highest mountain").
 */
function kindWidth(rest: string[], kind: string): number | null {
  const first = rest[0];
  if (first === undefined || STOPWORDS.has(first)) return 0;
  const words = kindWords(kind);
  if (rest[1] && lookup(`${first} ${rest[1]}`).length && (words.has(first) || words.has(lemmatizer.noun(rest[1])))) return 2;
  return words.has(first) || words.has(lemmatizer.noun(first)) ? 1 : null;
}

/**
 * Whether a gloss gives a thing the superlative (one of `forms`) in the claim's scope: not "the
 * world's 2nd longest river" or "one of the world's longest", not of another kind, not narrowed by
 * words the claim does not say ("highest peak on the West African coast"), and with the claim's
 * complement ("to the sun").
 */
function glossSays(s: Synset, forms: Set<string>, c: Claim): boolean {
  const complement = (t: string) => c.complement.some((w) => w === t || lemmatizer.noun(w) === t || lemmatizer.noun(t) === w);
  for (const clause of s.definition.toLowerCase().split(/[;,(]|\band\b/)) {
    const tokens = clause.match(/[a-z0-9]+/g) ?? [];
    for (let i = 0; i < tokens.length; i++) {
      const width = forms.has(tokens[i]!) ? 1 : forms.has(`${tokens[i]} ${tokens[i + 1]}`) ? 2 : 0;
      if (!width || ORDINAL.test(tokens[i - 1] ?? '') || tokens.slice(Math.max(0, i - 6), i).includes('one')) continue;
      const rest = tokens.slice(i + width);
      const kind = kindWidth(rest, c.kind);
      if (kind === null) continue;
      const narrowing = rest.slice(kind).filter((t) => !STOPWORDS.has(t) && !UNRESTRICTED.has(t) && !complement(t));
      if (narrowing.length === 0 && c.complement.every((w) => tokens.some((t) => t === w || t === lemmatizer.noun(w)))) return true;
    }
  }
  return false;
}

/** Superlative forms of the antonyms of a claim's adjective: "smallest" against "largest". */
function opposites(c: Claim): Set<string> {
  return new Set(
    lookup(c.base, 'adj').flatMap((o) =>
      synset(o, 'adj').pointers.filter((p) => p.symbol === '!').flatMap((p) => synset(p.offset, 'adj').words.filter((w) => !w.includes(' ')).flatMap((w) => superlatives(w.toLowerCase()))),
    ),
  );
}

/**
 * The superlative claim of `answer` that WordNet contradicts for `thing` (the reference's noun
 * senses): its gloss gives the thing the opposite ("the largest ocean" said "the smallest"), or
 * gives the claim to another thing of its kind. Described; null when there is none.
 */
export function misattributedSuperlative(answer: string, thing: Synset[]): string | null {
  if (!thing.length) return null;
  const own = new Set(thing.map((s) => s.offset));
  const said = ` ${answer.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const name = thing[0]!.words[0];
  for (const c of claimsIn(answer)) {
    if (thing.some((s) => glossSays(s, c.forms, c))) continue;
    const opposite = opposites(c);
    const against = thing.find((s) => glossSays(s, opposite, c));
    if (against) return `WordNet says ${name} is "${against.definition}"`;
    const holders = thingsOf(c.kind).filter((s) => glossSays(s, c.forms, c));
    // "Jupiter; Mercury is the closest planet": said of the thing that holds it, which the answer names.
    if (!holders.length || holders.some((s) => own.has(s.offset) || s.words.some((w) => said.includes(` ${w.toLowerCase()} `)))) continue;
    const other = holders[0]!;
    return `WordNet gives "the ${c.text}" to ${other.words[0]} ("${other.definition}"), not to ${name}`;
  }
  return null;
}
