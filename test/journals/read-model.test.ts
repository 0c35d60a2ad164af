/**
 * server/journals/read-model.ts: the same document as y-prosemirror for everything y-prosemirror
 * writes; for anything else a valid document, no exception, and no write to the Y.Doc.
 */
import { createRequire } from 'node:module';
import * as fc from 'fast-check';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { prosemirrorToYXmlFragment, updateYFragment, yXmlFragmentToProseMirrorRootNode } from 'y-prosemirror';
import * as Y from 'yjs';
import { MAX_NESTING_DEPTH } from '../../shared/limits.ts';
import { markdownToDoc } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME, schema } from '../../shared/schema.ts';
import { ATTRIBUTE_SANITIZERS, fragmentToDoc, readIssuesForLog, type ReadModel } from '../../server/journals/read-model.ts';

const require = createRequire(import.meta.url);
const examples = (require('commonmark-spec') as { tests: { markdown: string; number: number }[] }).tests;

const GFM = [
  '| a | b | c | d |\n| :-- | :-: | --: | --- |\n| 1 | **2** | `3` | [4](/u "t") |\n| x |\n',
  '- [ ] open\n- [x] done\n- plain\n\n1. [X] numbered\n',
  '0. zero\n1. one\n\n999999999. big\n',
  'a ~~struck **and strong**~~ b ~single~\n',
  'see https://example.com/a?b=1, www.example.org and me@example.net.\n',
  '# one\n## two\n### three\n#### four\n##### five\n###### six\n',
  '```ts {1,2} title="x"\nconst a = 1;\n```\n\n~~~\nplain\n~~~\n',
  '> - [ ] quoted task\n>   - nested *em* and ![img](/i.png "title") and <b>html</b>\n>\n> ---\n',
  '<div class="x">\n*not emphasis*\n</div>\n\nText <span>in *span*</span> end.  \nhard break\\\nagain\n',
  '[![image in link](/i.png)](/target) and [](/empty) and [**strong link**](/s)\n',
  '- loose\n\n- list\n\n  with two paragraphs\n',
  '',
];

function newFragment(): { ydoc: Y.Doc; fragment: Y.XmlFragment } {
  const ydoc = new Y.Doc();
  return { ydoc, fragment: ydoc.getXmlFragment(FRAGMENT_NAME) };
}

function written(doc: PMNode): { ydoc: Y.Doc; fragment: Y.XmlFragment } {
  const f = newFragment();
  prosemirrorToYXmlFragment(doc, f.fragment);
  return f;
}

/** fragmentToDoc, checking that it neither wrote to the Y.Doc nor returned an invalid document. */
function readUnchanged(ydoc: Y.Doc, fragment: Y.XmlFragment): ReadModel {
  const before = Y.encodeStateAsUpdate(ydoc);
  let transactions = 0;
  const count = () => transactions++;
  ydoc.on('beforeTransaction', count);
  const result = fragmentToDoc(fragment);
  ydoc.off('beforeTransaction', count);
  expect(transactions).toBe(0);
  expect(Y.encodeStateAsUpdate(ydoc)).toEqual(before);
  result.doc.check();
  const counted = Object.entries(result.issues).reduce((sum, [, n]) => sum + n!, 0);
  expect(counted).toBe(result.dropped + result.repaired);
  return result;
}

/** Builds hostile content with the Yjs API, in one transaction, and reads it. */
function read(build: (fragment: Y.XmlFragment) => void): ReadModel {
  const { ydoc, fragment } = newFragment();
  ydoc.transact(() => build(fragment));
  return readUnchanged(ydoc, fragment);
}

function element(parent: Y.XmlFragment, name: string, attrs: Record<string, unknown> = {}): Y.XmlElement {
  const el = new Y.XmlElement(name);
  parent.insert(parent.length, [el]);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v as string);
  return el;
}

function text(parent: Y.XmlFragment, delta: { insert: unknown; attributes?: Record<string, unknown> }[]): Y.XmlText {
  const t = new Y.XmlText();
  parent.insert(parent.length, [t]);
  t.applyDelta(delta);
  return t;
}

const json = (node: PMNode) => node.toJSON() as Record<string, unknown>;
const emptyDoc = { type: 'doc', content: [{ type: 'paragraph', attrs: { id: null } }] };

