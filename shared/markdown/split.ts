/**
 * Cutting markdown into independently parseable pieces.
 *
 * Why: micromark (4.0.3 with micromark-util-edit-map 1.0.0, as installed) copies the whole event
 * list of the document each time a container (list, block quote) closes, so parsing is quadratic
 * in the number of top-level containers: 256 KB of block quotes took 48 s here. Parsing pieces of
 * ~16 KB and concatenating their trees keeps import linear.
 *
 * A cut is only made where the CommonMark block structure guarantees that nothing before it can
 * continue after it: at a line that starts in column 0 with a character that is not whitespace
 * and not a list marker (so it is neither a continuation of a list item nor a lazy line), right
 * after a blank line (so it cannot continue a paragraph, a table or a setext heading), and outside
 * a fenced code block or an HTML block of kinds 1–5 (the only top-level blocks that survive a
 * blank line). Those two are tracked from their column-0 openers; an opener indented by 1–3
 * spaces could sit inside a list item, where this scan cannot follow it, so after one the rest of
 * the text stays in one piece. Link reference definitions are the one thing that reaches across
 * pieces; the parser handles them (parse.ts).
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HTML_OPENERS: readonly [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Split `markdown` into pieces of at least `minChunk` characters (except the last) whose
 * concatenation is the input and whose separate parses, joined, equal the parse of the whole
 * (definitions aside).
 */
export function splitMarkdown(markdown: string, minChunk = 16_384): string[] {
  if (markdown.length <= minChunk) return [markdown];
  const pieces: string[] = [];
  let pieceStart = 0;
  let fence: { ch: string; len: number } | null = null;
  let htmlEnd: RegExp | null = null;
  let prevBlank = false;
  let pos = 0;
  while (pos < markdown.length) {
    const nl = markdown.indexOf('\n', pos);
    const end = nl === -1 ? markdown.length : nl + 1;
    let line = markdown.slice(pos, nl === -1 ? end : nl);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const blank = !/[^ \t]/.test(line);

    if (fence) {
      const m = FENCE.exec(line);
      if (m && m[1]![0] === fence.ch && m[1]!.length >= fence.len && !/[^ \t]/.test(m[2]!)) {
        fence = null;
      }
    } else if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = null;
    } else {
      const cut =
        prevBlank &&
        pos - pieceStart >= minChunk &&
        !blank &&
        line[0] !== ' ' &&
        line[0] !== '\t' &&
        !LIST_MARKER.test(line);
      if (cut) {
        pieces.push(markdown.slice(pieceStart, pos));
        pieceStart = pos;
      }
      const f = FENCE.exec(line);
      if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
        if (line[0] === ' ') break; // may belong to a list item: keep the rest whole
        fence = { ch: f[1]![0]!, len: f[1]!.length };
      } else {
        const html = HTML_OPENERS.find(([open]) => open.test(line));
        if (html) {
          const [open, close] = html;
          const openLength = open.exec(line)![0].length;
          const closesLoose = close.test(line.slice(1));
          const closesStrict = close.test(line.slice(openLength));
          // Indented (maybe inside a list item) or an end marker overlapping the opener
          // (`<?>`, `<!-->`): not worth guessing, keep the rest whole.
          if (line[0] === ' ' || closesLoose !== closesStrict) break;
          if (!closesStrict) htmlEnd = close;
        }
      }
    }
    prevBlank = blank;
    pos = end;
  }
  pieces.push(markdown.slice(pieceStart));
  return pieces;
}
