/**
 * Offline flashcard extraction: terms and definitions taken from the content itself.
 *
 * Candidate kinds, best first (score in brackets):
 *   [6] a bold term that is the subject of a definition sentence ("**Osmosis** is the movement ...")
 *   [5] "Term: definition" / "Term — definition" lines (paragraphs or list items)
 *   [5] strong definition sentences ("X refers to / means / is defined as Y", "Y is called X")
 *   [4] "X is a/an/the Y" sentences
 *   [3] other bold terms, with the sentence they appear in
 *   [2] a heading with the first sentence of the text under it
 * Cards are deduplicated on the front (case, whitespace, articles and trailing punctuation
 * ignored; the better candidate wins), the best `count` are kept and returned in document order.
 * Deterministic: the same input always gives the same cards.
 */
import { cleanText, flattenInput, SourceTextError, splitSentences, type FlatBlock, type SourceInput } from '../sources/text-blocks.ts';
import { workerOperation } from '../workers/pool.ts';

export interface Flashcard {
  front: string;
  back: string;
  source_block_id?: string;
}

export const FLASHCARD_COUNT_DEFAULT = 10;
export const FLASHCARD_COUNT_MAX = 50;

const MAX_FRONT = 80;
const MAX_BACK = 300;
const MAX_TERM_WORDS = 6;

interface Candidate {
  front: string;
  back: string;
  id?: string;
  score: number;
  /** Document position: block index, then order inside the block. */
  pos: number;
}

const NON_TERMS = new Set([
  'it', 'this', 'that', 'these', 'those', 'there', 'here', 'they', 'he', 'she', 'we', 'you', 'i', 'which',
  'what', 'who', 'one', 'each', 'all', 'some', 'many', 'most', 'such', 'another', 'other', 'both', 'none',
  'everything', 'something', 'nothing', 'anything', 'everyone', 'someone', 'result', 'answer', 'reason',
  'problem', 'goal', 'idea', 'point', 'question', 'example', 'thing', 'way', 'today', 'now', 'then',
]);
const LABELS = new Set([
  'note', 'notes', 'example', 'examples', 'e.g', 'eg', 'warning', 'tip', 'tips', 'important', 'answer', 'question',
  'source', 'sources', 'see also', 'remember', 'hint', 'caution', 'todo', 'summary', 'step', 'url', 'link',
  'date', 'time', 'author', 'by', 'update', 'edit', 'ps', 'nb', 'q', 'a',
]);
const GENERIC_HEADINGS = new Set([
  'introduction', 'intro', 'overview', 'summary', 'conclusion', 'conclusions', 'notes', 'background',
  'references', 'sources', 'contents', 'table of contents', 'appendix', 'examples', 'example', 'exercises',
  'practice', 'review', 'questions', 'key terms', 'glossary', 'vocabulary', 'definitions', 'further reading',
  'abstract', 'outline', 'agenda', 'recap', 'todo', 'misc', 'other',
]);

function words(s: string): string[] {
  return s.split(/\s+/).filter(Boolean);
}