function expectSameAsYProsemirror(fragment: Y.XmlFragment, ydoc: Y.Doc, label: string | number): void {
  const ours = readUnchanged(ydoc, fragment);
  const theirs = yXmlFragmentToProseMirrorRootNode(fragment, schema);
  expect(json(ours.doc), `example ${label}`).toEqual(json(theirs));
  expect(ours.dropped, `example ${label}`).toBe(0);
  expect(ours.repaired, `example ${label}`).toBe(0);
}

describe('fragmentToDoc on valid content', () => {
  it('sanitizes every attribute of the schema, and every attribute has a default', () => {
    const names = new Set<string>();
    for (const type of [...Object.values(schema.nodes), ...Object.values(schema.marks)]) {
      for (const [name, spec] of Object.entries(type.spec.attrs ?? {})) {
        names.add(name);
        expect(spec, `${type.name}.${name}`).toHaveProperty('default');
        expect(ATTRIBUTE_SANITIZERS[name]!(spec.default), `${type.name}.${name}`).toBe(spec.default);
      }
    }
    expect(Object.keys(ATTRIBUTE_SANITIZERS).sort()).toEqual([...names].sort());
  });

  it('matches y-prosemirror on every CommonMark spec example and on GFM', () => {
    expect(examples.length).toBe(652);
    const sources: [string | number, string][] = [
      ...examples.map((e): [number, string] => [e.number, e.markdown]),
      ...GFM.map((md, i): [string, string] => [`gfm ${i}`, md]),
    ];
    for (const [label, md] of sources) {
      const doc = markdownToDoc(md);
      const { ydoc, fragment } = written(doc);
      expectSameAsYProsemirror(fragment, ydoc, label);
    }
  }, 60_000);

  it("matches y-prosemirror on what the editor binding's diffing writes (each example edited into the next)", () => {
    const docs = [...examples.map((e) => e.markdown), ...GFM].map((md) => markdownToDoc(md));
    const { ydoc, fragment } = written(docs[0]!);
    const meta = { mapping: new Map(), isOMark: new Map() };
    for (let i = 1; i < docs.length; i++) {
      ydoc.transact(() => updateYFragment(ydoc, fragment, docs[i], meta));
      expectSameAsYProsemirror(fragment, ydoc, `edit ${i}`);
    }
  }, 60_000);

  it('reads overlapping-mark hash keys as y-prosemirror does', () => {
    const { ydoc, fragment } = newFragment();
    ydoc.transact(() => {
      const p = element(fragment, 'paragraph', { id: 'p1' });
      text(p, [
        { insert: 'a', attributes: { 'em--abcdefgh': {} } },
        { insert: 'b', attributes: { 'link--AB+/=123': { href: '/u', title: null }, strong: {} } },
        { insert: 'c', attributes: { link: { href: '/v' } } },
      ]);
    });
    expectSameAsYProsemirror(fragment, ydoc, 'hashed');
    expect(json(fragmentToDoc(fragment).doc)).toEqual({
      type: 'doc',
      content: [{
        type: 'paragraph',
        attrs: { id: 'p1' },
        content: [
          { type: 'text', text: 'a', marks: [{ type: 'em' }] },
          { type: 'text', text: 'b', marks: [{ type: 'link', attrs: { href: '/u', title: null } }, { type: 'strong' }] },
          { type: 'text', text: 'c', marks: [{ type: 'link', attrs: { href: '/v', title: null } }] },
        ],
      }],
    });
  });

  it('joins two XmlTexts side by side, as y-prosemirror does (y-prosemirror#160)', () => {
    const source = newFragment();
    source.ydoc.transact(() => {
      const p = element(source.fragment, 'paragraph');
      text(p, [{ insert: 'ab' }]);
      text(p, [{ insert: 'cd', attributes: { em: {} } }, { insert: 'ef' }]);
    });
    // Another client's copy: y-prosemirror only merges XmlTexts its own client wrote.
    const { ydoc, fragment } = newFragment();
    Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(source.ydoc));
    expectSameAsYProsemirror(fragment, ydoc, 'adjacent texts');
    expect(json(fragmentToDoc(fragment).doc.firstChild!).content).toEqual([
      { type: 'text', text: 'ab' },
      { type: 'text', text: 'cd', marks: [{ type: 'em' }] },
      { type: 'text', text: 'ef' },
    ]);
  });

  it('reads an empty fragment as one empty paragraph, without counting it', () => {
    const r = read(() => {});
    expect(json(r.doc)).toEqual(emptyDoc);
    expect(r.dropped + r.repaired).toBe(0);
    expect(readIssuesForLog(r)).toBeUndefined();
  });
});

