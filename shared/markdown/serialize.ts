/**
 * ProseMirror -> markdown in one linear pass: each block prints itself, containers prefix the
 * lines of their children (`> `, list indentation), and inline content is printed as a flat run
 * of pieces (text, delimiters, raw syntax) whose text is escaped knowing its neighbours.
 *
 * Why our own printer: prosemirror-markdown's is quadratic in the output, and mdast-util-to-
 * markdown needs a second tree and is 5x slower than parsing. The rules below aim at one thing:
 * the printed markdown renders (CommonMark + GFM) to the same HTML as the document it came from.
 *
 * Blocks are independent: a block's text depends only on the block and on the list its previous
 * sibling printed (two adjacent lists of the same kind and marker would read back as one list,
 * so a list that follows a list takes another marker), so callers may cache or chunk.
 */
import type { Mark, Node } from 'prosemirror-model';
import { schema } from '../schema.ts';
import { findLiterals } from './gfm.ts';

// ---------------------------------------------------------------------------------------------
// Inline content

type Piece =
  /** Text to escape. */
  | { kind: 'text'; s: string }
  /** Syntax or verbatim content, printed as is. */
  | { kind: 'raw'; s: string }
  /** An emphasis-like delimiter run. */
  | { kind: 'delim'; s: string; open: boolean };

/** Which of two marks opening at the same place and ending at the same place goes outside. */
const MARK_RANK: Record<string, number> = { link: 0, em: 1, strong: 2, strikethrough: 3 };

const WHITESPACE = /^\s$/u;
const PUNCT = /^[\p{P}\p{S}]$/u;
/** Neither white space nor punctuation (nor the edge of the text). */
const isWordChar = (c: string | undefined) => c !== undefined && c !== '' && !WHITESPACE.test(c) && !PUNCT.test(c);
const ENTITY = /^&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/;
const AUTOLINK_URL = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f\x7f]*$/;
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** `after` of the last text of a block: nothing follows. */
const END = '';

interface InlineContext {
  /** In a table cell: pipes split cells. */
  table: boolean;
}

/** Escapes `s` so that it reads back as this text, given the characters printed around it. */
function escapeText(s: string, before: string, after: string, ctx: InlineContext, lineStart: boolean): string {
  let out = '';
  let from = 0;
  let atLineStart = lineStart;
  const breaks = literalBreaks(s, before);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    let rep: string | null = breaks?.has(i) ? '\\' + c : null;
    if (atLineStart) {
      atLineStart = false;
      if (c === ' ') rep = '&#32;';
      else if (c === '\t') rep = '&#9;';
      else if ('#>-+=|'.includes(c) || (c === ':' && s[i + 1] === '-')) rep = '\\' + c;
      else if (c >= '0' && c <= '9') {
        let j = i;
        while (j < s.length && s[j]! >= '0' && s[j]! <= '9') j++;
        if (s[j] === '.' || s[j] === ')') {
          out += s.slice(from, j) + '\\' + s[j];
          from = j + 1;
          i = j;
          continue;
        }
      }
      if (rep !== null) {
        out += s.slice(from, i) + rep;
        from = i + 1;
        continue;
      }
    }
    if (rep === null && ((i === 0 && before === '') || (i === s.length - 1 && after === END)) && c !== ' ' && c !== '\t' && c !== '\n' && WHITESPACE.test(c)) {
      // A no-break (or other Unicode) space at the edge of a block: markdown-it trims blocks and
      // cells with String.prototype.trim, which would drop it; a character reference survives.
      rep = `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`;
    }
    switch (rep === null ? c : '') {
      case '\n':
        // A soft break; a second one in a row (or one at an edge) is text, not a blank line.
        if (i === 0 ? lineStart || before === '' : i === s.length - 1 ? after === END : s[i - 1] === '\n') rep = '&#10;';
        else atLineStart = true;
        break;
      case '!':
        if ((i + 1 < s.length ? s[i + 1] : after) === '[') rep = '\\!';
        break;
      case '\\':
      case '*':
      case '`':
      case '[':
      case ']':
      case '~':
        rep = '\\' + c;
        break;
      case '_': {
        // Safe as is between two word characters (it can neither open nor close), and as the
        // block's last character (it cannot open, and every `_` before it that could open is
        // one of our own delimiters, already closed).
        const prev = i > 0 ? s[i - 1] : before;
        const next = i + 1 < s.length ? s[i + 1] : after;
        if (next === END) break;
        if (!(isWordChar(prev) && isWordChar(next))) rep = '\\_';
        break;
      }
      case '<': {
        const next = i + 1 < s.length ? s[i + 1]! : after;
        if (/^[A-Za-z/!?]/.test(next)) rep = '\\<';
        break;
      }
      case '&':
        if (ENTITY.test(s.slice(i, i + 40))) rep = '\\&';
        break;
      case '|':
        if (ctx.table) rep = '\\|';
        break;
      default:
        break;
    }
    if (rep !== null) {
      out += s.slice(from, i) + rep;
      from = i + 1;
    }
  }
  return out + s.slice(from);
}

