/**
 * Vocabulary sets from WordNet: a description names a noun category ("cell organelles",
 * "planets", "parts of a flower"); its terms are the category's hyponyms and instances (or its
 * parts), each with its WordNet gloss as the definition.
 *
 * Nothing is invented: a meaning of the headword counts only when it accounts for every other
 * word of the description, either itself (its words, gloss, hypernyms or subject domain) or by
 * keeping only the terms whose glosses name that word ("layers of the earth": the crust, the
 * mantle...; "Renaissance painters": the painters whose gloss says Renaissance). Every term's
 * gloss must name the category (or, two levels down, its parent): "stone" -> "calculus" ->
 * "enterolith" stops at "calculus", whose gloss speaks of the body, not of stone. When the
 * meanings that remain are unrelated ("bonds": chemical bond, bond certificate) and none clearly
 * dominates in WordNet's tagged corpus, the description is ambiguous and is refused, with the
 * phrasings that would pick each meaning.
 */
import lemmatizer from 'wink-lemmatizer';
import { parseDescription, singular, wholePhrases, type Conjunct, type HeadCandidate } from './describe.ts';
import { lookup, synset, tagCounts, type Synset } from '../../lexicon/wordnet.ts';

export interface Term {
  term: string;
  synonyms: string[];
  definition: string;
  relation: 'kind' | 'part';
}

export interface VocabTopic {
  root: string;
  rootDefinition: string;
  relation: 'kinds' | 'parts';
  terms: Term[];
  /** Description words the terms were narrowed by (each term's gloss names them). */
  narrowedBy: string[];
}

export interface Meaning {
  gloss: string;
  /** A description that picks this meaning (checked), when one is found. */
  suggestion?: string;
}

export type VocabLookup =
  | { ok: true; topics: VocabTopic[] }
  | { ok: false; reason: 'none' }
  | { ok: false; reason: 'too-few'; root: string; found: number; terms: string[] }
  | { ok: false; reason: 'ambiguous'; phrase: string; meanings: Meaning[] };

export const MIN_TERMS = 4;
/** A meaning is read as the description's when its tagged uses are this many times all others'. */
const DOMINANCE = 3;

// Lexicographer files (noun.body, noun.animal, noun.plant, noun.person) and the words that only
// restate them: "bones of the human body" asks nothing a noun.body sense does not already say.
const LEXFILE_WORDS: Record<number, string[]> = { 8: ['human', 'body', 'anatomy'], 5: ['animal'], 20: ['plant'], 18: ['person', 'people'] };

const STOP = new Set(
  'that which with from into such other than this these those their there where when what used uses using usually especially often any various part parts kind kinds type types form forms made make makes something someone thing things having have being been more most less very also one two three some many much each either both same like small large'.split(
    ' ',
  ),
);

/** Lower-case words of a text with their noun lemmas. */
function tokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    out.add(w);
    out.add(lemmatizer.noun(w));
  }
  return out;
}

function flat(text: string): string {
  return ` ${text.toLowerCase().replace(/[^a-z]+/g, ' ').trim()} `;
}

/** Whether `text` names `name`: a word by itself or its lemma, a phrase as a whole (either number). */
function names(text: string, tok: Set<string>, name: string): boolean {
  const n = name.toLowerCase();
  if (!n.includes(' ')) return tok.has(n) || tok.has(lemmatizer.noun(n));
  const f = flat(text);
  const words = n.split(' ');
  return f.includes(` ${n} `) || f.includes(` ${[...words.slice(0, -1), `${words[words.length - 1]}s`].join(' ')} `);
}

/** What a sense says of itself: its words and gloss, two levels of hypernyms, its subject domain. */
function senseText(s: Synset): string {
  const texts = [s.words.join(' '), s.definition, ...(LEXFILE_WORDS[s.lexFile] ?? [])];
  let level = [s];
  for (let depth = 0; depth < 2; depth++) {
    const next: Synset[] = [];
    for (const x of level) for (const p of x.pointers) if (p.pos === 'noun' && (p.symbol === '@' || p.symbol === '@i')) next.push(synset(p.offset));
    for (const h of next) texts.push(h.words.join(' '), h.definition);
    level = next;
  }
  for (const p of s.pointers) if (p.symbol === ';c') texts.push(synset(p.offset, p.pos).words.join(' '));
  return texts.join(' ; ');
}