describe('fragmentToDoc on hostile content', () => {
  it('leaves out an XmlText directly in the fragment', () => {
    const r = read((f) => {
      text(f, [{ insert: 'stray' }]);
      text(element(f, 'paragraph', { id: 'p' }), [{ insert: 'kept' }]);
    });
    expect(json(r.doc)).toEqual({
      type: 'doc',
      content: [{ type: 'paragraph', attrs: { id: 'p' }, content: [{ type: 'text', text: 'kept' }] }],
    });
    expect(r.issues).toEqual({ 'stray-text': 1 });
    expect(readIssuesForLog(r)).toEqual({ dropped: 1, repaired: 0, issues: { 'stray-text': 1 } });
  });

  it('gives one empty paragraph when nothing is left', () => {
    const r = read((f) => text(f, [{ insert: 'only stray text' }]));
    expect(json(r.doc)).toEqual(emptyDoc);
    expect(r.dropped).toBe(1);
  });

  it('leaves out elements named after no node, or after doc and text, with their content', () => {
    const r = read((f) => {
      for (const name of ['div', 'doc', 'text', '__proto__', 'constructor', 'toString', 'UNDEFINED', '']) {
        text(element(element(f, name), 'paragraph'), [{ insert: name }]);
      }
      element(f, 'horizontal_rule', { id: 'hr' });
    });
    expect(json(r.doc)).toEqual({ type: 'doc', content: [{ type: 'horizontal_rule', attrs: { id: 'hr' } }] });
    expect(r.issues).toEqual({ 'unknown-node': 8 });
  });

  it('leaves out XmlHooks, plain Y types, JSON, binary and subdocuments', () => {
    const r = read((f) => {
      const weird = [new Y.XmlHook('hook'), new Y.Map(), new Y.Text('t'), new Y.Array(), new Y.XmlFragment(), 42, 'str', { a: 1 }, new Uint8Array([1]), new Y.Doc()];
      f.insert(0, weird as never);
      const p = element(f, 'paragraph');
      p.insert(0, [new Y.XmlHook('hook'), new Y.Map(), 7] as never);
      text(p, [{ insert: 'x' }]);
    });
    expect(json(r.doc)).toEqual({ type: 'doc', content: [{ type: 'paragraph', attrs: { id: null }, content: [{ type: 'text', text: 'x' }] }] });
    expect(r.issues).toEqual({ 'foreign-content': 13 });
  });

  for (const depth of [1_500, 20_000]) {
    it(`keeps ${MAX_NESTING_DEPTH} of ${depth} nested blockquotes`, () => {
      const { ydoc, fragment } = newFragment();
      ydoc.transact(() => {
        let parent: Y.XmlFragment = fragment;
        for (let i = 0; i < depth; i++) parent = element(parent, 'blockquote');
        text(element(parent, 'paragraph'), [{ insert: 'deep' }]);
      });
      const r = readUnchanged(ydoc, fragment);
      expect(r.issues).toEqual({ 'too-deep': 1 });
      let levels = 0;
      for (let n: PMNode | null = r.doc.firstChild; n; n = n.firstChild) levels++;
      expect(levels).toBe(MAX_NESTING_DEPTH);
      expect(r.doc.textContent).toBe('');
    });
  }

  it('keeps a paragraph at the deepest allowed level and the inline nodes in it', () => {
    const r = read((f) => {
      let parent: Y.XmlFragment = f;
      for (let i = 1; i < MAX_NESTING_DEPTH; i++) parent = element(parent, 'blockquote');
      const p = element(parent, 'paragraph');
      text(p, [{ insert: 'deepest' }]);
      element(p, 'image', { src: '/i.png' });
    });
    expect(r.dropped).toBe(0);
    expect(r.doc.textContent).toBe('deepest');
  });

  it('leaves out embeds in text', () => {
    const r = read((f) => {
      const t = text(element(f, 'paragraph'), [{ insert: 'a' }, { insert: { image: '/x.png' } }, { insert: 'b', attributes: { em: {} } }]);
      t.insertEmbed(1, new Y.XmlElement('paragraph'));
    });
    expect(json(r.doc.firstChild!).content).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'b', marks: [{ type: 'em' }] }]);
    expect(r.issues).toEqual({ embed: 2 });
  });

  it('leaves out children the content expression does not take', () => {
    const r = read((f) => {
      const p = element(f, 'paragraph', { id: 'outer' });
      text(p, [{ insert: 'x' }]);
      text(element(p, 'paragraph'), [{ insert: 'inner' }]);
      element(element(p, 'image'), 'paragraph'); // children of a leaf are not even read
      text(element(f, 'list_item'), [{ insert: 'top-level item' }]);
      element(f, 'image');
      element(f, 'table_row');
      const quote = element(f, 'blockquote', { id: 'q' });
      text(quote, [{ insert: 'text in a quote' }]);
      element(quote, 'list_item');
      const list = element(f, 'bullet_list', { id: 'l' });
      element(list, 'paragraph');
      element(list, 'list_item', { id: 'li' });
      text(element(f, 'code_block'), [{ insert: 'code' }, { insert: 'x' }]);
    });
    expect(json(r.doc)).toEqual({
      type: 'doc',
      content: [
        { type: 'paragraph', attrs: { id: 'outer' }, content: [{ type: 'text', text: 'x' }, { type: 'image', attrs: { src: '', alt: '', title: null, marks: null } }] },
        { type: 'blockquote', attrs: { id: 'q' } },
        { type: 'bullet_list', attrs: { id: 'l', tight: true }, content: [{ type: 'list_item', attrs: { id: 'li', checked: null } }] },
        { type: 'code_block', attrs: { id: null, language: null, meta: null }, content: [{ type: 'text', text: 'codex' }] },
      ],
    });
    expect(r.issues).toEqual({ misplaced: 7, 'stray-text': 1 });
  });

  it('completes a list without items and a table without rows', () => {
    const r = read((f) => {
      element(f, 'bullet_list', { id: 'b' });
      element(f, 'ordered_list', { id: 'o', order: 3 });
      element(f, 'table', { id: 't' });
      element(element(f, 'table', { id: 't2' }), 'table_row');
    });
    const [bullet, ordered, table, table2] = r.doc.content.content.map(json);
    expect(bullet).toEqual({ type: 'bullet_list', attrs: { id: 'b', tight: true }, content: [{ type: 'list_item', attrs: { id: null, checked: null } }] });
    expect(ordered).toMatchObject({ attrs: { id: 'o', order: 3 }, content: [{ type: 'list_item' }] });
    expect(table).toMatchObject({ attrs: { id: 't' }, content: [{ type: 'table_row', content: [{ type: 'table_header' }] }] });
    expect(table2).toMatchObject({ attrs: { id: 't2' }, content: [{ type: 'table_row', content: [{ type: 'table_header' }] }] });
    expect(r.issues).toEqual({ filled: 4 });
  });

  it('replaces attribute values of the wrong type and clamps numbers, ignoring unknown attributes', () => {
    const r = read((f) => {
      element(f, 'heading', { id: 7, level: 1e9 });
      element(f, 'heading', { id: 'h', level: 'x' });
      element(f, 'heading', { level: 2.7 });
      element(element(f, 'ordered_list', { order: -5, tight: 'no' }), 'list_item', { checked: 'yes' });
      element(element(f, 'ordered_list', { order: 1e12 }), 'list_item', { checked: false });
      element(f, 'code_block', { language: 'l'.repeat(500), meta: ['m'] });
      element(f, 'html_block', { html: { evil: true } });
      const p = element(f, 'paragraph', { onclick: 'x', id: null });
      element(p, 'image', { src: 1, alt: null, title: 5, marks: [{ type: 'script' }] });
      text(p, [{ insert: 'link', attributes: { link: { href: 42, title: 'ok', extra: 1 } } }]);
      text(p, [{ insert: 'true', attributes: { link: true, em: 'yes' } }]);
      const row = element(element(f, 'table'), 'table_row');
      element(row, 'table_header', { align: 'middle' });
      element(row, 'table_cell', { align: 'right' });
    });
    const blocks = r.doc.content.content.map(json);
    expect(blocks.map((b) => b.attrs)).toEqual([
      { id: null, level: 6 },
      { id: 'h', level: 1 },
      { id: null, level: 2 },
      { id: null, order: 0, tight: true },
      { id: null, order: 999_999_999, tight: true },
      { id: null, language: 'l'.repeat(500), meta: null },
      { id: null, html: '' },
      { id: null },
      { id: null },
    ]);
    expect(r.doc.child(3).firstChild!.attrs.checked).toBeNull();
    expect(r.doc.child(4).firstChild!.attrs.checked).toBe(false);
    expect(json(r.doc.child(7)).content).toEqual([
      { type: 'image', attrs: { src: '', alt: '', title: null, marks: null } },
      { type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: '', title: 'ok' } }] },
      { type: 'text', text: 'true', marks: [{ type: 'link', attrs: { href: '', title: null } }, { type: 'em' }] },
    ]);
    expect(r.doc.child(8).firstChild!.content.content.map((c) => c.attrs.align)).toEqual([null, 'right']);
    // id 7, level 1e9, 'x', 2.7, order -5, tight, checked, order 1e12, meta, html, src, alt,
    // title, marks of an unknown type, href, align (a long language string is kept as it is)
    expect(r.issues).toEqual({ 'bad-attribute': 16 });
    expect(r.dropped).toBe(0);
  });

  it('leaves out unknown marks, marks the node does not allow and a second mark of a type', () => {
    const r = read((f) => {
      text(element(f, 'paragraph'), [
        { insert: 'a', attributes: { bold: true, ychange: { type: 'added' }, 'nope--abcdefgh': {}, em: {} } },
        { insert: 'b', attributes: { link: { href: '/1' }, 'link--abcdefgh': { href: '/2' } } },
      ]);
      text(element(f, 'code_block'), [{ insert: 'code', attributes: { strong: {}, code: {} } }]);
    });
    expect(json(r.doc.child(0)).content).toEqual([
      { type: 'text', text: 'a', marks: [{ type: 'em' }] },
      { type: 'text', text: 'b', marks: [{ type: 'link', attrs: { href: '/1', title: null } }] },
    ]);
    expect(json(r.doc.child(1)).content).toEqual([{ type: 'text', text: 'code' }]);
    // `ychange` never reaches the reader: Y.Text's toDelta strips it.
    expect(r.issues).toEqual({ 'unknown-mark': 2, 'disallowed-mark': 3 });
  });
});

