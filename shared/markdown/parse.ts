/**
 * Markdown -> ProseMirror: micromark (CommonMark + GFM) builds an mdast tree, which is mapped
 * node by node onto the journal schema. Pure; runs in Node and in browsers.
 *
 * GFM here means tables, task lists, strikethrough and autolink literals. Footnotes are left out
 * on purpose: the schema has no footnote node, and without the extension `[^1]: x` keeps its
 * CommonMark meaning (a link reference definition) instead of vanishing.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Extension as MdastExtension } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { toMarkdown } from 'mdast-util-to-markdown';
import type * as Md from 'mdast';
import { splitMarkdown } from './split.ts';
import type { Mark, Node } from 'prosemirror-model';
import { schema } from '../schema.ts';
import { newBlockId } from '../ids.ts';
import { MAX_NESTING_DEPTH } from '../limits.ts';

export interface ParseOptions {
  /** Source of block ids; defaults to `newBlockId`. */
  newId?: () => string;
  /** The tree of `markdown` from `parseMdast`, when it was parsed elsewhere (a worker). */
  root?: Md.Root;
}

/** Markdown that goes past a documented limit (nesting depth). The message names the limit. */
export class MarkdownLimitError extends Error {}

const tooDeep = () =>
  new MarkdownLimitError(`markdown is nested too deeply: at most ${MAX_NESTING_DEPTH} levels of blocks (quotes, lists) and ${MAX_NESTING_DEPTH} of inline markup are allowed`);

const micromarkExtensions = [
  gfmAutolinkLiteral(),
  gfmStrikethrough(),
  gfmTable(),
  gfmTaskListItem(),
];
const mdastExtensions: MdastExtension[] = [
  gfmAutolinkLiteralFromMarkdown(),
  gfmStrikethroughFromMarkdown(),
  gfmTableFromMarkdown(),
  gfmTaskListItemFromMarkdown(),
];

function parseWhole(markdown: string): Md.Root {
  try {
    return fromMarkdown(markdown, { extensions: micromarkExtensions, mdastExtensions });
  } catch (err) {
    // micromark recurses per open container: only nesting far past the limit overflows the stack.
    if (err instanceof RangeError) throw tooDeep();
    throw err;
  }
}

function collectDefinitionNodes(node: Md.Nodes, out: Md.Definition[]): void {
  if (node.type === 'definition') out.push(node);
  else if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'table') return;
  else if ('children' in node) for (const child of node.children) collectDefinitionNodes(child, out);
}

/**
 * The mdast tree for `markdown`, with the extensions the importer uses. Long texts are parsed in
 * pieces (see split.ts) so the cost stays linear. Link reference definitions apply to the whole
 * document, so when there are any, every piece that could hold a reference is parsed again with
 * all definitions, in document order, put in front of it.
 */
export function parseMdast(markdown: string, minChunk?: number): Md.Root {
  const pieces = splitMarkdown(markdown, minChunk);
  if (pieces.length === 1) return parseWhole(markdown);
  const roots = pieces.map(parseWhole);
  const definitions: Md.Definition[] = [];
  for (const root of roots) collectDefinitionNodes(root, definitions);
  if (definitions.length > 0) {
    const prefix = toMarkdown({ type: 'root', children: definitions }) + '\n';
    // Too many definitions for too many pieces: one quadratic parse is then the cheaper one.
    if (prefix.length * pieces.length > 4 * markdown.length) return parseWhole(markdown);
    for (let i = 0; i < pieces.length; i++) {
      if (!pieces[i]!.includes('[')) continue;
      const root = parseWhole(prefix + pieces[i]);
      // Drop the copies of the definitions that the prefix produced.
      root.children = root.children.slice(definitions.length);
      roots[i] = root;
    }
  }
  const children: Md.RootContent[] = [];
  for (const root of roots) for (const child of root.children) children.push(child);
  return { type: 'root', children };
}

const n = schema.nodes;
const EM = schema.marks.em!.create();
const STRONG = schema.marks.strong!.create();
const STRIKE = schema.marks.strikethrough!.create();
const CODE = schema.marks.code!.create();
const NO_MARKS: readonly Mark[] = [];

