/**
 * The GFM pieces markdown-it lacks or reads differently, as small markdown-it plugins: task list
 * items, autolink literals and single-tilde strikethrough. All follow the rules of micromark-extension-gfm-task-list-item and
 * micromark-extension-gfm-autolink-literal (the reference renderer), not linkify-it: linkify-it
 * links bare domains (`example.com`) and trims URLs differently, and every mismatch with the
 * reference changes how a document renders after a round trip.
 */
import type { MarkdownIt } from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';

// ---------------------------------------------------------------------------------------------
// Task list items: `- [ ] todo`, `- [x] done`

/** `[ ]`, `[x]` or `[X]`, then a line ending, or white space and more text (as micromark reads it). */
const TASK = /^\[([ \t\n]|[xX])\](?:\n|[ \t]+(?=[^]))/;

/** Marks `list_item_open` tokens of task items with `meta.checked` and strips the marker text. */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    // The source decides (an escaped `\[ ]` is no marker); the first text token holds the marker.
    const m = TASK.exec(inline.content);
    const first = inline.children?.[0];
    if (!m || first?.type !== 'text' || !first.content.startsWith(m[0].slice(0, 3))) continue;
    first.content = first.content.slice(3).replace(/^[ \t]+/, '');
    if (first.content === '') inline.children!.shift();
    tokens[i - 2]!.meta = { ...(tokens[i - 2]!.meta ?? {}), checked: m[1] === 'x' || m[1] === 'X' };
  }
}

// ---------------------------------------------------------------------------------------------
// Autolink literals: `https://x.y/z`, `www.x.y`, `a@b.c`

const isAsciiAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAsciiAlnum = (c: string) => isAsciiAlpha(c) || (c >= '0' && c <= '9');
const isAtext = (c: string) => isAsciiAlnum(c) || c === '+' || c === '-' || c === '.' || c === '_';
const WHITESPACE = /^\s$/u;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;
const isSpace = (c: string | undefined) => c === undefined || WHITESPACE.test(c);
const isPunct = (c: string) => PUNCTUATION.test(c);
const TRAIL_CHARS = new Set(['!', '"', "'", ')', '*', ',', '.', ':', ';', '?', '_', '~']);

/** Whether what starts at `i` is trailing punctuation up to the end of the literal. */
function isTrail(s: string, i: number): boolean {
  for (;;) {
    const c = s[i];
    if (c === undefined || c === '<' || isSpace(c)) return true;
    if (TRAIL_CHARS.has(c)) {
      i++;
    } else if (c === '&') {
      let j = i + 1;
      while (j < s.length && isAsciiAlpha(s[j]!)) j++;
      if (j === i + 1 || s[j] !== ';') return false;
      i = j + 1;
    } else if (c === ']') {
      const n = s[i + 1];
      if (n === undefined || n === '(' || n === '[' || isSpace(n)) return true;
      i++;
    } else {
      return false;
    }
  }
}

/** End of the domain starting at `i`, or -1. */
function domainEnd(s: string, i: number): number {
  let underscoreLast = false;
  let underscoreLastLast = false;
  let seen = false;
  for (;;) {
    const c = s[i];
    if (c === '.' || c === '_') {
      if (isTrail(s, i)) break;
      if (c === '_') underscoreLast = true;
      else {
        underscoreLastLast = underscoreLast;
        underscoreLast = false;
      }
      i++;
      continue;
    }
    if (c === undefined || isSpace(c) || (c !== '-' && isPunct(c))) break;
    seen = true;
    i += c.length;
  }
  return underscoreLast || underscoreLastLast || !seen ? -1 : i;
}

const PATH_PUNCT = new Set(['!', '"', '&', "'", ')', '*', ',', '.', ':', ';', '<', '?', ']', '_', '~']);

/** End of the path starting at `i` (possibly `i`). */
function pathEnd(s: string, i: number): number {
  let open = 0;
  let close = 0;
  for (;;) {
    const c = s[i];
    if (c === undefined || isSpace(c)) return i;
    if (c === '(') open++;
    else if (c === ')' && close < open) close++;
    else if (PATH_PUNCT.has(c)) {
      if (isTrail(s, i)) return i;
      if (c === ')') close++;
    }
    i++;
  }
}

interface Literal {
  start: number;
  end: number;
  href: string;
}

