/**
 * server/realtime/update-guard.ts on its own: updates built with the Yjs API (and y-prosemirror's
 * own diff, as the editor binding writes them) against a live document.
 */
import { createRequire } from 'node:module';
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import { prosemirrorToYXmlFragment, updateYFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import { MAX_NESTING_DEPTH } from '../../shared/limits.ts';
import { markdownToDoc } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { checkUpdate } from '../../server/realtime/update-guard.ts';
import { mayCompletePending, pendingStructs } from '../../server/journals/pending.ts';
import { sideDoc } from './hostile-helpers.ts';

const require = createRequire(import.meta.url);
const examples = (require('commonmark-spec') as { tests: { markdown: string }[] }).tests;

/** A journal-like live document: a heading, a paragraph with text, a two-level list. */
function liveDoc(markdown = '# Title\n\nSome *text* here\n\n- one\n  - two\n'): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => prosemirrorToYXmlFragment(markdownToDoc(markdown), doc.getXmlFragment(FRAGMENT_NAME)));
  return doc;
}

/** A peer synced with `live`; `edit` runs on it in one transaction; returns that update. */
function updateFrom(live: Y.Doc, edit: (frag: Y.XmlFragment, peer: Y.Doc) => void): Uint8Array {
  const peer = sideDoc(live);
  peer.doc.transact(() => edit(peer.fragment, peer.doc));
  return Y.mergeUpdates(peer.updates);
}

const structs = (u: Uint8Array) => Y.decodeUpdate(u).structs;
const check = (live: Y.Doc, u: Uint8Array) => checkUpdate(live, structs(u));

function firstText(frag: Y.XmlFragment, block: number): Y.XmlText {
  return (frag.get(block) as Y.XmlElement).toArray().find((c) => c instanceof Y.XmlText) as Y.XmlText;
}

function paragraph(text?: string): Y.XmlElement {
  const p = new Y.XmlElement('paragraph');
  if (text !== undefined) p.insert(0, [new Y.XmlText(text)]);
  return p;
}

/**
 * Inserts `levels` nested `name` elements at `index` of `parent` (and `leaf` in the innermost),
 * one integrated element at a time: Yjs integrates nested preliminary types recursively.
 */
function insertNested(parent: Y.XmlFragment, index: number, name: string, levels: number, leaf?: Y.XmlElement): void {
  let cur: Y.XmlFragment = parent;
  for (let i = 0; i < levels; i++) {
    const next = new Y.XmlElement(name);
    cur.insert(i === 0 ? index : 0, [next]);
    cur = next;
  }
  if (leaf) cur.insert(0, [leaf]);
}

/** The innermost element under the first block, following first children of `name`. */
function innermost(f: Y.XmlFragment, name = 'blockquote'): Y.XmlElement {
  let cur = f.get(0) as Y.XmlElement;
  while (cur.nodeName === name && cur.get(0) instanceof Y.XmlElement) cur = cur.get(0) as Y.XmlElement;
  return cur;
}

/** Applies `u` to `live` (the guard said yes) so the next case builds on it. */
function accept(live: Y.Doc, u: Uint8Array): void {
  expect(check(live, u)).toBeUndefined();
  Y.applyUpdate(live, u);
}