/**
 * Where plain text would read back as a GFM autolink literal (an address the import did not
 * link, e.g. written `a\\@b.co`): one character of each is escaped (`a\\@b.co`, `www\\.x.org`,
 * `https\\://x`), which keeps micromark and our importer from linking it.
 */
function literalBreaks(s: string, before: string): Set<number> | null {
  const literals = findLiterals(s, before || undefined);
  if (literals.length === 0) return null;
  const at = new Set<number>();
  for (const { start, end, href } of literals) {
    if (href.startsWith('mailto:')) at.add(s.indexOf('@', start));
    else if (href.startsWith('http://') && /^www\./i.test(s.slice(start, end))) at.add(start + 3);
    else at.add(s.indexOf(':', start));
  }
  return at;
}

function codeSpan(text: string, ctx: InlineContext): string {
  let longest = 0;
  if (text.includes('`')) for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$/.test(text) || (/^[ \n]/.test(text) && /[ \n]$/.test(text) && /[^ \n]/.test(text)) ? ' ' : '';
  const body = ctx.table ? text.replace(/\|/g, '\\|') : text;
  return fence + pad + body + pad + fence;
}

/** `&` that would start a character reference, escaped. */
function entities(s: string): string {
  return s.replace(/&(?=#[xX][0-9a-fA-F]{1,6};|#[0-9]{1,7};|[A-Za-z][A-Za-z0-9]{1,31};)/g, '\\&');
}

/** A destination that needs neither `<>`, escapes nor balancing: printed as it is. */
const PLAIN_DESTINATION = /^[^()\s<>\x00-\x1f\\&]+$/;

function destination(url: string): string {
  if (PLAIN_DESTINATION.test(url)) return url;
  let depth = 0;
  let balanced = true;
  for (const c of url) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) balanced = false;
  }
  if (url === '' || !balanced || depth !== 0 || /[\s<>\x00-\x1f]/.test(url)) {
    return '<' + entities(url.replace(/[\\<>]/g, '\\$&')).replace(/\n/g, '&#10;') + '>';
  }
  return entities(url.replace(/\\/g, '\\\\'));
}