/** The autolink literal starting at `i`, given the character before it. */
function literalAt(s: string, i: number, prev: string | undefined): Literal | null {
  const c = s[i]!;
  if ((c === 'h' || c === 'H') && !(prev !== undefined && isAsciiAlpha(prev))) {
    const m = /^https?:\/\//i.exec(s.slice(i, i + 8));
    if (m) {
      const after = s[i + m[0].length];
      if (after !== undefined && !isSpace(after) && !isPunct(after) && after >= ' ') {
        const d = domainEnd(s, i + m[0].length);
        if (d !== -1) {
          const end = pathEnd(s, d);
          return { start: i, end, href: s.slice(i, end) };
        }
      }
    }
  }
  if ((c === 'w' || c === 'W') && (prev === undefined || isSpace(prev) || '(*_[]~'.includes(prev))) {
    if (/^www\./i.test(s.slice(i, i + 4)) && i + 4 < s.length) {
      const d = domainEnd(s, i);
      if (d !== -1) {
        const end = pathEnd(s, d);
        return { start: i, end, href: 'http://' + s.slice(i, end) };
      }
    }
  }
  if (isAtext(c) && !(prev !== undefined && (prev === '/' || isAtext(prev)))) {
    let j = i;
    while (j < s.length && isAtext(s[j]!)) j++;
    if (s[j] !== '@') return null;
    j++;
    let data = false;
    let dot = false;
    for (;;) {
      const d = s[j];
      if (d === '.') {
        if (!(s[j + 1] !== undefined && isAsciiAlnum(s[j + 1]!))) break;
        dot = true;
        j++;
      } else if (d !== undefined && (d === '-' || d === '_' || isAsciiAlnum(d))) {
        data = true;
        j++;
      } else break;
    }
    if (data && dot && isAsciiAlpha(s[j - 1]!)) return { start: i, end: j, href: 'mailto:' + s.slice(i, j) };
  }
  return null;
}

/** Autolink literals in `s`, in order. */
export function findLiterals(s: string, before?: string): Literal[] {
  const out: Literal[] = [];
  // Cheap pre-check: every literal contains one of these (http(s)://, www., an address's @).
  if (!/:\/\/|@|www\./i.test(s)) return out;
  let prev = before;
  for (let i = 0; i < s.length; ) {
    const lit = literalAt(s, i, prev);
    if (lit) {
      out.push(lit);
      prev = s[lit.end - 1];
      i = lit.end;
      continue;
    }
    // Skip over the rest of a run that cannot start a literal.
    prev = s[i];
    i++;
  }
  return out;
}

function autolinkLiterals(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    let linkDepth = 0;
    const out: Token[] = [];
    let changed = false;
    for (let k = 0; k < children.length; k++) {
      const tok = children[k]!;
      if (tok.type === 'link_open') linkDepth++;
      else if (tok.type === 'link_close') linkDepth--;
      if (tok.type !== 'text' || linkDepth > 0) {
        out.push(tok);
        continue;
      }
      const prevTok = children[k - 1];
      const before = prevTok?.type === 'text' || prevTok?.type === 'text_special' ? prevTok.content.slice(-1) : undefined;
      const literals = findLiterals(tok.content, before);
      if (literals.length === 0) {
        out.push(tok);
        continue;
      }
      changed = true;
      let pos = 0;
      for (const lit of literals) {
        if (lit.start > pos) out.push(textToken(state, tok.content.slice(pos, lit.start), tok.level));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', lit.href]];
        open.markup = 'linkify';
        open.info = 'auto';
        open.level = tok.level;
        out.push(open, textToken(state, tok.content.slice(lit.start, lit.end), tok.level + 1));
        const close = new state.Token('link_close', 'a', -1);
        close.markup = 'linkify';
        close.info = 'auto';
        close.level = tok.level;
        out.push(close);
        pos = lit.end;
      }
      if (pos < tok.content.length) out.push(textToken(state, tok.content.slice(pos), tok.level));
    }
    if (changed) block.children = out;
  }
}

function textToken(state: StateCore, content: string, level: number): Token {
  const t = new state.Token('text', '', 0);
  t.content = content;
  t.level = level;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Strikethrough: `~~a~~` and `~a~`, as GFM (and micromark) read it. markdown-it knows only the
// double form and splits longer runs; GFM pairs runs of the same length, 1 or 2, and leaves
// longer runs as text.

const TILDE = 0x7e;
/** The delimiter marker of a single tilde: a code no other inline rule uses, so pairs never mix. */
const SINGLE_TILDE = 0x7f;

function strikethroughTokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push('text', '', 0);
  token.content = '~'.repeat(scanned.length);
  if (scanned.length <= 2) {
    state.delimiters.push({
      marker: scanned.length === 2 ? TILDE : SINGLE_TILDE,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function strikethroughPairs(state: StateInline): void {
  const lists = [state.delimiters, ...state.tokens_meta.map((m) => m?.delimiters ?? [])];
  for (const delimiters of lists) {
    for (const open of delimiters) {
      if ((open.marker !== TILDE && open.marker !== SINGLE_TILDE) || open.end === -1) continue;
      const markup = open.marker === TILDE ? '~~' : '~';
      for (const [i, type, nesting] of [[open.token, 's_open', 1], [delimiters[open.end]!.token, 's_close', -1]] as const) {
        const t = state.tokens[i]!;
        t.type = type;
        t.tag = 's';
        t.nesting = nesting;
        t.markup = markup;
        t.content = '';
      }
    }
  }
}

/** Adds GFM task list items and autolink literals (tables and strikethrough are built in). */
export function gfmPlugin(md: MarkdownIt): void {
  // Literals are found before text_join merges escapes and entities into their text: like
  // micromark, which reads the source, `\+a@b.co` or `a\_b.com` hold no literal across the escape.
  md.core.ruler.before('text_join', 'gfm_autolink_literal', autolinkLiterals);
  md.core.ruler.push('gfm_task_list', taskLists);
  md.inline.ruler.at('strikethrough', strikethroughTokenize);
  md.inline.ruler2.at('strikethrough', strikethroughPairs);
}
