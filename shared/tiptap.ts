/**
 * The journal schema (schema.ts) as Tiptap extensions, for a Tiptap app that edits journals
 * (docs/tiptap.md): one Tiptap node or mark per node and mark of the schema, with the same name,
 * content expression, attributes (block `id`s included) and flags, drawn and read from HTML as the
 * web app draws them (schema-dom.ts). With `@tiptap/extension-collaboration` bound to the
 * `prosemirror` fragment (JOURNAL_FIELD), a Tiptap editor opens any journal without dropping
 * content and writes only what the service's schema check accepts.
 *
 * Built to dist/tiptap/index.mjs (scripts/build-tiptap.mjs), with `@tiptap/*` left as imports of
 * the app. Use these extensions instead of StarterKit (whose node names differ: `bulletList`…),
 * and with Collaboration turn undo off in any other extension (Collaboration brings its own).
 */
import { Mark, Node, type AnyExtension, type Attributes } from '@tiptap/core';
import type { DOMOutputSpec, Mark as PMMark, MarkSpec, Node as PMNode, NodeSpec, TagParseRule } from 'prosemirror-model';
import { markDom, nodeDom } from './schema-dom.ts';
import { FRAGMENT_NAME, schema } from './schema.ts';

/** The Y.XmlFragment journals live in: Collaboration's `field`. */
export const JOURNAL_FIELD = FRAGMENT_NAME;

/**
 * Tiptap attributes of a schema node or mark: same names and defaults, drawn by renderHTML (not
 * added to the element as they are). A block's `id` is not copied when the block is split: the
 * new block gets one from the service (docs/realtime.md, "Block ids").
 */
function attributesOf(attrs: NodeSpec['attrs'] | MarkSpec['attrs']): Attributes {
  const out: Attributes = {};
  for (const [name, spec] of Object.entries(attrs ?? {})) {
    out[name] = { default: (spec as { default?: unknown }).default ?? null, rendered: false, keepOnSplit: name !== 'id' };
  }
  return out;
}

function nodeExtension(name: string, spec: NodeSpec): AnyExtension {
  const dom = nodeDom[name];
  return Node.create({
    name,
    topNode: name === 'doc',
    group: spec.group,
    content: spec.content,
    inline: spec.inline,
    atom: spec.atom,
    marks: spec.marks,
    code: spec.code,
    defining: spec.defining,
    isolating: spec.isolating,
    selectable: spec.selectable,
    addAttributes: () => attributesOf(spec.attrs),
    parseHTML: () => (dom?.parseDOM ?? []) as TagParseRule[],
    ...(dom?.toDOM ? { renderHTML: ({ node }: { node: PMNode }) => dom.toDOM!(node) as DOMOutputSpec } : {}),
  });
}

function markExtension(name: string, spec: MarkSpec): AnyExtension {
  const dom = markDom[name];
  return Mark.create({
    name,
    inclusive: spec.inclusive,
    addAttributes: () => attributesOf(spec.attrs),
    parseHTML: () => (dom?.parseDOM ?? []) as TagParseRule[],
    renderHTML: ({ mark }: { mark: PMMark }) => dom!.toDOM!(mark, true) as DOMOutputSpec,
  });
}

/** Every node and mark of the journal schema, as Tiptap extensions (`new Editor({ extensions: [...journalExtensions(), ...] })`). */
export function journalExtensions(): AnyExtension[] {
  const out: AnyExtension[] = [];
  schema.spec.nodes.forEach((name, spec) => out.push(nodeExtension(name, spec)));
  schema.spec.marks.forEach((name, spec) => out.push(markExtension(name, spec)));
  return out;
}

/** Names of the nodes and marks journalExtensions() defines, in the schema's order. */
export const JOURNAL_NODE_NAMES: readonly string[] = (() => {
  const names: string[] = [];
  schema.spec.nodes.forEach((name) => names.push(name));
  return names;
})();
export const JOURNAL_MARK_NAMES: readonly string[] = (() => {
  const names: string[] = [];
  schema.spec.marks.forEach((name) => names.push(name));
  return names;
})();
