/**
 * ProseMirror -> markdown: each top-level block is mapped to an mdast tree and printed by
 * mdast-util-to-markdown (which owns all escaping), and the pieces are joined here.
 *
 * Why block by block: the cost stays linear in the document size, a block's text depends only on
 * the block and its previous sibling (so callers can chunk or cache), and the output is by
 * construction the same whether a document is exported whole or as a list of its blocks.
 * At the top level the only interaction between neighbours is list merging: two adjacent lists
 * of the same kind and the same marker would read back as one list, so a list that follows
 * another one takes a marker different from the one its predecessor actually printed.
 */
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { gfmAutolinkLiteralToMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import type * as Md from 'mdast';
import type { Mark, Node } from 'prosemirror-model';

const extensions = [
  gfmAutolinkLiteralToMarkdown(),
  gfmStrikethroughToMarkdown(),
  // No column alignment padding: a cell's width would otherwise depend on every other row.
  gfmTableToMarkdown({ tablePipeAlign: false }),
  gfmTaskListItemToMarkdown(),
];

type Bullet = '-' | '*' | '+';

/**
 * A no-break space at the start or end of a line is text, but readers that trim with a Unicode
 * notion of whitespace (commonmark.js among them) drop it; printed as `&#xA0;` it survives all.
 */
const NBSP_UNSAFE: NonNullable<ToMarkdownOptions['unsafe']> = [
  { character: '\u00a0', before: '[\\r\\n]', inConstruct: 'phrasing' },
  { character: '\u00a0', after: '[\\r\\n]', inConstruct: 'phrasing' },
];

/** Printer options for a block, keyed by the marker the previous sibling list printed. */
function optionsFor(bullet: Bullet, bulletOther: Bullet, bulletOrdered: '.' | ')'): ToMarkdownOptions {
  return {
    extensions,
    bullet,
    bulletOther,
    bulletOrdered,
    emphasis: '*',
    strong: '*',
    fences: true,
    rule: '*',
    listItemIndent: 'one',
    unsafe: NBSP_UNSAFE,
  };
}
const DEFAULT_OPTIONS = optionsFor('-', '*', '.');
const BULLET_AFTER: Record<Bullet, ToMarkdownOptions> = {
  '-': optionsFor('*', '+', '.'),
  '*': optionsFor('-', '+', '.'),
  '+': optionsFor('-', '*', '.'),
};
const ORDERED_AFTER_DOT = optionsFor('-', '*', ')');

// ---------------------------------------------------------------------------------------------
// ProseMirror -> mdast

/** Which of two marks opening at the same place and ending at the same place goes outside. */
const MARK_RANK: Record<string, number> = { link: 0, em: 1, strong: 2, strikethrough: 3 };

type Parent = { children: Md.PhrasingContent[] };

function wrapperFor(mark: Mark): Md.PhrasingContent & Parent {
  switch (mark.type.name) {
    case 'em':
      return { type: 'emphasis', children: [] };
    case 'strong':
      return { type: 'strong', children: [] };
    case 'strikethrough':
      return { type: 'delete', children: [] };
    case 'link':
      return {
        type: 'link',
        url: String(mark.attrs.href ?? ''),
        title: (mark.attrs.title as string | null) ?? null,
        children: [],
      };
    default:
      throw new Error(`unknown mark ${mark.type.name}`);
  }
}

function leafFor(node: Node): Md.PhrasingContent | null {
  switch (node.type.name) {
    case 'text':
      return node.marks.some((m) => m.type.name === 'code')
        ? { type: 'inlineCode', value: node.text! }
        : { type: 'text', value: node.text! };
    case 'hard_break':
      return { type: 'break' };
    case 'image':
      return {
        type: 'image',
        url: String(node.attrs.src ?? ''),
        alt: String(node.attrs.alt ?? ''),
        title: (node.attrs.title as string | null) ?? null,
      };
    case 'html_inline':
      return { type: 'html', value: String(node.attrs.html ?? '') };
    default:
      return null;
  }
}

function pushLeaf(parent: Parent, leaf: Md.PhrasingContent): void {
  const last = parent.children[parent.children.length - 1];
  if (leaf.type === 'text' && last?.type === 'text') last.value += leaf.value;
  else parent.children.push(leaf);
}

/**
 * ProseMirror keeps marks as flat sets on inline nodes; mdast nests them. Marks are opened
 * longest-run first so that `*a [b](u) c*` nests the link inside the emphasis, as it was written.
 */
function phrasing(block: Node): Md.PhrasingContent[] {
  const items: Node[] = [];
  block.forEach((child) => items.push(child));
  const root: Parent = { children: [] };
  const stack: { mark: Mark; node: Parent }[] = [];
  const extent = (mark: Mark, from: number): number => {
    let j = from;
    while (j < items.length && mark.isInSet(items[j]!.marks)) j++;
    return j - from;
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const marks = item.marks.filter((m) => m.type.name !== 'code');
    let keep = 0;
    while (keep < stack.length && stack[keep]!.mark.isInSet(marks)) keep++;
    stack.length = keep;
    const toOpen = marks.filter((m) => !stack.some((s) => s.mark.eq(m)));
    if (toOpen.length > 1) {
      const ext = new Map(toOpen.map((m) => [m, extent(m, i)] as const));
      toOpen.sort(
        (a, b) => ext.get(b)! - ext.get(a)! || (MARK_RANK[a.type.name] ?? 9) - (MARK_RANK[b.type.name] ?? 9),
      );
    }
    for (const mark of toOpen) {
      const wrapper = wrapperFor(mark);
      (stack.length ? stack[stack.length - 1]!.node : root).children.push(wrapper);
      stack.push({ mark, node: wrapper });
    }
    const leaf = leafFor(item);
    if (leaf) pushLeaf(stack.length ? stack[stack.length - 1]!.node : root, leaf);
  }
  return root.children;
}

function blockToMdast(node: Node): Md.RootContent | null {
  switch (node.type.name) {
    case 'paragraph':
      return { type: 'paragraph', children: phrasing(node) };
    case 'heading':
      return {
        type: 'heading',
        depth: Math.min(6, Math.max(1, Number(node.attrs.level) || 1)) as Md.Heading['depth'],
        children: phrasing(node),
      };
    case 'blockquote':
      return { type: 'blockquote', children: blocksToMdast(node) };
    case 'bullet_list':
    case 'ordered_list': {
      const spread = node.attrs.tight === false;
      const items: Md.ListItem[] = [];
      node.forEach((item) => {
        const checked = item.attrs.checked;
        items.push({
          type: 'listItem',
          spread,
          checked: typeof checked === 'boolean' ? checked : null,
          children: blocksToMdast(item),
        });
      });
      return node.type.name === 'ordered_list'
        ? { type: 'list', ordered: true, start: Number(node.attrs.order ?? 1), spread, children: items }
        : { type: 'list', ordered: false, spread, children: items };
    }
    case 'code_block':
      return {
        type: 'code',
        lang: (node.attrs.language as string | null) || null,
        meta: (node.attrs.meta as string | null) || null,
        value: node.textContent,
      };
    case 'horizontal_rule':
      return { type: 'thematicBreak' };
    case 'html_block':
      return { type: 'html', value: String(node.attrs.html ?? '') };
    case 'table': {
      const rows: Md.TableRow[] = [];
      let align: Md.AlignType[] = [];
      node.forEach((row, _offset, r) => {
        const cells: Md.TableCell[] = [];
        row.forEach((cell) => cells.push({ type: 'tableCell', children: phrasing(cell) }));
        if (r === 0) row.forEach((cell) => align.push((cell.attrs.align as Md.AlignType) ?? null));
        rows.push({ type: 'tableRow', children: cells });
      });
      return { type: 'table', align, children: rows };
    }
    default:
      return null;
  }
}

function blocksToMdast(parent: Node): Md.BlockContent[] {
  const out: Md.BlockContent[] = [];
  parent.forEach((child) => {
    const md = blockToMdast(child);
    if (md) out.push(md as Md.BlockContent);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Joining top-level blocks

/** The marker a printed top-level list starts with: `-`, `*`, `+`, `.` or `)`. */
function printedMarker(markdown: string): string {
  const m = /^\s*(?:[-*+]|\d+[.)])/.exec(markdown);
  return m ? m[0].slice(-1) : '';
}

/**
 * Markdown for a sequence of top-level blocks. Empty paragraphs have no markdown form and are
 * skipped; blocks are separated by one blank line.
 */
export function blocksToMarkdown(blocks: readonly Node[]): string {
  const parts: string[] = [];
  let prevType = '';
  let prevMarker = '';
  for (const block of blocks) {
    if (block.type.name === 'paragraph' && block.content.size === 0) continue;
    const md = blockToMdast(block);
    if (!md) continue;
    let options = DEFAULT_OPTIONS;
    if (block.type.name === prevType) {
      if (prevType === 'bullet_list') options = BULLET_AFTER[prevMarker as Bullet] ?? DEFAULT_OPTIONS;
      else if (prevType === 'ordered_list' && prevMarker === '.') options = ORDERED_AFTER_DOT;
    }
    let text = toMarkdown({ type: 'root', children: [md] }, options);
    if (text.endsWith('\n')) text = text.slice(0, -1);
    parts.push(text);
    prevType = block.type.name;
    prevMarker = prevType === 'bullet_list' || prevType === 'ordered_list' ? printedMarker(text) : '';
  }
  return parts.length ? parts.join('\n\n') + '\n' : '';
}

/** Markdown for a whole document. */
export function docToMarkdown(doc: Node): string {
  const blocks: Node[] = [];
  doc.forEach((child) => blocks.push(child));
  return blocksToMarkdown(blocks);
}
