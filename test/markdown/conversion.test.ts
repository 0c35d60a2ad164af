/** Unit tests of markdown <-> ProseMirror conversion (GFM, raw HTML, ids, separators, linearity). */
import { describe, expect, it } from 'vitest';
import type { Node } from 'prosemirror-model';
import { schema, BLOCK_NODE_TYPES } from '../../shared/schema.ts';
import { markdownToDoc, docToMarkdown, blocksToMarkdown } from '../../shared/markdown/index.ts';
import { renderGfm, roundTripOutcome } from './fidelity.ts';
import { serviceRoundTrip } from './corpus.ts';

/** Document JSON without block ids, for comparing two imports. */
function shape(doc: Node): unknown {
  return JSON.parse(JSON.stringify(doc.toJSON(), (key, value: unknown) => (key === 'id' ? undefined : value)));
}
/** Export, and check that the export reads back as the same tree and exports unchanged. */
function roundTrip(markdown: string): string {
  const doc = markdownToDoc(markdown);
  const out = docToMarkdown(doc);
  expect(shape(markdownToDoc(out))).toEqual(shape(doc));
  expect(docToMarkdown(markdownToDoc(out))).toBe(out);
  return out;
}
function children(node: Node): Node[] {
  const out: Node[] = [];
  node.forEach((child) => out.push(child));
  return out;
}
/** The reference rendering (micromark + GFM). */
const html = renderGfm;

describe('GFM tables', () => {
  const source = [
    '| Left | Center | Right | None |',
    '| :--- | :----: | ----: | ---- |',
    '| *em* | **strong** | `a\\|b` | a \\| pipe |',
    '| [link](/u "t") | ~~del~~ | ![img](/i.png) | |',
    '',
  ].join('\n');

  it('imports alignment, header row and inline marks', () => {
    const doc = markdownToDoc(source);
    const table = doc.firstChild!;
    expect(table.type.name).toBe('table');
    const [head, row1, row2] = children(table);
    expect(children(head!).map((c) => c.type.name)).toEqual(Array(4).fill('table_header'));
    expect(children(row1!).map((c) => c.type.name)).toEqual(Array(4).fill('table_cell'));
    expect(children(head!).map((c) => c.attrs.align)).toEqual(['left', 'center', 'right', null]);
    expect(children(row1!).map((c) => c.attrs.align)).toEqual(['left', 'center', 'right', null]);
    const cells = children(row1!);
    expect(cells[0]!.firstChild!.marks.map((m) => m.type.name)).toEqual(['em']);
    expect(cells[2]!.firstChild!.text).toBe('a|b');
    expect(cells[2]!.firstChild!.marks.map((m) => m.type.name)).toEqual(['code']);
    expect(cells[3]!.textContent).toBe('a | pipe');
    expect(children(row2!)[1]!.firstChild!.marks.map((m) => m.type.name)).toEqual(['strikethrough']);
    expect(children(row2!)[2]!.firstChild!.type.name).toBe('image');
  });

  it('round-trips, with pipes escaped', () => {
    const out = roundTrip(source);
    expect(html(out)).toBe(html(source));
    expect(out).toContain('`a\\|b`');
    expect(out).toContain('a \\| pipe');
    expect(out).toContain(':---:');
  });

  it('keeps pipes in plain text from splitting a cell', () => {
    const table = schema.nodes.table!.create({ id: 't' }, [
      schema.nodes.table_row!.create(null, [schema.nodes.table_header!.create(null, schema.text('h'))]),
      schema.nodes.table_row!.create(null, [schema.nodes.table_cell!.create(null, schema.text('x | y'))]),
    ]);
    const out = docToMarkdown(schema.nodes.doc!.create(null, [table]));
    const back = markdownToDoc(out).firstChild!;
    expect(back.lastChild!.childCount).toBe(1);
    expect(back.lastChild!.firstChild!.textContent).toBe('x | y');
  });
});

describe('GFM task lists', () => {
  it('imports checked state and round-trips', () => {
    const source = '- [ ] open\n- [x] done\n- plain\n\n1. [X] numbered\n';
    const doc = markdownToDoc(source);
    const items = children(doc.firstChild!);
    expect(items.map((i) => i.attrs.checked)).toEqual([false, true, null]);
    expect(children(doc.lastChild!)[0]!.attrs.checked).toBe(true);
    const out = roundTrip(source);
    expect(out).toBe('- [ ] open\n- [x] done\n- plain\n\n1. [x] numbered\n');
    expect(html(out)).toBe(html(source.replace('[X]', '[x]')));
  });
});

