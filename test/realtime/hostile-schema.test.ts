/**
 * Editor updates that would put schema-invalid structure into a journal are refused before they
 * are applied (4422, one warn line), nothing of them is stored, and the journal keeps serving;
 * what stock y-websocket editors write through y-prosemirror's binding is never refused.
 */
import * as fc from 'fast-check';
import { type Mark, type Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { initProseMirrorDoc, updateYFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import { schema } from '../../shared/schema.ts';
import { blocks, type Client, type TestServer } from '../helpers/server.ts';
import { type Editor, editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';
import { captureLogs, rawSocket, sideDoc, syncUpdate } from './hostile-helpers.ts';

const logs = captureLogs('warn');
let server: TestServer;
let alice: Client;
const editor = editorSuite({ logger: logs.logger }, (s, c) => {
  server = s;
  alice = c;
});

/** Nests `levels` `name` elements at the end of `parent`, one integrated element at a time. */
function insertNested(parent: Y.XmlFragment, name: string, levels: number, leaf: Y.XmlElement): void {
  let cur: Y.XmlFragment = parent;
  for (let i = 0; i < levels; i++) {
    const next = new Y.XmlElement(name);
    cur.insert(i === 0 ? cur.length : 0, [next]);
    cur = next;
  }
  cur.insert(0, [leaf]);
}

function paragraph(text: string): Y.XmlElement {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  return p;
}

const refusedLines = () => logs.lines.filter((l) => /refused/.test(String(l.msg)));

describe('schema-invalid editor updates', () => {
  const cases: [string, (f: Y.XmlFragment) => void, string][] = [
    ['an XmlText at the top of the fragment', (f) => f.insert(1, [new Y.XmlText('stray text')]), 'an XmlText directly in the prosemirror fragment'],
    ['an unknown node type', (f) => f.insert(f.length, [new Y.XmlElement('script')]), 'unknown node type "script"'],
    ['1,500 nested blockquotes', (f) => insertNested(f, 'blockquote', 1500, paragraph('deep')), 'blocks nested deeper than 100 levels'],
  ];
  for (const [what, build, reason] of cases) {
    it(`refuses ${what}: 4422, nothing stored, the journal keeps serving`, async () => {
      const id = await alice.importMarkdown('# Kept\n\nThis stays.\n');
      const e = editor(id);
      await synced(e);
      const before = await alice.model(id);
      const live = server.svc.ctx.registry.get(id)!;
      const stateBefore = Y.encodeStateVector(live.doc);
      const warnsBefore = refusedLines().length;

      const side = sideDoc(e.doc);
      side.doc.transact(() => build(side.fragment));
      const raw = rawSocket(server.url, id, alice.key!);
      await raw.opened;
      await raw.send(syncUpdate(Y.mergeUpdates(side.updates)));
      const closed = await raw.waitClosed();
      expect(closed).toEqual({ code: 4422, reason: `update refused: ${reason}` });

      // Nothing of it was applied, stored or broadcast.
      expect(Y.encodeStateVector(live.doc)).toEqual(stateBefore);
      const after = await alice.get(`/v1/journals/editor/model/${id}`);
      expect(after.status).toBe(200);
      expect(after.body.model).toEqual(before.model);
      expect(after.body.revision).toBe(before.revision);
      expect(editorBlocks(e).map((b) => b.text)).toEqual(['Kept', 'This stays.']);
      // One warn line saying what was refused, and no credential in any line.
      const lines = refusedLines().slice(warnsBefore);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, msg: 'realtime update refused', journal_id: id, reason });
      expect(JSON.stringify(logs.lines)).not.toContain(alice.key!);

      // The stock editor keeps working.
      typeInto(e, editorBlocks(e)[1]!.id as string, 0, 'Still: ');
      await waitFor(() => live.fragment.toString().includes('Still: '), 'typing reaches the server');
      expect(e.closes).toEqual([]);
    });
  }

  it('drops held structs that an otherwise fine update would complete', async () => {
    const id = await alice.importMarkdown('Held\n');
    const e = editor(id);
    await synced(e);
    const side = sideDoc(e.doc);
    side.fragment.insert(side.fragment.length, [paragraph('anchor')]);
    side.fragment.insert(side.fragment.length, [new Y.XmlText('stray')]); // placed after the anchor
    const [anchor, stray] = side.updates;
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    await raw.send(syncUpdate(stray!)); // held: its neighbour has not arrived
    await raw.send(syncUpdate(anchor!));
    await waitFor(() => editorBlocks(e).length === 2, 'the anchor is applied');
    await raw.roundTrip();
    const live = server.svc.ctx.registry.get(id)!;
    expect(live.fragment.toArray().some((n) => n instanceof Y.XmlText)).toBe(false);
    expect(live.pendingBytes).toBe(0);
    expect(blocks(await alice.model(id)).map((b) => b.text)).toEqual(['Held', 'anchor']);
    expect(refusedLines().some((l) => l.msg === 'held realtime updates refused; dropped them')).toBe(true);
    raw.ws.close();
  });
});

// ---------------------------------------------------------------------------------------------
// Stock editors: what y-prosemirror's binding writes for a ProseMirror document of the schema.

const MARKS = ['strong', 'em', 'code', 'strikethrough', 'link'] as const;
type MarkName = (typeof MARKS)[number] | null;

function marksOf(name: MarkName): readonly Mark[] {
  if (!name) return [];
  return [name === 'link' ? schema.marks.link!.create({ href: '/x' }) : schema.marks[name]!.create()];
}

function para(text: string, mark: MarkName = null): PMNode {
  return schema.nodes.paragraph!.create(null, schema.text(text, marksOf(mark)));
}

function list(ordered: boolean, items: number, depth: number, text: string): PMNode {
  const item = (i: number): PMNode => {
    const content = [para(`${text} ${i}`)];
    if (depth > 0) content.push(list(!ordered, 1, depth - 1, text));
    return schema.nodes.list_item!.create(null, content);
  };
  return schema.nodes[ordered ? 'ordered_list' : 'bullet_list']!.create(null, Array.from({ length: items }, (_, i) => item(i)));
}

type Op =
  | { kind: 'paragraph'; at: number; text: string; mark: MarkName }
  | { kind: 'heading'; at: number; level: number; text: string }
  | { kind: 'list'; at: number; ordered: boolean; items: number; depth: number; text: string }
  | { kind: 'delete'; at: number }
  | { kind: 'type'; at: number; offset: number; text: string; mark: MarkName }
  | { kind: 'cut'; at: number; offset: number; len: number }
  | { kind: 'mark'; at: number; offset: number; len: number; mark: MarkName }
  | { kind: 'split'; at: number; offset: number; depth: number };

const pick = <T>(xs: T[], at: number): T | undefined => xs[Math.min(xs.length - 1, Math.floor(at * xs.length))];

/** The editor's document after `op`, or undefined when the op does not apply to it. */
function applyOp(doc: PMNode, op: Op): PMNode | undefined {
  const tr = new Transform(doc);
  const tops: number[] = [];
  doc.forEach((_n, offset) => tops.push(offset));
  tops.push(doc.content.size);
  const textblocks: { pos: number; node: PMNode }[] = [];
  doc.descendants((node, pos) => {
    if (node.isTextblock) textblocks.push({ pos, node });
    return true;
  });
  const tb = pick(textblocks, op.at);
  const inText = (offset: number) => (tb ? tb.pos + 1 + Math.floor(offset * (tb.node.content.size + 1)) : 0);
  try {
    switch (op.kind) {
      case 'paragraph':
        tr.insert(pick(tops, op.at)!, para(op.text, op.mark));
        break;
      case 'heading':
        tr.insert(pick(tops, op.at)!, schema.nodes.heading!.create({ level: op.level }, schema.text(op.text)));
        break;
      case 'list':
        tr.insert(pick(tops, op.at)!, list(op.ordered, op.items, op.depth, op.text));
        break;
      case 'delete': {
        if (doc.childCount < 2) return undefined;
        const i = Math.min(doc.childCount - 1, Math.floor(op.at * doc.childCount));
        tr.delete(tops[i]!, tops[i + 1]!);
        break;
      }
      case 'type':
        if (!tb) return undefined;
        tr.insert(inText(op.offset), schema.text(op.text, marksOf(op.mark)));
        break;
      case 'cut': {
        if (!tb || tb.node.content.size === 0) return undefined;
        const from = inText(op.offset);
        tr.delete(from, Math.min(from + op.len, tb.pos + 1 + tb.node.content.size));
        break;
      }
      case 'mark': {
        if (!tb || !op.mark) return undefined;
        const from = inText(op.offset);
        tr.addMark(from, Math.min(from + op.len, tb.pos + 1 + tb.node.content.size), marksOf(op.mark)[0]!);
        break;
      }
      case 'split':
        if (!tb) return undefined;
        tr.split(inText(op.offset), op.depth); // depth 2 in a list item: a new item (Enter)
        break;
    }
    tr.doc.check();
    return tr.doc;
  } catch {
    return undefined;
  }
}

/** One edit by a stock editor, the way y-prosemirror's binding writes a ProseMirror transaction. */
function edit(e: Editor, op: Op): void {
  const { doc, meta } = initProseMirrorDoc(e.fragment, schema);
  const next = applyOp(doc, op);
  if (next) e.doc.transact(() => updateYFragment(e.doc, e.fragment, next, meta), 'y-prosemirror');
}

/** Same structs and same deletions as the server's document (state vectors miss deletions). */
function converged(server: Y.Doc, eds: Editor[]): boolean {
  const sv = Buffer.from(Y.encodeStateVector(server));
  const content = server.getXmlFragment('prosemirror').toString();
  return eds.every((e) => sv.equals(Y.encodeStateVector(e.doc)) && e.fragment.toString() === content);
}

const frac = fc.nat(999).map((n) => n / 1000);
// BMP characters only: ProseMirror positions count UTF-16 units, so a random cut could split a
// surrogate pair, which no editor's cursor does (and Yjs encodes a lone surrogate as U+FFFD).
const word = fc.string({ minLength: 1, maxLength: 10, unit: fc.constantFrom(...Array.from('abcdefghij klmnoé漢ß')) });
const markName: fc.Arbitrary<MarkName> = fc.constantFrom(null, ...MARKS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('paragraph' as const), at: frac, text: word, mark: markName }),
  fc.record({ kind: fc.constant('heading' as const), at: frac, level: fc.integer({ min: 1, max: 6 }), text: word }),
  fc.record({ kind: fc.constant('list' as const), at: frac, ordered: fc.boolean(), items: fc.integer({ min: 1, max: 3 }), depth: fc.integer({ min: 0, max: 3 }), text: word }),
  fc.record({ kind: fc.constant('delete' as const), at: frac }),
  fc.record({ kind: fc.constant('type' as const), at: frac, offset: frac, text: word, mark: markName }),
  fc.record({ kind: fc.constant('cut' as const), at: frac, offset: frac, len: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('mark' as const), at: frac, offset: frac, len: fc.integer({ min: 1, max: 6 }), mark: markName }),
  fc.record({ kind: fc.constant('split' as const), at: frac, offset: frac, depth: fc.integer({ min: 1, max: 2 }) }),
);