function linkTail(href: string, title: string | null): string {
  const t = title === null ? '' : ' "' + title.replace(/[\\"]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&') + '"';
  return '](' + destination(href) + t + ')';
}

function atomMarks(node: Node): readonly Mark[] {
  const json = node.attrs.marks as unknown[] | null | undefined;
  // Marks set on the node itself (a document built in memory, not read from Yjs) count too.
  if (!Array.isArray(json) || json.length === 0) return node.marks;
  let marks: readonly Mark[] = [];
  for (const j of json) {
    try {
      marks = schema.markFromJSON(j as never).addToSet(marks);
    } catch {
      // Unknown mark in stored data: the content still prints.
    }
  }
  return marks;
}

interface Item {
  node: Node;
  marks: readonly Mark[];
}

/** How many items from `from` on carry `mark`. */
function extent(items: readonly Item[], mark: Mark, from: number): number {
  let j = from;
  while (j < items.length && mark.isInSet(items[j]!.marks)) j++;
  return j - from;
}

type Open = { mark: Mark; close: Piece | null };

function closeTo(stack: Open[], pieces: Piece[], keep: number): void {
  while (stack.length > keep) {
    const top = stack.pop()!;
    if (top.close) pieces.push(top.close);
  }
}

/**
 * Emphasis nested in its own kind is a pair of `html_inline` tags marked `nested` (schema.ts):
 * they print as the inner level's delimiters, `_`, `__` or `~~` inside the outer `*`, `**`, `~~`.
 */
function nestedDelimiter(node: Node): Piece | null {
  const nested = node.attrs.nested;
  if (nested !== 'open' && nested !== 'close') return null;
  const m = /^<(\/?)(em|strong|del)>$/.exec(String(node.attrs.html ?? ''));
  if (!m || (m[1] === '/') !== (nested === 'close')) return null;
  const s = m[2] === 'em' ? '_' : m[2] === 'strong' ? '__' : '~~';
  return { kind: 'delim', s, open: nested === 'open' };
}

function withoutCode(marks: readonly Mark[]): readonly Mark[] {
  for (const m of marks) if (m.type.name === 'code') return marks.filter((x) => x.type.name !== 'code');
  return marks;
}

/**
 * The inline content of a textblock as markdown. Marks are flat sets in ProseMirror; they are
 * nested again here, longest run outside, so `*a [b](u) c*` keeps the link inside the emphasis.
 */
function inline(block: Node, ctx: InlineContext): string {
  const items: Item[] = [];
  for (let i = 0; i < block.childCount; i++) {
    const child = block.child(i);
    items.push({ node: child, marks: child.isText ? withoutCode(child.marks) : atomMarks(child) });
  }
  const pieces: Piece[] = [];
  const stack: Open[] = [];
  for (let i = 0; i < items.length; i++) {
    const { node, marks } = items[i]!;
    let keep = 0;
    while (keep < stack.length && stack[keep]!.mark.isInSet(marks)) keep++;
    closeTo(stack, pieces, keep);
    const toOpen = marks.filter((m) => !stack.some((s) => s.mark.eq(m)));
    if (toOpen.length > 1) {
      const ext = new Map(toOpen.map((m) => [m, extent(items, m, i)] as const));
      toOpen.sort(
        (a, b) =>
          ext.get(b)! - ext.get(a)! ||
          (MARK_RANK[a.type.name] ?? 9) - (MARK_RANK[b.type.name] ?? 9),
      );
    }
    for (const mark of toOpen) {
      const name = mark.type.name;
      if (name === 'link') {
        const href = String(mark.attrs.href ?? '');
        const title = (mark.attrs.title as string | null) ?? null;
        // `<url>`: a link whose whole text is its address.
        const only = extent(items, mark, i) === 1 && node.isText && mark === toOpen[toOpen.length - 1] && !node.marks.some((m) => m.type.name === 'code');
        if (only && title === null && !(ctx.table && node.text!.includes('|'))) {
          const text = node.text!;
          if ((text === href && AUTOLINK_URL.test(href) && !href.includes('&')) || (href === 'mailto:' + text && EMAIL.test(text))) {
            pieces.push({ kind: 'raw', s: '<' + text + '>' });
            stack.push({ mark, close: null });
            continue;
          }
        }
        pieces.push({ kind: 'raw', s: '[' });
        stack.push({ mark, close: { kind: 'raw', s: linkTail(href, title) } });
        continue;
      }
      const s = name === 'strikethrough' ? '~~' : name === 'strong' ? '**' : '*';
      pieces.push({ kind: 'delim', s, open: true });
      stack.push({ mark, close: { kind: 'delim', s, open: false } });
    }
    // An autolink's text is already printed.
    if (stack.length > 0 && stack[stack.length - 1]!.close === null) continue;
    switch (node.type.name) {
      case 'text':
        if (node.marks.some((m) => m.type.name === 'code')) pieces.push({ kind: 'raw', s: codeSpan(node.text!, ctx) });
        else pieces.push({ kind: 'text', s: node.text! });
        break;
      case 'hard_break':
        if (i < items.length - 1) pieces.push({ kind: 'raw', s: '\\\n' });
        break;
      case 'image':
        pieces.push({
          kind: 'raw',
          s: '![' + escapeText(String(node.attrs.alt ?? ''), '[', ']', ctx, false) + linkTail(String(node.attrs.src ?? ''), (node.attrs.title as string | null) ?? null),
        });
        break;
      case 'html_inline': {
        pieces.push(nestedDelimiter(node) ?? { kind: 'raw', s: String(node.attrs.html ?? '') });
        break;
      }
      default:
        break;
    }
  }
  closeTo(stack, pieces, 0);
  return joinPieces(pieces, ctx);
}

/**
 * Joins the pieces, escaping each text knowing the characters around it. Linear: the output is
 * gathered in an array and only its last character is tracked (reading a character of a string
 * built by `+=` flattens it, which made this quadratic in the number of pieces).
 */
function joinPieces(pieces: Piece[], ctx: InlineContext): string {
  const out: string[] = [];
  let last = '';
  // The next non-empty piece's first character, found once per run of empty pieces.
  let nextFrom = -1;
  let nextChar = END;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    let s = p.s;
    if (p.kind === 'text') {
      if (nextFrom <= i) {
        nextChar = END;
        let j = i + 1;
        while (j < pieces.length && !pieces[j]!.s) j++;
        if (j < pieces.length) nextChar = pieces[j]!.s[0]!;
        nextFrom = j;
      }
      s = escapeText(s, last, nextChar, ctx, last === '' || last === '\n');
    }
    if (!s) continue;
    out.push(s);
    last = s[s.length - 1]!;
  }
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// Blocks

const BLOCK_CTX: InlineContext = { table: false };
const TABLE_CTX: InlineContext = { table: true };

/** The marker the previous sibling list printed, so the next list can avoid it. */
type Avoid = string;

function indentLines(body: string, first: string, rest: string): string {
  const lines = body.split('\n');
  let out = first + lines[0]!;
  for (let i = 1; i < lines.length; i++) out += '\n' + (lines[i] ? rest + lines[i] : '');
  return out;
}

function list(node: Node, avoid: Avoid): { text: string; marker: string } {
  const tight = node.attrs.tight !== false;
  const ordered = node.type.name === 'ordered_list';
  const marker = ordered ? (avoid === '.' ? ')' : '.') : avoid === '-' ? '*' : '-';
  let number = ordered ? Math.max(0, Number(node.attrs.order ?? 1) || 0) : 0;
  const items: string[] = [];
  node.forEach((item) => {
    const bullet = ordered ? `${number++}${marker}` : marker;
    let body = blocks(item, tight);
    const checked = item.attrs.checked;
    if (typeof checked === 'boolean' && item.firstChild?.type.name === 'paragraph' && body) {
      body = (checked ? '[x] ' : '[ ] ') + body;
    }
    items.push(body ? indentLines(body, bullet + ' ', ' '.repeat(bullet.length + 1)) : bullet);
  });
  return { text: items.join(tight ? '\n' : '\n\n'), marker };
}

function codeBlock(node: Node): string {
  const text = node.textContent;
  const info = [node.attrs.language, node.attrs.meta].filter((x) => x).join(' ');
  const ch = info.includes('`') ? '~' : '`';
  let longest = 0;
  for (const m of text.matchAll(ch === '`' ? /`+/g : /~+/g)) longest = Math.max(longest, m[0].length);
  const fence = ch.repeat(Math.max(3, longest + 1));
  return fence + info + '\n' + (text ? text + '\n' : '') + fence;
}

function table(node: Node): string {
  const rows: string[] = [];
  node.forEach((row, _o, r) => {
    const cells: string[] = [];
    row.forEach((cell) => cells.push(inline(cell, TABLE_CTX)));
    rows.push('| ' + cells.join(' | ') + ' |');
    if (r === 0) {
      const delims: string[] = [];
      row.forEach((cell) => {
        const a = cell.attrs.align;
        delims.push(a === 'left' ? ':---' : a === 'right' ? '---:' : a === 'center' ? ':---:' : '---');
      });
      rows.push('| ' + delims.join(' | ') + ' |');
    }
  });
  return rows.join('\n');
}

function heading(node: Node): string {
  const level = Math.min(6, Math.max(1, Number(node.attrs.level) || 1));
  let text = inline(node, BLOCK_CTX);
  if (text.endsWith('#')) text = text.slice(0, -1) + '\\#';
  if (text.includes('\n')) {
    if (level <= 2) return text + '\n' + (level === 1 ? '===' : '---');
    text = text.replace(/\n/g, ' ');
  }
  return '#'.repeat(level) + (text ? ' ' + text : '');
}

/** One block's markdown (no trailing newline); null for blocks that have none. */
function block(node: Node, avoid: Avoid): { text: string; marker: string } | null {
  switch (node.type.name) {
    case 'paragraph':
      return node.content.size === 0 ? null : { text: inline(node, BLOCK_CTX), marker: '' };
    case 'heading':
      return { text: heading(node), marker: '' };
    case 'blockquote': {
      const body = blocks(node, false);
      return { text: body ? body.split('\n').map((l) => (l ? '> ' + l : '>')).join('\n') : '>', marker: '' };
    }
    case 'bullet_list':
    case 'ordered_list':
      return list(node, avoid);
    case 'code_block':
      return { text: codeBlock(node), marker: '' };
    case 'horizontal_rule':
      return { text: '***', marker: '' };
    case 'html_block':
      return { text: String(node.attrs.html ?? ''), marker: '' };
    case 'table':
      return { text: table(node), marker: '' };
    default:
      return null;
  }
}

/**
 * Whether `next` may follow `prev` on the very next line inside a tight list item: only blocks
 * that interrupt a paragraph, after a block whose last line could otherwise run on into them.
 */
function canTouch(prev: Node, next: Node): boolean {
  const p = prev.type.name;
  const n = next.type.name;
  if (p === 'heading' || p === 'code_block' || p === 'horizontal_rule') return n !== 'table' && n !== 'html_block';
  if (p === 'bullet_list' || p === 'ordered_list') {
    // A list of the same kind prints another marker, so it starts a new list on the next line.
    return n === p || n === 'code_block' || n === 'heading' || n === 'horizontal_rule';
  }
  if (p !== 'paragraph' && p !== 'blockquote') return false;
  if (n === 'bullet_list') return (next.firstChild?.childCount ?? 0) > 0;
  if (n === 'ordered_list') return Number(next.attrs.order) === 1 && (next.firstChild?.childCount ?? 0) > 0;
  if (n === 'blockquote') return p === 'paragraph';
  return n === 'code_block' || n === 'heading' || n === 'horizontal_rule';
}

/** The children of a container, joined. */
function blocks(parent: Node, tight: boolean): string {
  let out = '';
  let prev: Node | null = null;
  let prevMarker = '';
  for (let i = 0; i < parent.childCount; i++) {
    const child = parent.child(i);
    const printed = block(child, prev !== null && prev.type === child.type ? prevMarker : '');
    if (!printed) continue;
    if (prev) out += tight && canTouch(prev, child) ? '\n' : '\n\n';
    out += printed.text;
    prev = child;
    prevMarker = printed.marker;
  }
  return out;
}

/** A top-level block as printed: its text and, for a list, the marker it used. */
export interface PrintedBlock {
  text: string;
  marker: string;
}

/**
 * One top-level block's markdown, given the marker the previous printed block used when it was
 * a list of the same kind ('' otherwise); null for blocks without markdown (empty paragraphs).
 * `blocksToMarkdown` is this, joined by blank lines; callers that cache blocks use it directly.
 */
export function printTopBlock(node: Node, avoid: string): PrintedBlock | null {
  return block(node, avoid);
}

/**
 * Markdown for a sequence of top-level blocks. Empty paragraphs have no markdown form and are
 * skipped; blocks are separated by one blank line.
 */
export function blocksToMarkdown(topBlocks: readonly Node[]): string {
  const parts: string[] = [];
  let prev: Node | null = null;
  let prevMarker = '';
  for (const node of topBlocks) {
    const printed = block(node, prev !== null && prev.type === node.type ? prevMarker : '');
    if (!printed) continue;
    parts.push(printed.text);
    prev = node;
    prevMarker = printed.marker;
  }
  return parts.length ? parts.join('\n\n') + '\n' : '';
}

/** Markdown for a whole document. */
export function docToMarkdown(doc: Node): string {
  const top: Node[] = [];
  doc.forEach((child) => top.push(child));
  return blocksToMarkdown(top);
}
