/**
 * Text of a content source, shared by every domain that reads one (videos, flashcards, practice):
 * a journal (ProseMirror JSON of shared/schema.ts) or submitted text (light markdown) flattened into
 * text blocks in document order, each naming the block id it came from, and the sentence splitter
 * the consumers build on. Pure functions: they run on the event loop or in the worker pool.
 */

/** ProseMirror JSON of a node (a journal document is `{ type: 'doc', content: [...] }`). */
export interface PMJSON {
  type: string;
  attrs?: Record<string, unknown> | null;
  content?: PMJSON[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> | null }>;
}

export type SourceInput = { doc: PMJSON } | { text: string };

/** Thrown for input that yields no text (empty journal, blank text, malformed document). */
export class SourceTextError extends Error {
  readonly code: string;
  constructor(message: string, code = 'empty_content') {
    super(message);
    this.name = 'SourceTextError';
    this.code = code;
  }
}

/** A one-line paragraph of submitted text up to this long (and title-like) is read as a heading. */
const MAX_TITLE_LINE_CHARS = 90;

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
    throw new SourceTextError('the document is not ProseMirror JSON with a content array', 'invalid_document');
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
  if (typeof text !== 'string') throw new SourceTextError('text must be a string', 'invalid_text');
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
    if (words <= 10 && t.length <= MAX_TITLE_LINE_CHARS && !/[.!?:;,]$/.test(t) && !t.includes(':') && raw[i + 1]!.kind !== 'heading') {
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
export function flattenInput(input: SourceInput): FlatBlock[] {
  if (!input || typeof input !== 'object') throw new SourceTextError('input must be { doc } or { text }', 'invalid_input');
  if ('doc' in input) return flattenDoc(input.doc);
  if ('text' in input) return flattenText(input.text);
  throw new SourceTextError('input must be { doc } or { text }', 'invalid_input');
}

// ---------------------------------------------------------------------------------------------
// Sentences

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
