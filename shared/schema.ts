/**
 * The journal schema, shared by the service and by editors (y-prosemirror binds a Y.XmlFragment
 * named `prosemirror` to documents of this schema).
 *
 * Every block-level node carries an `id` attribute: a short random string, unique within the
 * journal and stable across edits. Table rows and cells are structure, not blocks, and have none.
 * Raw HTML is kept verbatim in opaque atom nodes (`html_block`, `html_inline`) and is never
 * interpreted by the service.
 */
import { Schema, type NodeSpec, type MarkSpec } from 'prosemirror-model';

const id = { default: null as string | null };

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
  image: {
    group: 'inline',
    inline: true,
    atom: true,
    attrs: { src: { default: '' }, alt: { default: '' }, title: { default: null } },
  },
  hard_break: { group: 'inline', inline: true, selectable: false },
  html_inline: { group: 'inline', inline: true, atom: true, attrs: { html: { default: '' } } },
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