describe('GFM strikethrough', () => {
  it('imports as a mark and round-trips', () => {
    const source = 'a ~~struck **and strong**~~ b ~single~\n';
    const doc = markdownToDoc(source);
    const para = doc.firstChild!;
    expect(children(para)[1]!.marks.map((m) => m.type.name)).toEqual(['strikethrough']);
    expect(children(para)[2]!.marks.map((m) => m.type.name).sort()).toEqual(['strikethrough', 'strong']);
    const out = roundTrip(source);
    expect(out).toContain('~~struck **and strong**~~');
    expect(html(out)).toBe(html(source));
  });

  it('escapes tildes in plain text', () => {
    const doc = schema.nodes.doc!.create(null, [schema.nodes.paragraph!.create(null, schema.text('~~not struck~~'))]);
    const back = markdownToDoc(docToMarkdown(doc));
    expect(back.firstChild!.firstChild!.marks).toEqual([]);
    expect(back.firstChild!.textContent).toBe('~~not struck~~');
  });
});

describe('GFM autolink literals', () => {
  it('turns bare URLs, www. and e-mail addresses into links and keeps them', () => {
    const source = 'see https://example.com/a?b=1, www.example.org and me@example.net.\n';
    const doc = markdownToDoc(source);
    const links = children(doc.firstChild!)
      .filter((n) => n.marks.some((m) => m.type.name === 'link'))
      .map((n) => [n.text, n.marks[0]!.attrs.href]);
    expect(links).toEqual([
      ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
      ['www.example.org', 'http://www.example.org'],
      ['me@example.net', 'mailto:me@example.net'],
    ]);
    roundTrip(source);
  });
});

describe('raw HTML', () => {
  it('keeps HTML blocks and inline HTML verbatim and opaque', () => {
    const source = '<div class="x">\n*not emphasis*\n</div>\n\nText <span onclick="f()">in *span*</span> end.\n';
    const doc = markdownToDoc(source);
    expect(doc.firstChild!.type.name).toBe('html_block');
    expect(doc.firstChild!.attrs.html).toBe('<div class="x">\n*not emphasis*\n</div>');
    const inline = children(doc.lastChild!).filter((n) => n.type.name === 'html_inline');
    expect(inline.map((n) => n.attrs.html)).toEqual(['<span onclick="f()">', '</span>']);
    const out = roundTrip(source);
    expect(out).toContain('<div class="x">\n*not emphasis*\n</div>');
    expect(html(out)).toBe(html(source));
  });

  it('escapes text that looks like HTML so it never becomes live HTML', () => {
    const texts = ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '<!-- c -->', '&amp; &#60;b&#62;'];
    for (const text of texts) {
      const doc = schema.nodes.doc!.create(null, [
        schema.nodes.paragraph!.create({ id: 'p' }, schema.text(text)),
        schema.nodes.heading!.create({ id: 'h', level: 2 }, schema.text(text)),
      ]);
      const out = docToMarkdown(doc);
      const rendered = html(out);
      expect(rendered).not.toMatch(/<(img|script|!--)/);
      const back = markdownToDoc(out);
      expect(back.firstChild!.textContent).toBe(text);
      expect(back.firstChild!.childCount).toBe(1);
      expect(back.firstChild!.firstChild!.type.name).toBe('text');
    }
  });
});

describe('block ids', () => {
  const source = [
    '# Title',
    'para',
    '> quote\n>\n> - in list',
    '1. one\n2. two\n   - [ ] nested',
    '```js meta here\ncode\n```',
    '---',
    '<div>x</div>',
    '| a | b |\n| - | - |\n| 1 | 2 |',
  ].join('\n\n');

  it('gives every block node a unique id, and table rows and cells none', () => {
    const ids: string[] = [];
    const doc = markdownToDoc(source);
    doc.descendants((node) => {
      if (BLOCK_NODE_TYPES.has(node.type.name)) {
        expect(typeof node.attrs.id, node.type.name).toBe('string');
        ids.push(node.attrs.id as string);
      } else {
        expect(node.attrs.id).toBeUndefined();
      }
    });
    expect(ids.length).toBe(19);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses opts.newId', () => {
    let n = 0;
    const doc = markdownToDoc(source, { newId: () => `b${++n}` });
    const ids: string[] = [];
    doc.descendants((node) => {
      if (BLOCK_NODE_TYPES.has(node.type.name)) ids.push(node.attrs.id as string);
    });
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => `b${i + 1}`));
  });

  it('checks against the schema', () => {
    expect(() => markdownToDoc(source).check()).not.toThrow();
  });
});

