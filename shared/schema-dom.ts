/**
 * How each node and mark of the journal schema (schema.ts) is drawn and read back from HTML
 * (paste), shared by the web app's editor (web/editor/schema.ts) and the Tiptap extensions
 * (tiptap.ts). Raw HTML nodes are shown as their source text, never interpreted; links and images
 * keep only safe URL schemes. Typed without the DOM's types (shared/ is also compiled for Node):
 * `DomElement` is the part of an HTMLElement the parse rules read.
 */
import type { DOMOutputSpec, MarkSpec, Node as PMNode, NodeSpec } from 'prosemirror-model';

/** What the parse rules read of an element (an HTMLElement in a browser). */
export interface DomElement {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  readonly dataset: { [key: string]: string | undefined };
  readonly style: { textAlign: string; fontWeight: string };
  readonly textContent: string | null;
  querySelector(selectors: string): unknown;
}

const SAFE_HREF = /^(https?:|mailto:|#|\/|\.{0,2}\/|[^:]*$)/i;
const SAFE_SRC = /^(https?:|data:image\/|blob:|\/|\.{0,2}\/|[^:]*$)/i;
export const safeHref = (href: string): string | null => (SAFE_HREF.test(href.trim()) ? href : null);
export const safeSrc = (src: string): string | null => (SAFE_SRC.test(src.trim()) ? src : null);

/** `data-id` shows the block id (handy to relate the page to the REST block model). */
const block = (n: PMNode, extra: Record<string, string | null> = {}) => ({ 'data-id': (n.attrs.id as string | null) ?? null, ...extra });
const align = (n: PMNode) => (n.attrs.align ? { style: `text-align: ${n.attrs.align as string}` } : {});
const alignOf = (dom: DomElement) => {
  const a = dom.style.textAlign || dom.getAttribute('align');
  return a === 'left' || a === 'center' || a === 'right' ? a : null;
};

export const nodeDom: Record<string, Partial<NodeSpec>> = {
  paragraph: { parseDOM: [{ tag: 'p' }], toDOM: (n) => ['p', block(n), 0] },
  heading: {
    parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
    toDOM: (n) => [`h${n.attrs.level as number}`, block(n), 0],
  },
  blockquote: { parseDOM: [{ tag: 'blockquote' }], toDOM: (n) => ['blockquote', block(n), 0] },
  bullet_list: {
    parseDOM: [{ tag: 'ul', getAttrs: (dom: DomElement) => ({ tight: dom.dataset.tight !== 'false' }) }],
    toDOM: (n) => ['ul', block(n, { 'data-tight': n.attrs.tight ? null : 'false' }), 0],
  },
  ordered_list: {
    parseDOM: [{ tag: 'ol', getAttrs: (dom: DomElement) => ({ order: dom.hasAttribute('start') ? Number(dom.getAttribute('start')) || 1 : 1, tight: dom.dataset.tight !== 'false' }) }],
    toDOM: (n) => ['ol', block(n, { start: n.attrs.order === 1 ? null : String(n.attrs.order), 'data-tight': n.attrs.tight ? null : 'false' }), 0],
  },
  // The editor draws list items with a node view (a checkbox for task items: nodeviews.ts); this is
  // the form used for copy and paste.
  list_item: {
    parseDOM: [
      {
        tag: 'li',
        getAttrs: (dom: DomElement) => {
          if (dom.dataset.checked !== undefined) return { checked: dom.dataset.checked === 'true' };
          const box = dom.querySelector(':scope > input[type=checkbox]') as { checked: boolean } | null;
          return { checked: box ? box.checked : null };
        },
      },
    ],
    toDOM: (n) => ['li', block(n, { 'data-checked': n.attrs.checked === null ? null : String(n.attrs.checked) }), 0],
  },
  code_block: {
    parseDOM: [{ tag: 'pre', preserveWhitespace: 'full', getAttrs: (dom: DomElement) => ({ language: dom.dataset.language ?? null }) }],
    toDOM: (n) => ['pre', block(n, { 'data-language': (n.attrs.language as string | null) ?? null }), ['code', 0]],
  },
  horizontal_rule: { parseDOM: [{ tag: 'hr' }], toDOM: (n) => ['hr', block(n)] },
  html_block: {
    parseDOM: [{ tag: 'div.html-block', getAttrs: (dom: DomElement) => ({ html: dom.dataset.html ?? dom.textContent ?? '' }) }],
    toDOM: (n) => ['div', block(n, { class: 'html-block', 'data-html': n.attrs.html as string, title: 'Raw HTML, kept verbatim and never run' }), ['code', n.attrs.html as string]],
  },
  table: { parseDOM: [{ tag: 'table' }], toDOM: (n) => ['table', block(n), ['tbody', 0]] },
  table_row: { parseDOM: [{ tag: 'tr' }], toDOM: () => ['tr', 0] },
  table_header: { parseDOM: [{ tag: 'th', getAttrs: (dom: DomElement) => ({ align: alignOf(dom) }) }], toDOM: (n) => ['th', align(n), 0] },
  table_cell: { parseDOM: [{ tag: 'td', getAttrs: (dom: DomElement) => ({ align: alignOf(dom) }) }], toDOM: (n) => ['td', align(n), 0] },
  image: {
    parseDOM: [
      {
        tag: 'img[src]',
        getAttrs: (dom: DomElement) => ({ src: dom.getAttribute('src') ?? '', alt: dom.getAttribute('alt') ?? '', title: dom.getAttribute('title') }),
      },
    ],
    toDOM: (n) => ['img', { src: safeSrc(n.attrs.src as string), alt: n.attrs.alt as string, title: (n.attrs.title as string | null) ?? null, loading: 'lazy', referrerpolicy: 'no-referrer' }],
  },
  hard_break: { parseDOM: [{ tag: 'br' }], toDOM: () => ['br'] },
  html_inline: {
    parseDOM: [{ tag: 'span.html-inline', getAttrs: (dom: DomElement) => ({ html: dom.dataset.html ?? dom.textContent ?? '' }) }],
    // Nested-emphasis markers (`nested`) are delimiters, not content: drawn faintly.
    toDOM: (n) => ['span', { class: n.attrs.nested ? 'html-inline nested' : 'html-inline', 'data-html': n.attrs.html as string }, n.attrs.html as string],
  },
};

export const markDom: Record<string, Partial<MarkSpec>> = {
  link: {
    parseDOM: [{ tag: 'a[href]', getAttrs: (dom: DomElement) => ({ href: dom.getAttribute('href') ?? '', title: dom.getAttribute('title') }) }],
    toDOM: (m): DOMOutputSpec => ['a', { href: safeHref(m.attrs.href as string), title: (m.attrs.title as string | null) ?? null, rel: 'noopener noreferrer nofollow', target: '_blank' }, 0],
  },
  em: { parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }], toDOM: () => ['em', 0] },
  strong: {
    parseDOM: [{ tag: 'strong' }, { tag: 'b', getAttrs: (dom: DomElement) => dom.style.fontWeight !== 'normal' && null }, { style: 'font-weight=bold' }],
    toDOM: () => ['strong', 0],
  },
  strikethrough: { parseDOM: [{ tag: 's' }, { tag: 'del' }, { tag: 'strike' }, { style: 'text-decoration=line-through' }], toDOM: () => ['s', 0] },
  code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
};
