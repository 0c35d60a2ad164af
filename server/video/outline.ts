/**
 * Outline builder for the offline video engine: turns a journal (ProseMirror JSON of
 * shared/schema.ts) or plain text into slides. Headings start slides; paragraphs, list items and
 * table rows become points (what is drawn) and narration (what is spoken). Every slide names the
 * block ids it was built from, so transcripts and sources are traceable to the journal.
 *
 * The document walker (`flattenInput`) and the text helpers are shared with the flashcard
 * extractor (server/flashcards/extract.ts).
 */

/** ProseMirror JSON of a node (a journal document is `{ type: 'doc', content: [...] }`). */
export interface PMJSON {
  type: string;
  attrs?: Record<string, unknown> | null;
  content?: PMJSON[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> | null }>;
}

export type OutlineInput = { doc: PMJSON } | { text: string };

export interface OutlineOptions {
  title?: string;
  /** Upper bound for the spoken length, in seconds (clamped to 1..600, default 600). */
  maxDurationSeconds?: number;
}

export interface OutlineSlide {
  heading: string;
  points: string[];
  narration: string;
  sourceBlockIds: string[];
}

export interface Outline {
  title: string;
  slides: OutlineSlide[];
  /** True when content was dropped to respect maxDurationSeconds. */
  truncated?: boolean;
  /** Human-readable notes about what was changed (truncation, skipped content). */
  notes?: string[];
}

/** Thrown for input that yields no slides (empty journal, blank text, malformed document). */
export class OutlineError extends Error {
  readonly code: string;
  constructor(message: string, code = 'empty_content') {
    super(message);
    this.name = 'OutlineError';
    this.code = code;
  }
}

export const MAX_VIDEO_SECONDS = 600;
/** Estimated speaking rate of the narration voice (espeak-ng at 165 words per minute). */
export const WORDS_PER_SECOND = 165 / 60;
const MAX_POINTS_PER_SLIDE = 6;
const MAX_NARRATION_CHARS_PER_SLIDE = 900;
const MAX_POINT_CHARS = 140;
const MAX_HEADING_CHARS = 90;

// ---------------------------------------------------------------------------------------------
// Flattening: document or text -> a list of text blocks in document order

export interface TextRun {
  text: string;
  strong: boolean;
}

export interface FlatBlock {
  kind: 'heading' | 'paragraph' | 'list_item' | 'table_row' | 'code';
  text: string;
  /** Inline runs with their emphasis (only `strong` matters to the consumers). */
  runs: TextRun[];
  /** Heading level (1..6) for headings. */
  level?: number;
  /** Nesting depth of list items and quoted blocks (0 = top level). */
  depth: number;
  /** Block id of the source node (the nearest ancestor that has one). */
  id?: string;
}

function attrId(node: PMJSON): string | undefined {
  const v = node.attrs?.['id'];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function collectRuns(node: PMJSON, out: TextRun[]): void {
  for (const child of node.content ?? []) {
    if (!child || typeof child !== 'object') continue;
    if (child.type === 'text' && typeof child.text === 'string') {
      const strong = (child.marks ?? []).some((m) => m && m.type === 'strong');
      out.push({ text: child.text, strong });
    } else if (child.type === 'hard_break') {
      out.push({ text: ' ', strong: false });
    } else if (child.type === 'image') {
      const alt = typeof child.attrs?.['alt'] === 'string' ? (child.attrs['alt'] as string) : '';
      if (alt) out.push({ text: alt, strong: false });
    } else if (child.type === 'html_inline') {
      // Raw HTML is opaque: never interpreted, never spoken.
    } else if (child.content) {
      collectRuns(child, out);
    }
  }
}

/** Collapses whitespace and trims. */
export function cleanText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function runsText(runs: TextRun[]): string {
  return cleanText(runs.map((r) => r.text).join(''));
}

function mergeRuns(runs: TextRun[]): TextRun[] {
  const out: TextRun[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && last.strong === r.strong) last.text += r.text;
    else out.push({ ...r });
  }
  return out;
}