describe('update guard: what editors write is accepted', () => {
  it('typing, new blocks, marks, attributes, lists a few levels deep, deletions', () => {
    const live = liveDoc();
    accept(live, updateFrom(live, (f) => firstText(f, 1).insert(4, ' more')));
    accept(live, updateFrom(live, (f) => firstText(f, 1).insert(0, 'bold ', { strong: {} })));
    accept(live, updateFrom(live, (f) => firstText(f, 1).format(0, 4, { em: {}, link: { href: '/x', title: null } })));
    accept(live, updateFrom(live, (f) => f.insert(f.length, [paragraph('end')])));
    accept(live, updateFrom(live, (f) => f.insert(0, [paragraph('start')]))); // parent implied by the right neighbour
    accept(live, updateFrom(live, (f) => f.insert(1, [paragraph('a'), paragraph('b'), new Y.XmlElement('horizontal_rule')])));
    accept(live, updateFrom(live, (f) => (f.get(0) as Y.XmlElement).setAttribute('id', 'abc')));
    accept(
      live,
      updateFrom(live, (f) => {
        const list = new Y.XmlElement('bullet_list');
        f.insert(2, [list]);
        let cur = list;
        for (let i = 0; i < 6; i++) {
          const item = new Y.XmlElement('list_item');
          cur.insert(0, [item]);
          item.insert(0, [paragraph(`level ${i}`)]);
          const sub = new Y.XmlElement('bullet_list');
          item.insert(1, [sub]);
          cur = sub;
        }
        cur.insert(0, [new Y.XmlElement('list_item')]);
      }),
    );
    accept(live, updateFrom(live, (f) => f.delete(0, 3)));
    accept(live, updateFrom(live, (f) => firstText(f, 0).delete(0, 2)));
  });

  it('refuses anything written outside the prosemirror fragment, which nothing reads', () => {
    const live = liveDoc();
    const cases: [(peer: Y.Doc) => void, RegExp][] = [
      [(peer) => peer.getText('notes').insert(0, 'free text'), /^content outside the prosemirror fragment \(root "notes"\)$/],
      [(peer) => peer.getMap('hidden').set('blob', 'x'.repeat(1000)), /root "hidden"/],
      [(peer) => peer.getMap('hidden').set('nested', new Y.XmlFragment()), /root "hidden"/],
      [(peer) => peer.getArray('a').insert(0, [1, 2, 3]), /root "a"/],
      // Deleted at once: Yjs would still keep the structs of a root nobody reads.
      [(peer) => {
        peer.getText('gone').insert(0, 'abc');
        peer.getText('gone').delete(0, 3);
      }, /root "gone"/],
    ];
    for (const [edit, reason] of cases) {
      const r = check(live, updateFrom(live, (_f, peer) => edit(peer)));
      expect(r?.reason).toMatch(reason);
      expect(r?.inPending).toBe(false);
    }
    // A value keyed on the fragment itself (XmlFragment has no attributes; nothing reads it).
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, 99);
    encoding.writeVarUint(e, 0);
    encoding.writeUint8(e, 4 | 32); // a string, keyed, parent follows
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, FRAGMENT_NAME);
    encoding.writeVarString(e, 'key');
    encoding.writeVarString(e, 'value');
    encoding.writeVarUint(e, 0);
    expect(check(live, encoding.toUint8Array(e))?.reason).toMatch(/a keyed value "key" on the prosemirror fragment/);
  });

  it("accepts y-prosemirror's diff turning every CommonMark example into the next", () => {
    const live = liveDoc('');
    const peer = sideDoc(live);
    const meta = { mapping: new Map(), isOMark: new Map() };
    for (const { markdown } of examples) {
      peer.doc.transact(() => updateYFragment(peer.doc, peer.fragment, markdownToDoc(markdown), meta));
      for (const u of peer.updates.splice(0)) accept(live, u);
    }
    expect(Y.encodeStateVector(live)).toEqual(Y.encodeStateVector(peer.doc));
  }, 60_000);

  it(`accepts blocks ${MAX_NESTING_DEPTH} deep, and an inline node inside the deepest`, () => {
    const live = liveDoc('');
    accept(live, updateFrom(live, (f) => insertNested(f, 0, 'blockquote', MAX_NESTING_DEPTH - 1, paragraph('deep'))));
    expect(innermost(live.getXmlFragment(FRAGMENT_NAME)).nodeName).toBe('paragraph');
    accept(live, updateFrom(live, (f) => innermost(f).insert(0, [new Y.XmlElement('image')])));
    accept(live, updateFrom(live, (f) => innermost(f).insert(2, [new Y.XmlText('typing at depth')])));
    accept(live, updateFrom(live, (f) => (innermost(f).get(1) as Y.XmlText).insert(0, 'more ')));
  });

  it('leaves items whose dependencies are missing to Yjs', () => {
    const live = liveDoc();
    const { fragment: frag, updates } = sideDoc(live);
    const p = paragraph();
    frag.insert(0, [p]);
    p.insert(0, [new Y.XmlText('x')]);
    // The second update alone: its parent is in the first, which the live document lacks.
    expect(check(live, updates[1]!)).toBeUndefined();
  });
});

