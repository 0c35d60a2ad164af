/**
 * GFM footnotes kept verbatim. The schema has no footnote node, and markdown-it would read a
 * definition `[^1]: note` as a link reference definition (and drop it) and `[^1]` as a link to
 * it. So a definition, with its indented continuation, becomes an `html_block` token holding its
 * source, and a call `[^1]` an `html_inline` one: both print back exactly as written, and a GFM
 * renderer reads the footnote again (docs/markdown-fidelity.md).
 */
import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';

const DEFINITION = /^\[\^[^\]\s]+\]:/;
const CALL = /^\[\^[^\]\s]+\]/;

function definition(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const line = state.src.slice(start, state.eMarks[startLine]);
  if (!DEFINITION.test(line)) return false;
  if (silent) return true;
  // The definition runs to a blank line, then on over blocks indented by 4 or more.
  let next = startLine + 1;
  let last = startLine;
  while (next < endLine) {
    if (state.isEmpty(next)) {
      next++;
      continue;
    }
    const indented = state.sCount[next]! - state.blkIndent >= 4;
    if (!indented && next !== last + 1) break;
    if (!indented && state.sCount[next]! < state.blkIndent) break;
    last = next;
    next++;
  }
  const token = state.push('html_block', '', 0);
  token.meta = { footnote: 'definition' };
  token.map = [startLine, last + 1];
  token.content = state.getLines(startLine, last + 1, state.blkIndent, true);
  state.line = last + 1;
  return true;
}

function call(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */ || state.src.charCodeAt(state.pos + 1) !== 0x5e /* ^ */) return false;
  const m = CALL.exec(state.src.slice(state.pos, state.pos + 1000));
  if (!m) return false;
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    token.content = m[0];
    token.meta = { footnote: 'call' };
  }
  state.pos += m[0].length;
  return true;
}

export function footnotePlugin(md: MarkdownIt): void {
  md.block.ruler.before('reference', 'gfm_footnote_definition', definition, { alt: ['reference'] });
  md.inline.ruler.before('link', 'gfm_footnote_call', call);
}