// ---------------------------------------------------------------------------------------------
// Random Yjs structures

type Value = unknown;
type TextRun = { insert: string | Record<string, Value> | 'EMBED_TYPE'; attributes?: Record<string, Value> };
type Tree =
  | { kind: 'element'; name: string; attrs: [string, Value][]; children: Tree[] }
  | { kind: 'text'; runs: TextRun[] }
  | { kind: 'foreign'; which: number };

const NODE_NAMES = [...Object.keys(schema.nodes), 'div', 'UNDEFINED', '__proto__', 'li', ''];
const ATTR_NAMES = [...Object.keys(ATTRIBUTE_SANITIZERS), 'ychange', 'onclick', 'constructor', '__proto__'];
const MARK_KEYS = [...Object.keys(schema.marks), 'link--abcdefgh', 'em--12345678', 'ychange', 'bold', '__proto__'];

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e9, -5, 0, 6, 7, 999_999_999, 1e12, Infinity, -Infinity),
  fc.string({ maxLength: 120 }),
  fc.constantFrom('left', 'right', 'center', 'x', ''),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('href', 'title', 'x'), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 3, noNullPrototype: true }),
  fc.constant(new Uint8Array([1, 2])),
);

const run: fc.Arbitrary<TextRun> = fc.record(
  {
    insert: fc.oneof(
      { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
      { weight: 1, arbitrary: fc.constant({ embed: 1 }) },
      { weight: 1, arbitrary: fc.constant('EMBED_TYPE' as const) },
    ),
    attributes: fc.dictionary(fc.constantFrom(...MARK_KEYS), fc.oneof(fc.constant({}), value), { maxKeys: 3, noNullPrototype: true }),
  },
  { requiredKeys: ['insert'] },
);

const BLOCKS = ['paragraph', 'heading', 'blockquote', 'bullet_list', 'ordered_list', 'code_block', 'horizontal_rule', 'html_block', 'table'];
const INLINE = ['image', 'hard_break', 'html_inline'];
/**
 * What the schema usually puts under each node (TEXT for an XmlText). Children are mostly drawn
 * from here so that trees get deep and partly survive; the rest is anything at all.
 */
const TEXT = '#text';
const USUAL: Record<string, string[]> = {
  blockquote: BLOCKS,
  list_item: BLOCKS,
  paragraph: [TEXT, TEXT, ...INLINE],
  heading: [TEXT, ...INLINE],
  table_header: [TEXT, ...INLINE],
  table_cell: [TEXT, ...INLINE],
  code_block: [TEXT],
  bullet_list: ['list_item'],
  ordered_list: ['list_item'],
  table: ['table_row'],
  table_row: ['table_header', 'table_cell'],
};
const DEPTH = { depthIdentifier: 'tree', maxDepth: 12, depthSize: 'large' } as const;

const textLeaf: fc.Arbitrary<Tree> = fc.record({ kind: fc.constant('text' as const), runs: fc.array(run, { maxLength: 4 }) });
const foreignLeaf: fc.Arbitrary<Tree> = fc.record({ kind: fc.constant('foreign' as const), which: fc.nat(4) });
const attrs = fc.array(fc.tuple(fc.constantFrom(...ATTR_NAMES), value), { maxLength: 2 });
const emptyElement = (names: string[]): fc.Arbitrary<Tree> =>
  fc.record({ kind: fc.constant('element' as const), name: fc.constantFrom(...names), attrs, children: fc.constant([]) });

const trees = fc.letrec<Record<string, Tree>>((tie) => {
  // The first choice of each oneof is a leaf: past maxDepth, fast-check picks only it.
  const usual = (names: string[]) =>
    fc.oneof(
      DEPTH,
      names.includes(TEXT) || names.length === 0 ? textLeaf : emptyElement(names),
      ...names.filter((n) => n !== TEXT).map((n) => ({ weight: 3, arbitrary: tie(n) })),
      { weight: 1, arbitrary: tie('any') },
    );
  const element = (name: fc.Arbitrary<string>, children: fc.Arbitrary<Tree>): fc.Arbitrary<Tree> =>
    fc.record({ kind: fc.constant('element' as const), name, attrs, children: fc.array(children, { maxLength: 3, depthIdentifier: 'tree' }) });
  const arbitraries: Record<string, fc.Arbitrary<Tree>> = {
    any: fc.oneof(DEPTH, textLeaf, foreignLeaf, { weight: 3, arbitrary: tie('junk') }, ...[...BLOCKS, ...INLINE, 'list_item'].map((n) => tie(n))),
    junk: element(fc.constantFrom(...NODE_NAMES), tie('any')),
  };
  for (const name of Object.keys(schema.nodes)) {
    if (name !== 'doc' && name !== 'text') arbitraries[name] = element(fc.constant(name), usual(USUAL[name] ?? []));
  }
  arbitraries.top = usual(BLOCKS);
  return arbitraries;
});

function build(parent: Y.XmlFragment, node: Tree): void {
  if (node.kind === 'element') {
    const el = element(parent, node.name, Object.fromEntries(node.attrs));
    for (const child of node.children) build(el, child);
  } else if (node.kind === 'text') {
    const t = new Y.XmlText();
    parent.insert(parent.length, [t]);
    for (const r of node.runs) {
      const attrs = r.attributes ?? {};
      if (r.insert === 'EMBED_TYPE') t.insertEmbed(t.length, new Y.XmlElement('paragraph'), attrs);
      else if (typeof r.insert === 'string') t.insert(t.length, r.insert, attrs);
      else t.insertEmbed(t.length, r.insert, attrs);
    }
  } else {
    const foreign = [() => new Y.XmlHook('h'), () => new Y.Map(), () => 42, () => 'str', () => new Y.XmlFragment()][node.which]!();
    parent.insert(parent.length, [foreign] as never);
  }
}

describe('fragmentToDoc on random Yjs structures', () => {
  it('never throws, never writes, and returns a valid document that reads back unchanged', () => {
    fc.assert(
      fc.property(fc.array(trees.top!, { maxLength: 5 }), (top) => {
        const { ydoc, fragment } = newFragment();
        ydoc.transact(() => {
          for (const node of top) build(fragment, node);
        });
        const r = readUnchanged(ydoc, fragment);
        // What comes out is ordinary content: stored again, both readers agree and nothing is repaired.
        const again = written(r.doc);
        expectSameAsYProsemirror(again.fragment, again.ydoc, 'reread');
        expect(json(fragmentToDoc(again.fragment).doc)).toEqual(json(r.doc));
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});