/** Walks a ProseMirror document and returns its text blocks in document order. */
export function flattenDoc(doc: PMJSON): FlatBlock[] {
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.content)) {
    throw new OutlineError('the document is not ProseMirror JSON with a content array', 'invalid_document');
  }
  const out: FlatBlock[] = [];
  const walk = (nodes: PMJSON[] | undefined, depth: number, inheritedId: string | undefined): void => {
    for (const node of nodes ?? []) {
      if (!node || typeof node !== 'object') continue;
      const id = attrId(node) ?? inheritedId;
      switch (node.type) {
        case 'heading':
        case 'paragraph': {
          const runs: TextRun[] = [];
          collectRuns(node, runs);
          const text = runsText(runs);
          if (!text) break;
          const lvl = Number(node.attrs?.['level'] ?? 1);
          out.push({
            kind: node.type,
            text,
            runs: mergeRuns(runs),
            depth,
            id,
            ...(node.type === 'heading' ? { level: Number.isFinite(lvl) ? Math.min(6, Math.max(1, lvl)) : 1 } : {}),
          });
          break;
        }
        case 'bullet_list':
        case 'ordered_list':
          walk(node.content, depth, id);
          break;
        case 'list_item': {
          // The item's own text is its leading paragraphs; nested lists follow as deeper items.
          const runs: TextRun[] = [];
          const rest: PMJSON[] = [];
          let leading = true;
          for (const child of node.content ?? []) {
            if (leading && child?.type === 'paragraph') {
              if (runs.length) runs.push({ text: ' ', strong: false });
              collectRuns(child, runs);
            } else {
              leading = false;
              rest.push(child);
            }
          }
          const text = runsText(runs);
          if (text) out.push({ kind: 'list_item', text, runs: mergeRuns(runs), depth, id });
          walk(rest, depth + 1, id);
          break;
        }
        case 'blockquote':
          walk(node.content, depth + 1, id);
          break;
        case 'table':
          for (const row of node.content ?? []) {
            const cells = (row?.content ?? []).map((cell) => {
              const runs: TextRun[] = [];
              collectRuns(cell, runs);
              return runsText(runs);
            });
            const text = cells.filter(Boolean).join(' — ');
            if (text) out.push({ kind: 'table_row', text, runs: [{ text, strong: false }], depth, id });
          }
          break;
        case 'code_block': {
          const text = (node.content ?? []).map((c) => c?.text ?? '').join('');
          if (text.trim()) out.push({ kind: 'code', text, runs: [{ text, strong: false }], depth, id });
          break;
        }
        default:
          // horizontal_rule, html_block and unknown nodes carry no speakable text.
          break;
      }
    }
  };
  walk(doc.content, 0, undefined);
  return out;
}

const MD_HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const MD_LIST = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/;
/** A "Term: definition" line: a short label (up to 60 characters, no sentence punctuation) before a colon. */
const TERM_LINE = /^\s*(?:\*\*|__)?[^\s:*_][^:.!?]{0,58}?(?:\*\*|__)?:\s+\S.{3,}$/;

/** Parses a strong (`**x**` / `__x__`) markup into runs. */
function textRuns(s: string): TextRun[] {
  const runs: TextRun[] = [];
  const re = /(\*\*|__)(.+?)\1/g;
  let last = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index > last) runs.push({ text: s.slice(last, m.index), strong: false });
    runs.push({ text: m[2]!, strong: true });
    last = m.index + m[0].length;
  }
  if (last < s.length) runs.push({ text: s.slice(last), strong: false });
  return runs;
}

function stripInlineMarkdown(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/`([^`]*)`/g, '$1');
}

/**
 * Splits plain text (optionally light markdown) into blocks. Paragraphs are separated by blank
 * lines; `# Heading` lines and short title-like lines standing alone start sections; `- item` and
 * `1. item` lines are list items. Blocks get synthetic ids `text-1`, `text-2`, ... in order.
 */
export function flattenText(text: string): FlatBlock[] {
  if (typeof text !== 'string') throw new OutlineError('text must be a string', 'invalid_text');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const raw: Array<{ kind: FlatBlock['kind']; text: string; level?: number }> = [];
  let para: string[] = [];
  let inFence = false;
  const flush = () => {
    if (para.length) raw.push({ kind: 'paragraph', text: para.join(' ') });
    para = [];
  };
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const h = MD_HEADING.exec(line);
    const li = MD_LIST.exec(line);
    if (!line.trim()) flush();
    else if (h) {
      flush();
      raw.push({ kind: 'heading', text: h[2]!, level: h[1]!.length });
    } else if (li) {
      flush();
      raw.push({ kind: 'list_item', text: li[1]! });
    } else if (TERM_LINE.test(line)) {
      // "Term: definition" lines stand alone even without blank lines between them.
      flush();
      raw.push({ kind: 'paragraph', text: line.trim() });
    } else para.push(line.trim());
  }
  flush();
  // A one-line paragraph that looks like a title (short, no sentence punctuation, no colon) and is
  // followed by more content is a heading.
  for (let i = 0; i < raw.length - 1; i++) {
    const b = raw[i]!;
    if (b.kind !== 'paragraph') continue;
    const t = cleanText(b.text);
    const words = t.split(' ').length;
    if (words <= 10 && t.length <= MAX_HEADING_CHARS && !/[.!?:;,]$/.test(t) && !t.includes(':') && raw[i + 1]!.kind !== 'heading') {
      raw[i] = { kind: 'heading', text: t, level: 2 };
    }
  }
  const out: FlatBlock[] = [];
  raw.forEach((b) => {
    const runs = mergeRuns(textRuns(cleanText(b.text)).map((r) => ({ ...r, text: stripInlineMarkdown(r.text) })));
    const t = cleanText(runs.map((r) => r.text).join(''));
    if (!t) return;
    out.push({ kind: b.kind, text: t, runs, depth: 0, id: `text-${out.length + 1}`, ...(b.level ? { level: b.level } : {}) });
  });
  return out;
}