describe('update guard: schema-invalid structure is refused', () => {
  const cases: [string, (f: Y.XmlFragment, peer: Y.Doc) => void, RegExp][] = [
    ['an XmlText at the top', (f) => f.insert(1, [new Y.XmlText('stray')]), /an XmlText directly in the prosemirror fragment/],
    ['an XmlText at the top, first', (f) => f.insert(0, [new Y.XmlText('stray')]), /an XmlText directly in the prosemirror fragment/],
    ['an XmlText after a new paragraph (parent implied by it)', (f) => f.insert(f.length, [paragraph('ok'), new Y.XmlText('stray')]), /XmlText directly/],
    ['an unknown node', (f) => f.insert(0, [new Y.XmlElement('script')]), /unknown node type "script"/],
    ['a doc node', (f) => f.insert(0, [new Y.XmlElement('doc')]), /unknown node type "doc"/],
    ['a text node', (f) => f.insert(0, [new Y.XmlElement('text')]), /unknown node type "text"/],
    ['an unknown node inside a list item', (f) => ((f.get(2) as Y.XmlElement).get(0) as Y.XmlElement).insert(0, [new Y.XmlElement('marquee')]), /unknown node type "marquee"/],
    ['an unknown inline node inside a paragraph', (f) => (f.get(1) as Y.XmlElement).insert(0, [new Y.XmlElement('blink')]), /unknown node type "blink"/],
    ['1,500 nested blockquotes', (f) => insertNested(f, 0, 'blockquote', 1500, paragraph('deep')), /nested deeper than 100 levels/],
    ['101 nested blockquotes', (f) => insertNested(f, 0, 'blockquote', MAX_NESTING_DEPTH + 1), /nested deeper than 100 levels/],
    ['inline nodes nested 300 deep', (f) => insertNested(f.get(1) as Y.XmlElement, 0, 'image', 300), /nested deeper than 100 levels/],
    ['a Y.Map in a paragraph', (f) => (f.get(1) as Y.XmlElement).insert(0, [new Y.Map() as never]), /a Y.Map inside <paragraph>/],
    ['an element embedded in text', (f) => firstText(f, 1).insertEmbed(0, new Y.XmlElement('paragraph')), /<paragraph> inside text/],
    ['a shared type as an attribute value', (f) => (f.get(1) as Y.XmlElement).setAttribute('id', new Y.XmlElement('paragraph') as never), /shared type as the value of attribute "id"/],
  ];
  for (const [what, edit, reason] of cases) {
    it(`refuses ${what}`, () => {
      const live = liveDoc();
      const r = check(live, updateFrom(live, edit));
      expect(r?.reason).toMatch(reason);
      expect(r?.inPending).toBe(false);
    });
  }

  it('refuses raw content written at the top through another type of the same root name', () => {
    const live = liveDoc();
    for (const build of [(d: Y.Doc) => d.getText(FRAGMENT_NAME).insert(0, 'raw'), (d: Y.Doc) => d.getArray(FRAGMENT_NAME).insert(0, [{ a: 1 }])]) {
      const other = new Y.Doc();
      const updates: Uint8Array[] = [];
      other.on('update', (u: Uint8Array) => updates.push(u));
      build(other);
      expect(check(live, updates[0]!)?.reason).toMatch(/directly in the prosemirror fragment/);
    }
  });

  it(`refuses a block below ${MAX_NESTING_DEPTH} levels already in the document`, () => {
    const live = liveDoc('');
    accept(live, updateFrom(live, (f) => insertNested(f, 0, 'blockquote', MAX_NESTING_DEPTH)));
    expect(check(live, updateFrom(live, (f) => innermost(f).insert(0, [paragraph('too deep')])))?.reason).toMatch(/deeper than 100/);
  });

  it('checks held structs an update would complete, and says so', () => {
    const live = liveDoc();
    const { fragment: frag, updates } = sideDoc(live);
    frag.insert(frag.length, [paragraph('anchor')]);
    frag.insert(frag.length, [new Y.XmlText('stray')]); // implied parent: the anchor, not yet on the server
    // Held: its left neighbour is missing, so it cannot be checked (nor applied) yet.
    expect(check(live, updates[1]!)).toBeUndefined();
    Y.applyUpdate(live, updates[1]!);
    expect(live.store.pendingStructs).not.toBeNull();
    // The anchor arrives: fine on its own, but it would complete the held XmlText.
    const anchor = structs(updates[0]!);
    expect(checkUpdate(live, anchor)).toBeUndefined();
    expect(mayCompletePending(live, anchor)).toBe(true);
    const r = checkUpdate(live, anchor, pendingStructs(live));
    expect(r).toMatchObject({ inPending: true });
    expect(r!.reason).toMatch(/XmlText directly/);
  });

  it('refuses an update in which a client appears twice as malformed', () => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 2);
    for (const clock of [0, 5]) {
      encoding.writeVarUint(e, 1); // one struct
      encoding.writeVarUint(e, 77); // client
      encoding.writeVarUint(e, clock);
      encoding.writeUint8(e, 0); // GC
      encoding.writeVarUint(e, 1);
    }
    encoding.writeVarUint(e, 0); // no deletions
    expect(check(liveDoc(), encoding.toUint8Array(e))).toMatchObject({ malformed: true });
  });
});