interface Definition {
  url: string;
  title: string | null;
}

class Converter {
  private readonly definitions = new Map<string, Definition>();

  constructor(
    root: Md.Root,
    private readonly newId: () => string,
  ) {
    this.collectDefinitions(root);
  }

  /** Link reference definitions apply document-wide, wherever they stand; the first one wins. */
  private collectDefinitions(node: Md.Nodes): void {
    if (node.type === 'definition') {
      if (!this.definitions.has(node.identifier)) {
        this.definitions.set(node.identifier, { url: node.url, title: node.title ?? null });
      }
      return;
    }
    if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'table') return;
    if ('children' in node) for (const child of node.children) this.collectDefinitions(child);
  }

  doc(root: Md.Root): Node {
    const blocks = this.blocks(root.children);
    if (blocks.length === 0) blocks.push(n.paragraph!.create({ id: this.newId() }));
    return n.doc!.create(null, blocks);
  }

  private blocks(children: readonly Md.RootContent[]): Node[] {
    const out: Node[] = [];
    for (const child of children) {
      const block = this.block(child);
      if (block) out.push(block);
    }
    return out;
  }

  private block(node: Md.RootContent): Node | null {
    switch (node.type) {
      case 'paragraph':
        return n.paragraph!.create({ id: this.newId() }, this.inlines(node.children, NO_MARKS));
      case 'heading':
        return n.heading!.create(
          { id: this.newId(), level: node.depth },
          this.inlines(node.children, NO_MARKS),
        );
      case 'thematicBreak':
        return n.horizontal_rule!.create({ id: this.newId() });
      case 'blockquote':
        return n.blockquote!.create({ id: this.newId() }, this.blocks(node.children));
      case 'list': {
        const id = this.newId();
        const items = node.children.map((item) =>
          n.list_item!.create(
            { id: this.newId(), checked: typeof item.checked === 'boolean' ? item.checked : null },
            this.blocks(item.children),
          ),
        );
        // CommonMark: a list is loose if any of its items are separated by a blank line, or
        // if an item holds two blocks with a blank line between them (mdast: item.spread).
        const tight = !(node.spread || node.children.some((item) => item.spread));
        return node.ordered
          ? n.ordered_list!.create({ id, order: node.start ?? 1, tight }, items)
          : n.bullet_list!.create({ id, tight }, items);
      }
      case 'code':
        return n.code_block!.create(
          { id: this.newId(), language: node.lang || null, meta: node.meta || null },
          node.value ? schema.text(node.value) : null,
        );
      case 'html':
        return n.html_block!.create({ id: this.newId(), html: node.value });
      case 'table': {
        const align = node.align ?? [];
        const rows = node.children.map((row, r) =>
          n.table_row!.create(
            null,
            row.children.map((cell, c) =>
              (r === 0 ? n.table_header! : n.table_cell!).create(
                { align: align[c] ?? null },
                this.inlines(cell.children, NO_MARKS),
              ),
            ),
          ),
        );
        return n.table!.create({ id: this.newId() }, rows);
      }
      case 'definition':
        // Resolved into the links that use it; the rendered HTML is the same.
        return null;
      default:
        // Node kinds the enabled syntax never produces (footnotes, frontmatter); and a stray
        // phrasing node is wrapped so nothing is silently lost.
        if (isPhrasing(node)) {
          return n.paragraph!.create({ id: this.newId() }, this.inlines([node], NO_MARKS));
        }
        return null;
    }
  }

  private inlines(children: readonly Md.PhrasingContent[], marks: readonly Mark[]): Node[] {
    const out: Node[] = [];
    for (const child of children) this.inline(child, marks, out);
    return out;
  }

  private inline(node: Md.PhrasingContent, marks: readonly Mark[], out: Node[]): void {
    switch (node.type) {
      case 'text':
        if (node.value) out.push(schema.text(node.value, marks));
        return;
      case 'emphasis':
        this.attention(node.children, EM, 'em', marks, out);
        return;
      case 'strong':
        this.attention(node.children, STRONG, 'strong', marks, out);
        return;
      case 'delete':
        this.attention(node.children, STRIKE, 'del', marks, out);
        return;
      case 'inlineCode':
        if (node.value) out.push(schema.text(node.value, CODE.addToSet(marks)));
        return;
      case 'break':
        out.push(n.hard_break!.create(null, null, marks));
        return;
      case 'html':
        out.push(n.html_inline!.create({ html: node.value }, null, marks));
        return;
      case 'image':
        out.push(
          n.image!.create({ src: node.url, alt: node.alt ?? '', title: node.title ?? null }, null, marks),
        );
        return;
      case 'imageReference': {
        const def = this.definitions.get(node.identifier);
        out.push(
          n.image!.create(
            { src: def?.url ?? '', alt: node.alt ?? '', title: def?.title ?? null },
            null,
            marks,
          ),
        );
        return;
      }
      case 'link':
        this.link(node.children, node.url, node.title ?? null, marks, out);
        return;
      case 'linkReference': {
        const def = this.definitions.get(node.identifier);
        this.link(node.children, def?.url ?? '', def?.title ?? null, marks, out);
        return;
      }
      default:
        // footnoteReference cannot occur (extension not enabled).
        return;
    }
  }

  /**
   * Emphasis, strong or strikethrough. ProseMirror marks are sets, so the same kind nested in
   * itself (`*foo *bar**`, `****foo****`) cannot be a second mark: the inner level is kept as
   * raw inline HTML tags around its content, which renders to exactly the same HTML.
   */
  private attention(
    children: readonly Md.PhrasingContent[],
    mark: Mark,
    tag: string,
    marks: readonly Mark[],
    out: Node[],
  ): void {
    if (!mark.isInSet(marks)) {
      const inner = mark.addToSet(marks);
      for (const c of children) this.inline(c, inner, out);
      return;
    }
    out.push(n.html_inline!.create({ html: `<${tag}>` }, null, marks));
    for (const c of children) this.inline(c, marks, out);
    out.push(n.html_inline!.create({ html: `</${tag}>` }, null, marks));
  }

  /**
   * A link whose text is empty (`[](/url)`) has no inline node to carry its mark; an empty
   * `html_inline` stands in for the text so the link survives (it prints as nothing).
   */
  private link(
    children: readonly Md.PhrasingContent[],
    href: string,
    title: string | null,
    marks: readonly Mark[],
    out: Node[],
  ): void {
    const inner = schema.marks.link!.create({ href, title }).addToSet(marks);
    const before = out.length;
    for (const c of children) this.inline(c, inner, out);
    if (out.length === before) out.push(n.html_inline!.create({ html: '' }, null, inner));
  }
}