function stripDecor(s: string): string {
  return cleanText(s.replace(/\*\*|__/g, '')).replace(/^["'“‘(\[]+|["'”’)\]]+$/g, '').trim();
}

function cleanFront(term: string): string {
  let t = stripDecor(term).replace(/[\s:;,.—–-]+$/, '');
  t = t.replace(/^(?:the|a|an)\s+/i, '');
  // Lower-case words at the start of a phrase read better capitalized ("mitochondria" -> "Mitochondria").
  if (/^[a-z]/.test(t) && !/[A-Z]/.test(t.slice(1, 2))) t = t[0]!.toUpperCase() + t.slice(1);
  return t.length > MAX_FRONT ? `${t.slice(0, MAX_FRONT - 1).trimEnd()}…` : t;
}

function cleanBack(def: string): string {
  let t = stripDecor(def).replace(/^[\s:;,—–-]+/, '');
  if (/^[a-z]/.test(t)) t = t[0]!.toUpperCase() + t.slice(1);
  if (t.length > MAX_BACK) {
    // Prefer whole sentences, then a word boundary.
    const sentences = splitSentences(t);
    let out = '';
    for (const s of sentences) {
      if ((out ? out.length + 1 : 0) + s.length > MAX_BACK) break;
      out = out ? `${out} ${s}` : s;
    }
    if (!out) {
      const cut = t.slice(0, MAX_BACK - 1);
      out = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_BACK / 2)).trimEnd()}…`;
    }
    t = out;
  }
  return t;
}

/** Dedup key of a front: case, whitespace, leading articles and punctuation ignored. */
export function frontKey(front: string): string {
  return cleanText(front)
    .toLowerCase()
    .replace(/^(?:the|a|an)\s+/, '')
    .replace(/[\s.,;:!?…'"“”‘’()[\]-]+$/g, '')
    .replace(/^[\s'"“”‘’([\]-]+/g, '');
}

function isTerm(term: string, maxWords = MAX_TERM_WORDS): boolean {
  const t = stripDecor(term).replace(/^(?:the|a|an)\s+/i, '');
  const w = words(t);
  if (w.length === 0 || w.length > maxWords || t.length < 2 || t.length > MAX_FRONT) return false;
  if (!/^[\p{L}\p{N}]/u.test(t) || /^\d+$/.test(t)) return false;
  if (NON_TERMS.has(w[0]!.toLowerCase())) return false;
  if (/[.!?]\s/.test(t) || /https?:/i.test(t)) return false;
  return true;
}

function isDefinition(def: string): boolean {
  const t = stripDecor(def);
  return words(t).length >= 2 && t.length >= 8;
}

const STRONG_DEF = /^(?:(?:the|an?)\s+)?(.{2,60}?)\s*,?\s+(is defined as|are defined as|is the term for|refers to|refer to|means|is known as|describes|denotes)\s+(.{6,})$/i;
const IS_A_DEF = /^(?:(?:the|an?)\s+)?(.{2,60}?)\s+(is|are)\s+((?:a|an|the|one|any|a kind of|a type of)\s+.{4,})$/i;
const CALLED_DEF = /^(.{10,}?)\s+(?:is|are)\s+(?:called|known as|termed|named)\s+(?:an?\s+|the\s+)?["'“]?(.{2,60}?)["'”]?[.!]?$/i;
const COLON_LINE = /^(.{1,60}?)\s*(?::|\s[—–]\s|\s-\s)\s*(.+)$/;

function definitionFromSentence(sentence: string): { front: string; back: string; strong: boolean } | null {
  const s = sentence.trim();
  let m = STRONG_DEF.exec(s);
  if (m && isTerm(m[1]!, 5) && isDefinition(m[3]!)) {
    return { front: m[1]!, back: m[3]!, strong: true };
  }
  m = CALLED_DEF.exec(s);
  if (m && isTerm(m[2]!, 4) && isDefinition(m[1]!) && !NON_TERMS.has(words(m[1]!)[0]!.toLowerCase())) {
    return { front: m[2]!, back: m[1]!, strong: true };
  }
  m = IS_A_DEF.exec(s);
  if (m && isTerm(m[1]!, 5) && isDefinition(m[3]!)) return { front: m[1]!, back: m[3]!, strong: false };
  return null;
}

function isTermLine(text: string): boolean {
  const colon = COLON_LINE.exec(text);
  return Boolean(colon && isTerm(colon[1]!) && !LABELS.has(frontKey(stripDecor(colon[1]!))) && isDefinition(colon[2]!) && !/^\/\//.test(colon[2]!));
}

function blockCandidates(b: FlatBlock, index: number): Candidate[] {
  const out: Candidate[] = [];
  let order = 0;
  const add = (front: string, back: string, score: number) => {
    const f = cleanFront(front);
    const bk = cleanBack(back);
    if (!f || !bk || frontKey(f) === frontKey(bk)) return;
    out.push({ front: f, back: bk, score, pos: index * 1000 + order++, ...(b.id ? { id: b.id } : {}) });
  };
  const text = b.text;

  // "Term: definition" (also "Term — definition") lines.
  if (isTermLine(text)) {
    const colon = COLON_LINE.exec(text)!;
    add(colon[1]!, colon[2]!, 5);
    return out;
  }

  const strongTerms = b.runs
    .filter((r) => r.strong)
    .map((r) => stripDecor(r.text).replace(/[\s:;,.]+$/, ''))
    .filter((t) => isTerm(t));
  const used = new Set<string>();
  for (const sentence of splitSentences(text)) {
    const def = definitionFromSentence(sentence);
    if (def) {
      const key = frontKey(def.front);
      const bold = strongTerms.some((t) => frontKey(t) === key);
      add(def.front, def.back, bold ? 6 : def.strong ? 5 : 4);
      used.add(key);
    }
    for (const term of strongTerms) {
      const key = frontKey(term);
      if (used.has(key) || !sentence.includes(term)) continue;
      used.add(key);
      // "**Term** — definition" or "**Term**, definition" at the start of the sentence.
      const lead = new RegExp(`^\\s*${escapeRe(term)}\\s*(?:[:—–,]|\\s-\\s)\\s*(.+)$`).exec(sentence);
      // "... **term**, a/an/the description, ..." (an appositive).
      const appositive = new RegExp(`${escapeRe(term)},\\s+((?:a|an|the)\\s+[^,;.!?]{4,})`, 'i').exec(sentence);
      if (lead && isDefinition(lead[1]!)) add(term, lead[1]!, 5);
      else if (appositive && isDefinition(appositive[1]!)) add(term, appositive[1]!, 4);
      else if (stripDecor(sentence).length > term.length + 8) add(term, sentence, 3);
    }
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class FlashcardError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'FlashcardError';
    this.code = code;
  }
}

/**
 * Extracts up to `count` (1..50, default 10) term/definition cards from a journal or plain text.
 * Throws FlashcardError for an invalid count and SourceTextError for empty or malformed input; returns
 * an empty array when the content has text but nothing that reads as a term and its definition.
 */
export function extractFlashcards(input: SourceInput, count: number = FLASHCARD_COUNT_DEFAULT): Flashcard[] {
  if (!Number.isInteger(count) || count < 1 || count > FLASHCARD_COUNT_MAX) {
    throw new FlashcardError(`count must be an integer from 1 to ${FLASHCARD_COUNT_MAX}`, 'invalid_count');
  }
  const blocks = flattenInput(input);
  if (!blocks.some((b) => b.kind !== 'code')) throw new SourceTextError('the content is empty: there is no text to take flashcards from');

  const candidates: Candidate[] = [];
  let pendingHeading: { block: FlatBlock; index: number } | null = null;
  blocks.forEach((b, index) => {
    if (b.kind === 'heading') {
      pendingHeading = { block: b, index };
      return;
    }
    if (b.kind === 'code' || b.kind === 'table_row') return;
    candidates.push(...blockCandidates(b, index));
    if (pendingHeading && b.kind === 'paragraph') {
      const h = pendingHeading.block;
      const first = splitSentences(b.text)[0];
      // A glossary line right under a heading is a card of its own, not the heading's definition.
      if (first && !isTermLine(b.text) && isTerm(h.text, 8) && !GENERIC_HEADINGS.has(frontKey(h.text)) && isDefinition(first) && words(first).length >= 4) {
        const front = cleanFront(h.text);
        const back = cleanBack(first);
        if (front && back) {
          candidates.push({ front, back, score: 2, pos: index * 1000 + 999, ...(b.id ? { id: b.id } : {}) });
        }
      }
      pendingHeading = null;
    }
  });

  // Deduplicate on the front: the best score wins, then the earliest.
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = frontKey(c.front);
    if (!key) continue;
    const prev = best.get(key);
    if (!prev || c.score > prev.score || (c.score === prev.score && c.pos < prev.pos)) best.set(key, c);
  }
  const chosen = [...best.values()]
    .sort((a, b) => b.score - a.score || a.pos - b.pos)
    .slice(0, count)
    .sort((a, b) => a.pos - b.pos);
  return chosen.map((c) => ({ front: c.front, back: c.back, ...(c.id ? { source_block_id: c.id } : {}) }));
}

/** extractFlashcards as a worker operation, for long inputs: an input with no text is refused with SourceTextError. */
export const extractOperation = workerOperation<{ input: SourceInput; count: number }, Flashcard[]>('flashcards.extract', SourceTextError);

/** extractFlashcards as a worker task (server/worker.ts). */
export function extractTask({ input, count }: { input: SourceInput; count: number }): { result: Flashcard[] } {
  return { result: extractFlashcards(input, count) };
}