/** What a sense says in its own words: synonyms, gloss, subject domain, direct hypernyms' names. */
function ownText(s: Synset): string {
  const texts = [s.words.join(' '), s.definition];
  for (const p of s.pointers) if (p.symbol === ';c' || (p.pos === 'noun' && (p.symbol === '@' || p.symbol === '@i'))) texts.push(synset(p.offset, p.pos).words.join(' '));
  return texts.join(' ; ');
}

/** The names a term's gloss may use for the category: its synonyms and their content words. */
function rootNames(root: Synset): string[] {
  const out = new Set<string>();
  for (const w of root.words) {
    out.add(w.toLowerCase());
    if (w.includes(' ')) for (const part of w.toLowerCase().split(/[\s-]+/)) if (part.length >= 4 && !STOP.has(part)) out.add(part);
  }
  return [...out];
}

interface Candidate {
  synset: Synset;
  depth: number;
  parent: Synset;
  relation: 'kind' | 'part';
}

/** Kinds: hyponyms and instances two levels down, and the parts of the root. Parts: parts, their parts and kinds. */
function candidates(root: Synset, relation: 'kinds' | 'parts'): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set([root.offset]);
  const first = relation === 'kinds' ? ['~', '~i', '%p'] : ['%p'];
  const second = relation === 'kinds' ? ['~', '~i'] : ['%p', '~'];
  const level1: Candidate[] = [];
  for (const p of root.pointers) {
    if (p.pos !== 'noun' || !first.includes(p.symbol) || seen.has(p.offset)) continue;
    seen.add(p.offset);
    level1.push({ synset: synset(p.offset), depth: 1, parent: root, relation: p.symbol === '%p' ? 'part' : 'kind' });
  }
  out.push(...level1);
  for (const c of level1) {
    if (relation === 'kinds' && c.relation === 'part') continue;
    for (const p of c.synset.pointers) {
      if (p.pos !== 'noun' || !second.includes(p.symbol) || seen.has(p.offset)) continue;
      seen.add(p.offset);
      out.push({ synset: synset(p.offset), depth: 2, parent: c.synset, relation: relation === 'parts' ? 'part' : 'kind' });
    }
  }
  return out;
}

/** Terms of `root` whose glosses stay on the category, narrowed by `required` words the sense does not explain. */
function buildTopic(root: Synset, relation: 'kinds' | 'parts', required: readonly string[]): { topic?: VocabTopic; terms: Term[] } {
  const said = tokens(senseText(root));
  const narrowedBy = [...new Set(required.filter((w) => !said.has(w) && !said.has(lemmatizer.noun(w))))];
  // "of the human body" is what a noun.body sense says; its terms then stay in noun.body (a
  // bird's wishbone or a horse's cannon bone are noun.animal).
  const sameFile = required.some((w) => LEXFILE_WORDS[root.lexFile]?.includes(w));
  const rootWords = rootNames(root);
  const all = candidates(root, relation);
  const keptAtDepth1 = new Set<number>();
  const terms = new Map<string, Term>();
  const glosses = new Set<string>();
  for (const c of all) {
    const s = c.synset;
    if (s.definition.length <= 10 || (sameFile && s.lexFile !== root.lexFile)) continue;
    const tok = tokens(s.definition);
    // A gloss that names its own term ("cold weather: a period of unusually cold weather") says
    // nothing once the term is blanked out.
    if (s.words.some((w) => names(s.definition, tok, w))) continue;
    const onTopic =
      rootWords.some((n) => names(s.definition, tok, n)) ||
      (c.depth === 2 && (keptAtDepth1.has(c.parent.offset) && c.parent.words.some((n) => names(s.definition, tok, n)))) ||
      (c.depth === 2 && all.some((o) => o.depth === 1 && keptAtDepth1.has(o.synset.offset) && o.synset.words.some((n) => names(s.definition, tok, n))));
    if (!onTopic) continue;
    if (c.depth === 1) keptAtDepth1.add(s.offset);
    if (narrowedBy.length) {
      const own = `${s.words.join(' ')} ; ${s.definition}`;
      const ownTok = tokens(own);
      if (!narrowedBy.every((w) => names(own, ownTok, w))) continue;
    }
    const key = s.words[0].toLowerCase();
    // Two terms with one gloss would make a question with two right answers.
    const gloss = s.definition.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    if (key === root.words[0].toLowerCase() || terms.has(key) || glosses.has(gloss)) continue;
    glosses.add(gloss);
    terms.set(key, { term: s.words[0], synonyms: s.words.slice(1), definition: s.definition, relation: c.relation });
  }
  const list = [...terms.values()];
  if (list.length < MIN_TERMS) return { terms: list };
  return { topic: { root: root.words[0], rootDefinition: root.definition, relation, terms: list, narrowedBy }, terms: list };
}

