/**
 * The update scan (server/realtime/update-scan.ts) counts what Yjs would build from an update
 * without building it: it agrees with Y.decodeUpdate on real updates of every content kind, and
 * stops at the limit on hostile ones.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { scanUpdate } from '../../server/realtime/update-scan.ts';

/** What Y.decodeUpdate builds, counted the way the scan counts. */
function decodedCount(update: Uint8Array): { items: number; subdocs: number } {
  const { structs, ds } = Y.decodeUpdate(update);
  let items = structs.length;
  let subdocs = 0;
  const countAny = (v: unknown): number => {
    if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + countAny(x), 0);
    if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return 1 + Object.values(v).reduce((n: number, x) => n + countAny(x), 0);
    return 1;
  };
  for (const s of structs) {
    if (!(s instanceof Y.Item)) continue;
    const c = s.content;
    if (c instanceof Y.ContentJSON) items += c.arr.length;
    if (c instanceof Y.ContentAny) items += c.arr.reduce((n: number, x: unknown) => n + countAny(x), 0);
    if (c instanceof Y.ContentDoc) {
      subdocs++;
      items += countAny(c.opts);
    }
  }
  for (const ranges of ds.clients.values()) items += ranges.length;
  return { items, subdocs };
}

describe('scanUpdate', () => {
  it('counts like Y.decodeUpdate on updates of every content kind', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    const f = doc.getXmlFragment('prosemirror');
    const p = new Y.XmlElement('paragraph');
    p.setAttribute('id', 'b1');
    f.insert(0, [p]);
    const t = new Y.XmlText();
    p.insert(0, [t]);
    t.insert(0, 'hello world', { strong: true });
    t.insertEmbed(5, { image: 'x' });
    t.delete(1, 2);
    doc.getMap('m').set('any', { a: [1, 2.5, 'x', null, true, { b: new Uint8Array([1, 2]) }], big: 2n ** 60n });
    doc.getArray('a').insert(0, [1, 'two', [3, [4]]]);
    doc.getMap('m').set('sub', new Y.Doc());
    doc.getMap('m').set('bin', new Uint8Array([9, 9]));
    doc.getXmlFragment('hook').insert(0, [new Y.XmlHook('h') as never]);
    updates.push(Y.encodeStateAsUpdate(doc));
    for (const u of updates) {
      const scan = scanUpdate(u, 1e9);
      expect(scan.overLimit).toBe(false);
      expect({ items: scan.items, subdocs: scan.subdocs }).toEqual(decodedCount(u));
    }
  });

  it('agrees with Y.decodeUpdate on random documents', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(20), fc.string({ maxLength: 6 })), { maxLength: 40 }), (ops) => {
        const doc = new Y.Doc();
        const text = doc.getText('t');
        for (const [op, pos, s] of ops) {
          if (op === 0) text.insert(Math.min(pos, text.length), s);
          else if (op === 1) text.delete(Math.min(pos, text.length), Math.min(2, text.length - Math.min(pos, text.length)));
          else if (op === 2) doc.getArray('a').insert(0, [pos, s, { k: [pos] }]);
          else doc.getMap('m').set(s, pos);
        }
        const u = Y.encodeStateAsUpdate(doc);
        const scan = scanUpdate(u, 1e9);
        expect({ items: scan.items, subdocs: scan.subdocs }).toEqual(decodedCount(u));
      }),
      { numRuns: 200 },
    );
  });

  it('stops at the limit after reading the header of one large client run', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    doc.transact(() => {
      for (let i = 0; i < 5000; i++) text.insert(i % 2 ? 0 : text.length, 'a');
    });
    const scan = scanUpdate(Y.encodeStateAsUpdate(doc), 1000);
    expect(scan.overLimit).toBe(true);
    expect(scan.items).toBe(5000); // the struct count of the first (only) client
  });

  it('throws on truncated updates', () => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'some text here');
    const u = Y.encodeStateAsUpdate(doc);
    expect(() => scanUpdate(u.subarray(0, u.length - 6), 1e9)).toThrow();
  });
});