/** Flattens either kind of input. */
export function flattenInput(input: OutlineInput): FlatBlock[] {
  if (!input || typeof input !== 'object') throw new OutlineError('input must be { doc } or { text }', 'invalid_input');
  if ('doc' in input) return flattenDoc(input.doc);
  if ('text' in input) return flattenText(input.text);
  throw new OutlineError('input must be { doc } or { text }', 'invalid_input');
}

// ---------------------------------------------------------------------------------------------
// Sentences and speech text

const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|st|jr|sr|no|fig|approx|cf|al)\.$/i;

/** Splits text into sentences (keeps terminal punctuation; guards common abbreviations). */
export function splitSentences(text: string): string[] {
  const t = cleanText(text);
  if (!t) return [];
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]+["')\]]*(?=\s+["'(\[]?[A-Z0-9])/g;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const end = m.index + m[0].length;
    const candidate = t.slice(start, end);
    if (ABBREVIATIONS.test(candidate) || /\b[A-Z]\.$/.test(candidate)) continue;
    out.push(candidate.trim());
    start = end;
  }
  const rest = t.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** Makes text suitable for a speech engine: no URLs, markup residue or control characters. */
export function speechText(text: string): string {
  let t = text
    .replace(/https?:\/\/\S+/g, 'link')
    .replace(/[`*_#~|<>\\{}[\]^]+/g, ' ')
    .replace(/\s—\s/g, ', ')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  t = cleanText(t);
  return t;
}

function ensureSentence(t: string): string {
  const s = cleanText(t);
  if (!s) return s;
  return /[.!?…]["')\]]*$/.test(s) ? s : `${s.replace(/[:;,]+$/, '')}.`;
}

function shorten(s: string, max: number): string {
  const t = cleanText(s);
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Estimated seconds to speak `text`. */
export function estimateSpeechSeconds(text: string): number {
  const words = cleanText(text).split(' ').filter(Boolean).length;
  return words / WORDS_PER_SECOND;
}

// ---------------------------------------------------------------------------------------------
// Outline

interface Section {
  heading: string;
  headingId?: string;
  blocks: FlatBlock[];
}

function sectionize(blocks: FlatBlock[], explicitTitle: string | undefined): { title: string; sections: Section[] } {
  const headings = blocks.filter((b) => b.kind === 'heading');
  let title = explicitTitle?.trim() ? cleanText(explicitTitle) : '';
  let splitLevel = headings.length ? Math.min(...headings.map((h) => h.level ?? 1)) : 7;
  let body = blocks;
  const atTop = headings.filter((h) => (h.level ?? 1) === splitLevel);
  // A single top-level heading that opens the document is the document's title; its subheadings
  // start the slides.
  if (atTop.length === 1 && blocks[0] === atTop[0] && headings.length > 1) {
    if (!title) title = blocks[0]!.text;
    body = blocks.slice(1);
    const deeper = headings.filter((h) => h !== atTop[0]).map((h) => h.level ?? 1);
    splitLevel = Math.min(...deeper);
  }
  const firstText = blocks.find((b) => b.kind !== 'code');
  if (!title) title = firstText ? shorten(splitSentences(firstText.text)[0] ?? firstText.text, 60).replace(/[.!?]$/, '') : 'Untitled';
  title = shorten(title, MAX_HEADING_CHARS);

  const sections: Section[] = [];
  let cur: Section | null = null;
  for (const b of body) {
    if (b.kind === 'heading' && (b.level ?? 1) <= splitLevel) {
      cur = { heading: shorten(b.text, MAX_HEADING_CHARS), headingId: b.id, blocks: [] };
      sections.push(cur);
      continue;
    }
    if (!cur) {
      cur = { heading: title, blocks: [] };
      sections.push(cur);
    }
    cur.blocks.push(b);
  }
  return { title, sections };
}

interface Item {
  point: string;
  narration: string;
  id?: string;
}

function itemsOf(b: FlatBlock): Item[] {
  switch (b.kind) {
    case 'heading': {
      const h = shorten(speechText(b.text), MAX_POINT_CHARS);
      return [{ point: h, narration: ensureSentence(speechText(b.text)), id: b.id }];
    }
    case 'paragraph': {
      const spoken = splitSentences(speechText(b.text)).map(ensureSentence).join(' ');
      const first = splitSentences(speechText(b.text))[0] ?? b.text;
      return [{ point: shorten(first, MAX_POINT_CHARS), narration: spoken, id: b.id }];
    }
    case 'list_item':
    case 'table_row': {
      const spoken = ensureSentence(speechText(b.text));
      return [{ point: shorten(speechText(b.text), MAX_POINT_CHARS), narration: spoken, id: b.id }];
    }
    case 'code':
      return [{ point: shorten(`Code: ${b.text.split('\n')[0]}`, MAX_POINT_CHARS), narration: '', id: b.id }];
  }
}

function pushUnique(arr: string[], v: string | undefined): void {
  if (v && !arr.includes(v)) arr.push(v);
}

/**
 * Builds slides from a journal or plain text. Throws OutlineError when there is nothing to say.
 */
export function buildOutline(input: OutlineInput, opts: OutlineOptions = {}): Outline {
  const blocks = flattenInput(input);
  if (!blocks.some((b) => b.kind !== 'code')) {
    throw new OutlineError('the content is empty: there is no text to build slides from');
  }
  const { title, sections } = sectionize(blocks, opts.title);
  const notes: string[] = [];
  const slides: OutlineSlide[] = [];

  for (const sec of sections) {
    const headingSentence = ensureSentence(speechText(sec.heading));
    let slide: OutlineSlide = { heading: sec.heading, points: [], narration: headingSentence, sourceBlockIds: [] };
    pushUnique(slide.sourceBlockIds, sec.headingId);
    const items = sec.blocks.flatMap(itemsOf);
    for (const it of items) {
      const full =
        slide.points.length >= MAX_POINTS_PER_SLIDE ||
        (slide.points.length > 0 && slide.narration.length + it.narration.length > MAX_NARRATION_CHARS_PER_SLIDE);
      if (full) {
        slides.push(slide);
        slide = { heading: `${sec.heading} (continued)`, points: [], narration: '', sourceBlockIds: [] };
      }
      slide.points.push(it.point);
      if (it.narration) slide.narration = cleanText(`${slide.narration} ${it.narration}`);
      pushUnique(slide.sourceBlockIds, it.id);
    }
    if (!slide.narration) slide.narration = headingSentence;
    slides.push(slide);
  }
  if (!slides.length) throw new OutlineError('the content is empty: there is no text to build slides from');

  // Respect the duration bound (estimated here; the engine enforces it on the real audio).
  const maxSec = clampMaxDuration(opts.maxDurationSeconds);
  const kept: OutlineSlide[] = [];
  let total = 0;
  let truncated = false;
  for (const s of slides) {
    const est = estimateSpeechSeconds(s.narration);
    if (total + est <= maxSec) {
      kept.push(s);
      total += est;
      continue;
    }
    // Keep as many leading sentences of this slide as fit, then stop.
    const sentences = splitSentences(s.narration);
    const fit: string[] = [];
    for (const sen of sentences) {
      if (total + estimateSpeechSeconds([...fit, sen].join(' ')) > maxSec) break;
      fit.push(sen);
    }
    if (fit.length) kept.push({ ...s, narration: fit.join(' ') });
    truncated = true;
    break;
  }
  if (!kept.length) {
    // Even one sentence does not fit: keep the first slide's heading so something is rendered.
    const s = slides[0]!;
    kept.push({ ...s, narration: ensureSentence(speechText(s.heading)) });
    truncated = true;
  }
  if (truncated) {
    notes.push(
      `content truncated to fit max_duration_seconds=${maxSec}: kept ${kept.length} of ${slides.length} slides`,
    );
  }
  return { title, slides: kept, ...(truncated ? { truncated: true } : {}), ...(notes.length ? { notes } : {}) };
}

export function clampMaxDuration(v: number | undefined): number {
  if (v === undefined || v === null || !Number.isFinite(v)) return MAX_VIDEO_SECONDS;
  return Math.min(MAX_VIDEO_SECONDS, Math.max(1, v));
}