describe('empty input', () => {
  it.each(['', '   \n\n  ', '[ref]: /only-a-definition'])('%j yields one empty paragraph', (input) => {
    const doc = markdownToDoc(input, { newId: () => 'x' });
    expect(doc.toJSON()).toEqual({ type: 'doc', content: [{ type: 'paragraph', attrs: { id: 'x' } }] });
    expect(docToMarkdown(doc)).toBe('');
  });
});

describe('block details', () => {
  it('keeps code block language and meta', () => {
    const doc = markdownToDoc('```ts title="a b" {1}\nconst a = 1;\n```\n');
    expect(doc.firstChild!.attrs).toMatchObject({ language: 'ts', meta: 'title="a b" {1}' });
    expect(doc.firstChild!.textContent).toBe('const a = 1;');
    expect(roundTrip('```ts title="a b" {1}\nconst a = 1;\n```\n')).toBe('```ts title="a b" {1}\nconst a = 1;\n```\n');
  });

  it('keeps list start, tightness, hard breaks and images', () => {
    const doc = markdownToDoc('3. a\n\n4. b\n\n- x\n- y\n\nline  \nbreak ![alt *t*](/i.png "T")\n');
    const [ol, ul, p] = children(doc);
    expect(ol!.attrs).toMatchObject({ order: 3, tight: false });
    expect(ul!.attrs).toMatchObject({ tight: true });
    expect(children(p!).map((n) => n.type.name)).toEqual(['text', 'hard_break', 'text', 'image']);
    expect(p!.lastChild!.attrs).toEqual({ src: '/i.png', alt: 'alt t', title: 'T', marks: null });
    roundTrip('3. a\n\n4. b\n\n- x\n- y\n\nline  \nbreak ![alt *t*](/i.png "T")\n');
  });

  it('resolves reference links into plain links', () => {
    const doc = markdownToDoc('[a][r] and [R]\n\n[r]: /url "title"\n');
    const marks = children(doc.firstChild!).map((n) => n.marks.map((m) => m.attrs.href));
    expect(marks).toEqual([['/url'], [], ['/url']]);
    expect(docToMarkdown(doc)).toBe('[a](/url "title") and [R](/url "title")\n');
  });

  it('resolves references to definitions far away in a long document', () => {
    const filler = Array.from({ length: 1200 }, (_, i) => `Paragraph ${i} [see][far].`).join('\n\n');
    const doc = markdownToDoc(`${filler}\n\n[far]: /far\n`);
    expect(doc.childCount).toBe(1200);
    doc.forEach((p) => expect(p.child(1).marks[0]?.attrs.href).toBe('/far'));
  });

  it('keeps a link on inline code and emphasis around code', () => {
    const source = '[`code`](/u) and *a `b`*\n';
    const doc = markdownToDoc(source);
    expect(doc.firstChild!.firstChild!.marks.map((m) => m.type.name)).toEqual(['link', 'code']);
    expect(roundTrip(source)).toBe(source);
  });

  it('keeps nested emphasis of the same kind as markdown, and empty links', () => {
    const out = roundTrip('*foo *bar** and [](/empty)\n');
    expect(out).toBe('*foo _bar_* and [](/empty)\n');
    expect(html(out)).toBe(html('*foo *bar** and [](/empty)\n'));
  });
});

describe('separators between top-level blocks', () => {
  it('keeps adjacent lists apart', () => {
    const source = '- a\n\n* b\n\n+ c\n\n- d\n\n1. one\n\n1) two\n\n3. three\n';
    const doc = markdownToDoc(source);
    expect(children(doc).map((n) => n.type.name)).toEqual([
      'bullet_list', 'bullet_list', 'bullet_list', 'bullet_list', 'ordered_list', 'ordered_list', 'ordered_list',
    ]);
    const out = roundTrip(source);
    expect(html(out)).toBe(html(source));
  });

  it('keeps lists apart across an empty paragraph (which has no markdown)', () => {
    const list = (text: string) =>
      schema.nodes.bullet_list!.create(null, [
        schema.nodes.list_item!.create(null, [schema.nodes.paragraph!.create(null, schema.text(text))]),
      ]);
    const doc = schema.nodes.doc!.create(null, [list('a'), schema.nodes.paragraph!.create(), list('b')]);
    const out = docToMarkdown(doc);
    expect(markdownToDoc(out).childCount).toBe(2);
  });

  it('keeps a list marker after a thematic break in a list item distinct', () => {
    const source = '- a\n\n* ***\n';
    const out = roundTrip(source);
    expect(markdownToDoc(out).childCount).toBe(2);
  });
});

