/**
 * Markdown-like shortcuts while typing, one or more for every block kind and mark of the schema:
 * `# `…`###### ` headings, `> ` quote, `- `/`* `/`+ ` bullets, `1. ` numbers, `[ ] `/`[x] ` task
 * items, ```` ```lang ```` code block, `---` rule, `|a|b| ` table, `**b**`, `*i*`/`_i_`, `` `c` ``,
 * `~~s~~`, `[text](url)` link, `![alt](src)` image. Backspace right after a rule undoes it.
 */
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import type { MarkType } from 'prosemirror-model';
import { TextSelection, type EditorState, type Plugin } from 'prosemirror-state';
import { tableNode, wrapInTaskList } from './commands.ts';
import { editorSchema as schema, safeHref, safeSrc } from './schema.ts';

const n = schema.nodes;

/** `**text**`-style rules: the delimiters go, the text gets the mark. */
function markRule(pattern: RegExp, type: MarkType): InputRule {
  return new InputRule(pattern, (state, match, start, end) => {
    const text = match[1]!;
    // The pattern may start with the space before the opening delimiter: that space stays.
    const from = start + (/^\s/.test(match[0]) ? 1 : 0);
    const $from = state.doc.resolve(from);
    if (!$from.parent.type.allowsMarkType(type) || $from.parent.type.spec.code) return null;
    const tr = state.tr.replaceWith(from, end, schema.text(text, [...$from.marks().filter((m) => m.type !== type), type.create()]));
    return tr.removeStoredMark(type);
  });
}

const inCodeBlock = (state: EditorState, pos: number) => state.doc.resolve(pos).parent.type.spec.code === true;
/** The rule's text is all the paragraph holds (nothing after the cursor is lost by replacing it). */
const wholeParagraph = (state: EditorState, start: number, end: number) => {
  const $start = state.doc.resolve(start);
  return $start.parent.type === n.paragraph && $start.depth > 0 && start === $start.start() && end === $start.end();
};

export function journalInputRules(): Plugin {
  const rules: InputRule[] = [
    textblockTypeInputRule(/^(#{1,6})\s$/, n.heading, (m) => ({ level: m[1]!.length })),
    textblockTypeInputRule(/^```([A-Za-z0-9_+#.-]*)\s$/, n.code_block, (m) => ({ language: m[1] || null })),
    wrappingInputRule(/^\s*>\s$/, n.blockquote),
    // Before the bullet rule: `[ ] ` at the start of a paragraph or list item.
    new InputRule(/^\s*(?:[-+*]\s)?\[([ xX])\]\s$/, (state, match, start, end) => (inCodeBlock(state, start) ? null : wrapInTaskList(state, start, end, match[1] !== ' '))),
    wrappingInputRule(/^\s*([-+*])\s$/, n.bullet_list),
    wrappingInputRule(
      /^(\d+)\.\s$/,
      n.ordered_list,
      (m) => ({ order: Number(m[1]) }),
      (m, node) => node.childCount + (node.attrs.order as number) === Number(m[1]),
    ),
    new InputRule(/^(?:---|___|\*\*\*)$/, (state, _match, start, end) => {
      if (!wholeParagraph(state, start, end)) return null;
      const $start = state.doc.resolve(start);
      const para = $start.before();
      const tr = state.tr.replaceWith(para, para + $start.parent.nodeSize, [n.horizontal_rule.create(), n.paragraph.create()]);
      return tr.setSelection(TextSelection.create(tr.doc, para + 2));
    }),
    new InputRule(/^\|((?:[^|\n]*\|)+)\s$/, (state, match, start, end) => {
      if (!wholeParagraph(state, start, end)) return null;
      const $start = state.doc.resolve(start);
      const header = match[1]!.split('|').slice(0, -1).map((s) => s.trim());
      if (header.length === 0) return null;
      const para = $start.before();
      const table = tableNode(header, 1);
      const tr = state.tr.replaceWith(para, para + $start.parent.nodeSize, [table, n.paragraph.create()]);
      // The cursor in the first body cell.
      const firstBody = para + 1 + table.child(0).nodeSize + 2;
      return tr.setSelection(TextSelection.create(tr.doc, firstBody));
    }),
    new InputRule(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"([^"]*)")?\)$/, (state, match, start, end) => {
      const src = safeSrc(match[2]!);
      if (!src || inCodeBlock(state, start)) return null;
      return state.tr.replaceWith(start, end, n.image.create({ src, alt: match[1] ?? '', title: match[3] ?? null }));
    }),
    new InputRule(/(?:^|[^!])\[([^\]]+)\]\(([^)\s]+)\)$/, (state, match, start, end) => {
      const href = safeHref(match[2]!);
      if (!href || inCodeBlock(state, start)) return null;
      const from = match[0].startsWith('[') ? start : start + 1;
      return state.tr.replaceWith(from, end, schema.text(match[1]!, [schema.marks.link.create({ href })]));
    }),
    markRule(/(?:^|\s)\*\*([^*\s](?:[^*]*[^*\s])?)\*\*$/, schema.marks.strong),
    markRule(/(?:^|\s)__([^_\s](?:[^_]*[^_\s])?)__$/, schema.marks.strong),
    markRule(/(?:^|\s)\*([^*\s](?:[^*]*[^*\s])?)\*$/, schema.marks.em),
    markRule(/(?:^|\s)_([^_\s](?:[^_]*[^_\s])?)_$/, schema.marks.em),
    markRule(/(?:^|\s)~~([^~\s](?:[^~]*[^~\s])?)~~$/, schema.marks.strikethrough),
    markRule(/(?:^|\s)`([^`]+)`$/, schema.marks.code),
  ];
  return inputRules({ rules });
}