/** Two meanings belong together when their glosses (with their hypernyms') share a content word or a hypernym. */
function related(a: Synset, b: Synset): boolean {
  const content = (s: Synset) => {
    const words = new Set<string>();
    const hypers = s.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i').map((p) => synset(p.offset));
    for (const t of [s.definition, ...hypers.map((h) => h.words.join(' '))]) for (const w of t.toLowerCase().match(/[a-z]{4,}/g) ?? []) if (!STOP.has(w)) words.add(lemmatizer.noun(w));
    return { words, hypers: new Set(hypers.map((h) => h.offset)) };
  };
  const x = content(a);
  const y = content(b);
  // Only a specific word (three noun senses at most: "mineral", "particle") ties two meanings;
  // "unit" or "nucleus" are shared by a biological cell and a political one.
  for (const w of x.words) if (y.words.has(w) && lookup(w).length <= 3) return true;
  for (const h of x.hypers) if (y.hypers.has(h)) return true;
  return false;
}

/** A subject word picks a meaning whose text names it or a word of the same stem ("chemistry", "chemical"). */
function subjectMatches(text: string, subject: string): boolean {
  const stem = subject.slice(0, 5);
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).some((w) => w === subject || (w.length >= 5 && w.startsWith(stem)));
}

interface Passing {
  synset: Synset;
  topic: VocabTopic;
}

type Choice = { ok: true; topic: VocabTopic; offsets: number[] } | { ok: false; groups: Passing[][] };

function choose(all: Passing[], phrase: string, soft: readonly string[]): Choice {
  // Subject words keep the meanings they name ("genres of music"), when they name any.
  const named = soft.length ? all.filter((p) => soft.some((w) => subjectMatches(ownText(p.synset), w))) : [];
  const passing = named.length ? named : all;
  const groups: Passing[][] = [];
  for (const p of passing) {
    const g = groups.find((grp) => grp.some((q) => related(q.synset, p.synset)));
    if (g) g.push(p);
    else groups.push([p]);
  }
  if (groups.length > 1) {
    const counts = tagCounts(phrase);
    const weight = (g: Passing[]) => g.reduce((n, p) => n + (counts.get(p.synset.offset) ?? 0), 0);
    groups.sort((a, b) => weight(b) - weight(a));
    const top = weight(groups[0]!);
    const rest = groups.slice(1).reduce((n, g) => n + weight(g), 0);
    if (!(top >= DOMINANCE && top >= DOMINANCE * rest)) return { ok: false, groups };
  }
  const group = groups[0]!;
  const merged = new Map<string, Term>();
  const glosses = new Set<string>();
  for (const p of group)
    for (const t of p.topic.terms) {
      const gloss = t.definition.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
      if (merged.has(t.term.toLowerCase()) || glosses.has(gloss)) continue;
      glosses.add(gloss);
      merged.set(t.term.toLowerCase(), t);
    }
  const first = group[0]!.topic;
  return { ok: true, topic: { ...first, terms: [...merged.values()], narrowedBy: [...new Set(group.flatMap((p) => p.topic.narrowedBy))] }, offsets: group.map((p) => p.synset.offset) };
}

type ConjunctResult =
  | { ok: true; topic: VocabTopic; offsets: number[] }
  | { ok: false; tooFew?: { root: string; found: number; terms: string[] }; ambiguous?: { phrase: string; groups: Passing[][] } };