const PHRASING = new Set([
  'text', 'emphasis', 'strong', 'delete', 'inlineCode', 'break', 'html', 'image',
  'imageReference', 'link', 'linkReference',
]);
function isPhrasing(node: Md.RootContent): node is Md.PhrasingContent {
  return PHRASING.has(node.type);
}

/**
 * Throws MarkdownLimitError when blocks or inline markup nest deeper than MAX_NESTING_DEPTH.
 * Iterative, so it is safe on any tree; the converter below recurses only within the limit.
 */
export function checkNesting(root: Md.Root): void {
  const stack: [Md.Nodes, number, number][] = [[root, 0, 0]];
  while (stack.length > 0) {
    const [node, blocks, inlines] = stack.pop()!;
    if (blocks > MAX_NESTING_DEPTH || inlines > MAX_NESTING_DEPTH) throw tooDeep();
    if (!('children' in node)) continue;
    for (const child of node.children as Md.Nodes[]) {
      const inline = PHRASING.has(child.type);
      stack.push([child, blocks + (inline ? 0 : 1), inlines + (inline ? 1 : 0)]);
    }
  }
}

/**
 * Parse markdown into a `doc` of the journal schema. Every block gets a fresh id; an empty input
 * yields one empty paragraph (the schema requires at least one block). Throws MarkdownLimitError
 * past the nesting limit.
 */
export function markdownToDoc(markdown: string, opts?: ParseOptions): Node {
  const root = opts?.root ?? parseMdast(markdown);
  checkNesting(root);
  return new Converter(root, opts?.newId ?? newBlockId).doc(root);
}