describe('stock editors are never refused', () => {
  it('ordinary edits: paragraphs, headings, lists nested a few levels, text with marks', async () => {
    const id = await alice.importMarkdown('# Start\n\nText\n');
    const a = editor(id);
    const b = editor(id);
    await Promise.all([a, b].map(synced));
    const ops: Op[] = [
      { kind: 'paragraph', at: 0.99, text: 'plain', mark: null },
      { kind: 'paragraph', at: 0.99, text: 'bold', mark: 'strong' },
      { kind: 'heading', at: 0.5, level: 3, text: 'Section' },
      { kind: 'list', at: 0.99, ordered: false, items: 3, depth: 4, text: 'item' },
      { kind: 'list', at: 0.99, ordered: true, items: 2, depth: 2, text: 'step' },
      { kind: 'type', at: 0.1, offset: 0.5, text: 'linked', mark: 'link' },
      { kind: 'mark', at: 0.2, offset: 0, len: 3, mark: 'em' },
      { kind: 'split', at: 0.3, offset: 0.5, depth: 1 },
      { kind: 'split', at: 0.8, offset: 0.5, depth: 2 },
      { kind: 'cut', at: 0.4, offset: 0.2, len: 2 },
      { kind: 'delete', at: 0.6 },
    ];
    for (const op of ops) edit(a, op);
    const live = server.svc.ctx.registry.get(id)!;
    await waitFor(() => converged(live.doc, [a, b]), 'convergence');
    const md = await alice.content(id);
    expect(md).toContain('### Sect');
    expect(md).toContain('[linked](/x)');
    expect(md).toContain('step 1');
    expect(a.closes).toEqual([]);
    expect(b.closes).toEqual([]);
  });

  it('property: random sequences of valid edits by two stock editors are never refused and converge', async () => {
    const refusedBefore = refusedLines().length;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ editor: fc.nat(1), op: opArb, pause: fc.boolean() }), { minLength: 1, maxLength: 14 }), async (steps) => {
        const id = await alice.importMarkdown('# Notes\n\nFirst *point*\n\n- one\n  - two\n');
        const eds = [editor(id), editor(id)];
        try {
          await Promise.all(eds.map(synced));
          for (const s of steps) {
            edit(eds[s.editor]!, s.op);
            if (s.pause) await new Promise((r) => setTimeout(r, 3));
          }
          const live = server.svc.ctx.registry.get(id)!;
          await waitFor(() => converged(live.doc, eds), 'convergence');
          for (const e of eds) expect(e.closes).toEqual([]);
          expect((await alice.get(`/v1/journals/editor/model/${id}`)).status).toBe(200);
        } finally {
          for (const e of eds) e.destroy();
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
    expect(refusedLines().slice(refusedBefore)).toEqual([]);
  }, 120_000);
});