describe('linearity of export', () => {
  const unit = [
    '# Heading *one*',
    'Text with **strong**, a [link](https://x.test) and `code`.',
    '- a\n- b',
    '- c\n- d',
    '1. e\n2. f',
    '> quote',
    '```\ncode\n```',
    '| h |\n| - |\n| c |',
    'Closing paragraph.',
  ].join('\n\n');

  it('serializes N and 4N blocks as independent pieces joined by blank lines', () => {
    const one = markdownToDoc(unit);
    const four = markdownToDoc([unit, unit, unit, unit].join('\n\n'));
    expect(four.childCount).toBe(4 * one.childCount);
    const oneOut = docToMarkdown(one);
    expect(docToMarkdown(four)).toBe(Array(4).fill(oneOut.slice(0, -1)).join('\n\n') + '\n');
  });

  it('gives the same output for the whole document, its blocks, and chunks of them', () => {
    const doc = markdownToDoc(Array(25).fill(unit).join('\n\n'));
    const blocks = children(doc);
    const whole = docToMarkdown(doc);
    expect(blocksToMarkdown(blocks)).toBe(whole);
    // Chunks joined by the caller: a chunk boundary must not fall between two lists.
    const chunks: string[] = [];
    for (let i = 0; i < blocks.length; i += 9) chunks.push(blocksToMarkdown(blocks.slice(i, i + 9)).slice(0, -1));
    expect(chunks.join('\n\n') + '\n').toBe(whole);
  });
});

describe('what real documents lost before, through Yjs and back', () => {
  const cases: [string, string][] = [
    ['a badge row: images inside links', '[![build](https://ci.test/badge.svg)](https://ci.test/run) [![npm](https://img.test/v.svg "v")](https://npm.test/p)\n'],
    ['an image with a link mark and emphasis', '*[![a](/i.png)](/u) and text*\n'],
    ['links with empty text, used as anchors', '[](#anchor) text [](<> "t")\n'],
    ['raw HTML around an image', '<a href="https://x.test"><img src="/i.png" alt="i"></a>\n\nText <a href="/u"><img src="/j.png"></a> more.\n'],
    ['nested emphasis of one kind', '*a *b* c* and **x **y** z** and ~~p ~~q~~ r~~\n'],
    ['hard breaks inside emphasis', '*one  \ntwo\\\nthree* **[a  \nb](/u)**\n'],
    ['GFM autolink literals', 'see https://example.com/a_(b)?c=1. or www.example.org/x, mail me@example.net!\n'],
    ['footnotes', 'A claim[^1].\n\n[^1]: The source.\n'],
  ];
  it.each(cases)('%s', (_name, source) => {
    const outcome = roundTripOutcome(source, serviceRoundTrip);
    // The same HTML, up to the nesting order of marks on the same text.
    expect(outcome.ok, `${outcome.exported}\n${outcome.expected}\n${outcome.actual}`).toBe(true);
    expect(outcome.exported).not.toMatch(/<\/?(em|strong|del)>/);
    // Exporting the export changes nothing.
    expect(serviceRoundTrip(outcome.exported)).toBe(outcome.exported);
  });

  it('keeps the link of a linked image in the image node, where Yjs carries it', () => {
    const doc = markdownToDoc('[![b](/b.svg)](/ci)\n');
    const image = doc.firstChild!.firstChild!;
    expect(image.type.name).toBe('image');
    expect(image.attrs.marks).toEqual([{ type: 'link', attrs: { href: '/ci', title: null } }]);
    expect(serviceRoundTrip('[![b](/b.svg)](/ci)\n')).toBe('[![b](/b.svg)](/ci)\n');
  });

  it('reads documents stored before the marks attribute', () => {
    const old = schema.nodeFromJSON({
      type: 'doc',
      content: [{ type: 'paragraph', attrs: { id: 'p' }, content: [
        { type: 'text', text: 'a', marks: [{ type: 'em' }] },
        { type: 'image', attrs: { src: '/i.png', alt: 'i', title: null } },
        { type: 'html_inline', attrs: { html: '<em>' } },
        { type: 'text', text: 'b', marks: [{ type: 'em' }] },
        { type: 'html_inline', attrs: { html: '</em>' } },
      ] }],
    });
    old.check();
    expect(docToMarkdown(old)).toBe('*a*![i](/i.png)<em>*b*</em>\n');
  });
});
