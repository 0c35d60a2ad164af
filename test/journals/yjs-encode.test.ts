/**
 * The direct Yjs writer of a new journal's first state (server/journals/yjs-encode.ts) against
 * y-prosemirror's own conversion: both updates, applied to fresh documents, must hold the same
 * Yjs structure (element names, attributes, text runs with their formatting) for every document.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { prosemirrorToYXmlFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import type { Node as PMNode } from 'prosemirror-model';
import { markdownToDoc } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { docToUpdate } from '../../server/journals/yjs-encode.ts';
import { fragmentToDoc } from '../../server/journals/read-model.ts';
import { generateMarkdown } from '../../bench/markdown.ts';

const require = createRequire(import.meta.url);
const spec = (require('commonmark-spec') as { tests: { markdown: string }[] }).tests.map((t) => t.markdown);

/** The Yjs structure as plain data: what an editor or the read model sees. */
function structure(type: Y.XmlFragment | Y.XmlElement): unknown[] {
  return type.toArray().map((child) => {
    if (child instanceof Y.XmlText) return { text: child.toDelta() };
    if (child instanceof Y.XmlElement) return { name: child.nodeName, attrs: child.getAttributes(), children: structure(child) };
    return { other: String(child) };
  });
}

function viaYProsemirror(doc: PMNode): Y.Doc {
  const ydoc = new Y.Doc();
  prosemirrorToYXmlFragment(doc, ydoc.getXmlFragment(FRAGMENT_NAME));
  return ydoc;
}

function viaUpdate(doc: PMNode): Y.Doc {
  const ydoc = new Y.Doc();
  Y.applyUpdate(ydoc, docToUpdate(doc, FRAGMENT_NAME));
  return ydoc;
}

const samples = [
  ...spec,
  '[![build](/b.svg)](/ci) *a *b* c* **x** ~~y~~ [](#e) text  \nbreak <span>h</span>\n',
  '- [ ] task\n- [x] done\n\n1. one\n2. two\n\n> quote\n\n| a | b |\n| :- | -: |\n| 1 | *2* |\n',
  '😀 surrogate *pairs* 😀 and é\n',
  generateMarkdown(64 * 1024),
];

describe('direct Yjs update of a new journal', () => {
  it('holds what y-prosemirror writes, for every spec example and a large document', () => {
    for (const md of samples) {
      const doc = markdownToDoc(md);
      const expected = viaYProsemirror(doc);
      const actual = viaUpdate(doc);
      expect(structure(actual.getXmlFragment(FRAGMENT_NAME)), md.slice(0, 80)).toEqual(structure(expected.getXmlFragment(FRAGMENT_NAME)));
      expect(fragmentToDoc(actual.getXmlFragment(FRAGMENT_NAME)).doc.toJSON()).toEqual(doc.toJSON());
      // Complete: nothing is left pending for missing dependencies.
      expect(actual.store.pendingStructs).toBeNull();
    }
  });

  it('can be edited afterwards like any document', () => {
    const ydoc = viaUpdate(markdownToDoc('# title\n\ntext *em*\n'));
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(ydoc));
    const p = other.getXmlFragment(FRAGMENT_NAME).get(1) as Y.XmlElement;
    (p.get(0) as Y.XmlText).insert(0, 'more ');
    Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(other));
    expect(((ydoc.getXmlFragment(FRAGMENT_NAME).get(1) as Y.XmlElement).get(0) as Y.XmlText).toString()).toContain('more text');
  });
});