function resolveConjunct(attempts: HeadCandidate[], relation: 'kinds' | 'parts', explicit: boolean, soft: readonly string[]): ConjunctResult {
  let tooFew: { root: string; found: number; terms: string[] } | undefined;
  for (const { phrase, plural, required } of attempts) {
    if (!explicit && !plural) continue;
    const passing: Passing[] = [];
    for (const off of lookup(phrase)) {
      const root = synset(off);
      const built = buildTopic(root, relation, required);
      if (built.topic) passing.push({ synset: root, topic: built.topic });
      else if (built.terms.length > 0 && (!tooFew || built.terms.length > tooFew.found)) tooFew = { root: root.words[0], found: built.terms.length, terms: built.terms.map((t) => t.term) };
    }
    if (passing.length === 0) continue;
    const c = choose(passing, phrase, soft);
    if (c.ok) return c;
    return { ok: false, ambiguous: { phrase, groups: c.groups } };
  }
  return { ok: false, tooFew };
}

function plural(phrase: string): string {
  const words = phrase.split(' ');
  const last = words.pop()!;
  const p = /(s|x|z|ch|sh)$/.test(last) ? `${last}es` : /[^aeiou]y$/.test(last) ? `${last.slice(0, -1)}ies` : `${last}s`;
  return [...words, p].join(' ');
}

/** Descriptions that would pick one group's meaning, each checked by resolving it. */
function suggestion(group: Passing[], phrase: string, relation: 'kinds' | 'parts', explicit: boolean): string | undefined {
  const s = group[0]!.synset;
  const head = phrase.split(' ').pop()!;
  const tries: string[] = [];
  for (const w of s.words) if (w.toLowerCase() !== phrase && w.toLowerCase().split(' ').includes(head)) tries.push(plural(w.toLowerCase()));
  for (const p of s.pointers) if (p.symbol === ';c') tries.push(`${plural(phrase)} (${synset(p.offset, p.pos).words[0].toLowerCase()})`);
  for (const p of s.pointers) if (p.symbol === '@' || p.symbol === '@i') tries.push(`${plural(phrase)} (${synset(p.offset).words[0].toLowerCase()})`);
  const offsets = new Set(group.map((p) => p.synset.offset));
  for (const t of tries.slice(0, 6)) {
    const prefix = relation === 'parts' ? 'parts of ' : '';
    const r = resolve(`${prefix}${t}`, explicit, false);
    if (r.ok && r.offsets.length && r.offsets.every((o) => offsets.has(o))) return `${prefix}${t}`;
  }
  return undefined;
}

function resolve(description: string, explicit: boolean, suggest: boolean): { ok: true; topics: VocabTopic[]; offsets: number[] } | Exclude<VocabLookup, { ok: true }> {
  const query = parseDescription(description);
  const topics: VocabTopic[] = [];
  const offsets: number[] = [];
  // A whole-description lemma ("part of speech", "state of matter") is tried first, as one category.
  const whole = wholePhrases(description).filter((p) => lookup(p).length > 0);
  if (whole.length) {
    const r = resolveConjunct(whole.map((phrase) => ({ phrase, plural: true, required: [] })), 'kinds', true, []);
    if (r.ok) return { ok: true, topics: [r.topic], offsets: r.offsets };
  }
  let tooFew: { root: string; found: number; terms: string[] } | undefined;
  for (const conj of query.conjuncts as Conjunct[]) {
    const r = resolveConjunct(conj.candidates, query.relation, explicit, conj.soft);
    if (r.ok) {
      topics.push(r.topic);
      offsets.push(...r.offsets);
      continue;
    }
    if (r.ambiguous) {
      const { phrase, groups } = r.ambiguous;
      return {
        ok: false,
        reason: 'ambiguous',
        phrase,
        meanings: groups.map((g) => ({ gloss: g[0]!.synset.definition, suggestion: suggest ? suggestion(g, phrase, query.relation, explicit) : undefined })),
      };
    }
    tooFew = r.tooFew;
    break;
  }
  if (topics.length === query.conjuncts.length && topics.length > 0) return { ok: true, topics, offsets };
  return tooFew ? { ok: false, reason: 'too-few', ...tooFew } : { ok: false, reason: 'none' };
}

/** The WordNet categories a description names (one per "and"), or why there are none. */
export function findVocabTopics(description: string, explicit: boolean): VocabLookup {
  const r = resolve(description, explicit, true);
  return r.ok ? { ok: true, topics: r.topics } : r;
}

export { singular };
