/**
 * The journal schema, shared by the service and by editors (y-prosemirror binds a Y.XmlFragment
 * named `prosemirror` to documents of this schema).
 *
 * Every block-level node carries an `id` attribute: a short random string, unique within the
 * journal and stable across edits. Table rows and cells are structure, not blocks, and have none.
 * Raw HTML is kept verbatim in opaque atom nodes (`html_block`, `html_inline`) and is never
 * interpreted by the service.
 *
 * Inline atoms keep their marks in a `marks` attribute, and emphasis nested in its own kind is a
 * pair of `html_inline` tags marked `nested` (a mark set cannot hold a mark twice). Both have
 * defaults, so older stored documents stay readable (docs/markdown-fidelity.md).
 */
import { Schema, type NodeSpec, type MarkSpec } from 'prosemirror-model';

const id = { default: null as string | null };
/** Marks of an inline atom, as `Mark.toJSON()` values; null for none. */
const atomMarks = { default: null as unknown[] | null };

const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block+' },
  paragraph: { group: 'block', content: 'inline*', attrs: { id } },
  heading: { group: 'block', content: 'inline*', attrs: { id, level: { default: 1 } }, defining: true },
  blockquote: { group: 'block', content: 'block*', attrs: { id }, defining: true },
  bullet_list: { group: 'block', content: 'list_item+', attrs: { id, tight: { default: true } } },
  ordered_list: {
    group: 'block',
    content: 'list_item+',
    attrs: { id, order: { default: 1 }, tight: { default: true } },
  },
  /** `checked` is null for an ordinary item and a boolean for a GFM task-list item. */
  list_item: { content: 'block*', attrs: { id, checked: { default: null } }, defining: true },
  code_block: {
    group: 'block',
    content: 'text*',
    marks: '',
    code: true,
    defining: true,
    attrs: { id, language: { default: null }, meta: { default: null } },
  },
  horizontal_rule: { group: 'block', atom: true, attrs: { id } },
  html_block: { group: 'block', atom: true, attrs: { id, html: { default: '' } } },
  table: { group: 'block', content: 'table_row+', attrs: { id }, isolating: true },
  table_row: { content: '(table_header | table_cell)+' },
  table_header: { content: 'inline*', attrs: { align: { default: null } }, isolating: true },
  table_cell: { content: 'inline*', attrs: { align: { default: null } }, isolating: true },
  text: { group: 'inline' },
  // `marks` on the inline atoms below: the marks the node has in markdown (e.g. the link around a
  // badge image, emphasis across a hard break), as mark JSON. Yjs stores an inline node that is
  // not text as an element, and y-prosemirror keeps an element's attributes but not its marks, so
  // the marks travel as an attribute (the serializer also reads marks set on the node).
  image: {
    group: 'inline',
    inline: true,
    atom: true,
    attrs: { src: { default: '' }, alt: { default: '' }, title: { default: null }, marks: atomMarks },
  },
  hard_break: { group: 'inline', inline: true, selectable: false, attrs: { marks: atomMarks } },
  // `nested` ('open' | 'close'): the tag opens or closes emphasis, strong or strikethrough nested
  // in the same kind (`*a *b* c*`), which a mark set cannot hold; exported as markdown delimiters.
  html_inline: { group: 'inline', inline: true, atom: true, attrs: { html: { default: '' }, marks: atomMarks, nested: { default: null } } },
};

const marks: Record<string, MarkSpec> = {
  link: { attrs: { href: { default: '' }, title: { default: null } }, inclusive: false },
  em: {},
  strong: {},
  strikethrough: {},
  code: {},
};

export const schema = new Schema({ nodes, marks });

/** Node types that carry a block `id`. */
export const BLOCK_NODE_TYPES: ReadonlySet<string> = new Set(
  Object.keys(nodes).filter((name) => nodes[name]!.attrs && 'id' in nodes[name]!.attrs!),
);

export const FRAGMENT_NAME = 'prosemirror';
