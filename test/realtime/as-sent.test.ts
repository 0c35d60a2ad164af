/**
 * A small editor update that brings only new structs to a journal holding nothing pending is
 * committed and broadcast as the editor sent it, without Yjs encoding its transaction again
 * (live.ts, applyEditorUpdate; issue 33). Whatever path an update takes, the update log must
 * replay to the live document: these are the cases where sent bytes and the transaction differ.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { encodeStateAsUpdateWithoutPending } from '../../server/journals/pending.ts';
import { type Client, type TestServer } from '../helpers/server.ts';
import { editorBlocks, editorSuite, synced, waitFor } from './helpers.ts';
import { rawSocket, sideDoc, syncUpdate } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

/** The journal as its stored snapshot and log replay it. */
async function replayed(seq: number): Promise<Y.Doc> {
  const stored = (await server.svc.ctx.journals.store.loadState(seq))!;
  const doc = new Y.Doc();
  for (const u of stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates) Y.applyUpdate(doc, u);
  return doc;
}

/** Replaying the log gives the live document's committed state, and holds nothing pending. */
async function expectLogReplaysLive(id: string): Promise<Y.Doc> {
  const live = server.svc.ctx.registry.get(id)!;
  // Everything applied is committed (the server's block-id fixes of a new paragraph included).
  await waitFor(() => live.settled, 'the journal to settle');
  const doc = await replayed(live.seq);
  expect(doc.store.pendingStructs).toBeNull();
  expect(doc.store.pendingDs).toBeNull();
  expect(Buffer.from(Y.encodeStateAsUpdate(doc)).equals(Buffer.from(encodeStateAsUpdateWithoutPending(live.doc)))).toBe(true);
  return doc;
}

/** The first XmlText of the journal's block `index`, in `doc`. */
function textOf(doc: Y.Doc, index: number): Y.XmlText {
  const el = doc.getXmlFragment('prosemirror').get(index) as Y.XmlElement;
  return el.toArray().find((c) => c instanceof Y.XmlText) as Y.XmlText;
}

async function loggedUpdates(seq: number): Promise<Uint8Array[]> {
  return (await server.svc.ctx.journals.store.loadState(seq))!.updates;
}

describe('editor updates committed as sent', () => {
  it('a keystroke: one revision, the same bytes in the log and at the other editors', async () => {
    const id = await alice.importMarkdown('# Typed\n\nHello\n');
    const listener = editor(id);
    const a = editor(id);
    await Promise.all([listener, a].map(synced));
    const live = server.svc.ctx.registry.get(id)!;
    const side = sideDoc(a.doc);
    textOf(side.doc, 1).insert(5, '!');
    const [sent] = side.updates.splice(0);
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    const revision = live.revision;
    await raw.send(syncUpdate(sent!));
    await waitFor(() => editorBlocks(listener)[1]?.text === 'Hello!', 'the listener to have it');
    expect(live.revision).toBe(revision + 1);
    const log = await loggedUpdates(live.seq);
    expect(Buffer.from(log.at(-1)!).equals(Buffer.from(sent!))).toBe(true);
    await expectLogReplaysLive(id);
    raw.ws.close();
  });

  it('an update that also carries what the journal has (a resync) is stored without it', async () => {
    const id = await alice.importMarkdown('# Resync\n\nSome text here\n');
    const a = editor(id);
    await synced(a);
    const live = server.svc.ctx.registry.get(id)!;
    // Everything the journal has, plus one new character: what a client resyncing after an
    // offline keystroke sends. Small enough for the as-sent size limit.
    const side = sideDoc(a.doc);
    textOf(side.doc, 1).insert(0, 'x');
    const resync = Y.encodeStateAsUpdate(side.doc);
    expect(resync.byteLength).toBeLessThan(512);
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    const revision = live.revision;
    await raw.send(syncUpdate(resync));
    await waitFor(() => editorBlocks(a)[1]?.text === 'xSome text here', 'the editor to have it');
    expect(live.revision).toBe(revision + 1);
    const log = await loggedUpdates(live.seq);
    // The new character only, not the journal's whole state again.
    expect(log.at(-1)!.byteLength).toBeLessThan(resync.byteLength / 2);
    await expectLogReplaysLive(id);
    raw.ws.close();
  });

  it('an update partly waiting for a missing dependency: the log holds what was integrated, then the rest once it completes', async () => {
    const id = await alice.importMarkdown('# Held\n\nFirst\n');
    const a = editor(id);
    await synced(a);
    const live = server.svc.ctx.registry.get(id)!;
    // Client 1 writes a paragraph the server will not get yet; client 2 types into the journal's
    // paragraph and into client 1's: one update, part integrable, part waiting.
    const one = sideDoc(a.doc);
    const p = new Y.XmlElement('paragraph');
    const t = new Y.XmlText();
    one.doc.transact(() => {
      one.fragment.insert(one.fragment.length, [p]);
      p.insert(0, [t]);
      t.insert(0, 'later');
    });
    const withheld = Y.mergeUpdates(one.updates.splice(0));
    const two = new Y.Doc();
    Y.applyUpdate(two, Y.encodeStateAsUpdate(one.doc));
    const twoUpdates: Uint8Array[] = [];
    two.on('update', (u: Uint8Array) => twoUpdates.push(u));
    two.transact(() => {
      textOf(two, 1).insert(0, 'Now ');
      textOf(two, 2).insert(5, '!');
    });
    const mixed = twoUpdates[0]!;
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    await raw.send(syncUpdate(mixed));
    await waitFor(() => editorBlocks(a)[1]?.text === 'Now First', 'the integrable part');
    expect(live.pendingBytes).toBeGreaterThan(0);
    // Stored: what was integrated, nothing that replays into a held struct.
    await expectLogReplaysLive(id);

    await raw.send(syncUpdate(withheld));
    await waitFor(() => editorBlocks(a)[2]?.text === 'later!', 'the completed part');
    expect(live.pendingBytes).toBe(0);
    const doc = await expectLogReplaysLive(id);
    expect(textOf(doc, 2).toString()).toBe('later!');
    raw.ws.close();
  });

  it('typing next to formatted text (Yjs cleans formatting in transactions of its own): one revision per keystroke, the log replays', async () => {
    const id = await alice.importMarkdown('# Marks\n\nSome **bold** and *italic* words\n');
    const listener = editor(id);
    const a = editor(id);
    await Promise.all([listener, a].map(synced));
    const live = server.svc.ctx.registry.get(id)!;
    const revision = live.revision;
    const text = textOf(a.doc, 1);
    for (const [i, ch] of [...'typed'].entries()) {
      text.insert(5 + i, ch);
      await waitFor(() => live.revision === revision + i + 1, `keystroke ${i + 1} committed`);
    }
    await waitFor(() => editorBlocks(listener)[1]?.text === 'Some typedbold and italic words', 'the listener to have it');
    expect(live.revision).toBe(revision + 5);
    await expectLogReplaysLive(id);
  });
});
