/**
 * Updates whose dependencies never arrive: Yjs holds them (doc.store.pendingStructs / pendingDs)
 * until they complete. Capped per journal (WS_MAX_PENDING_BYTES, here 64 KiB): past it, what is
 * held is dropped and the connection that pushed it past is closed (1013); held bytes count in the
 * journal's memory estimate; editors joining meanwhile are never sent held structs, and a compaction
 * meanwhile stores none.
 */
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { encodeStateAsUpdateWithoutPending } from '../../server/journals/pending.ts';
import { estimatedHeapBytes } from '../../server/journals/registry.ts';
import { type Client, type TestServer } from '../helpers/server.ts';
import { editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';
import { rawSocket, sideDoc, syncUpdate } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({ env: { WS_MAX_PENDING_BYTES: '65536' } }, (s, c) => {
  server = s;
  alice = c;
});

/** Updates that all depend on a paragraph whose own update is withheld. */
function orphanUpdates(from: Y.Doc, count: number, bytes: number): Uint8Array[] {
  const side = sideDoc(from);
  const p = new Y.XmlElement('paragraph');
  side.fragment.insert(side.fragment.length, [p]);
  const t = new Y.XmlText();
  p.insert(0, [t]);
  side.updates.length = 0; // the paragraph never reaches the server
  for (let i = 0; i < count; i++) t.insert(t.length, String(i % 10).repeat(bytes));
  return side.updates.splice(0);
}

describe('updates waiting for missing dependencies', () => {
  it('closes the socket that pushes them past the cap, releases them, and the journal keeps working', async () => {
    const id = await alice.importMarkdown('# Held\n\nFirst\n');
    const a = editor(id);
    const b = editor(id);
    await Promise.all([a, b].map(synced));
    const live = server.svc.ctx.registry.get(id)!;
    const revision = live.revision;
    const baseline = estimatedHeapBytes(live);
    const updates = orphanUpdates(a.doc, 40, 4096);

    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    for (const u of updates.slice(0, 4)) await raw.send(syncUpdate(u));
    await raw.roundTrip();
    // Held, not persisted, and counted in the memory estimate.
    expect(live.pendingBytes).toBeGreaterThan(4 * 4096);
    expect(live.revision).toBe(revision);
    expect(estimatedHeapBytes(live)).toBe(baseline + 10 * live.pendingBytes);

    for (const u of updates.slice(4)) await raw.send(syncUpdate(u));
    const closed = await raw.waitClosed();
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/waiting for missing dependencies/);
    expect(live.pendingBytes).toBe(0);
    expect(estimatedHeapBytes(live)).toBe(baseline);
    expect(live.revision).toBe(revision);

    // The editors on the same journal were not disturbed and keep editing.
    const blockId = editorBlocks(a)[1]!.id as string;
    typeInto(a, blockId, 0, 'Still ');
    await waitFor(() => editorBlocks(b)[1]?.text === 'Still First', 'healthy editor served');
    expect(await alice.content(id)).toBe('# Held\n\nStill First\n');
    expect(a.closes).toEqual([]);
    expect(b.closes).toEqual([]);
  });

  it('counts held deletions (16 times their bytes): a flood of deletions of unknown structs is closed too', async () => {
    const id = await alice.importMarkdown('Deletes\n');
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    // An update with no structs and 3,000 deleted ranges of a client the journal never saw.
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, 987654);
    encoding.writeVarUint(e, 3000);
    for (let i = 0; i < 3000; i++) {
      encoding.writeVarUint(e, i * 2);
      encoding.writeVarUint(e, 1);
    }
    await raw.send(syncUpdate(encoding.toUint8Array(e)));
    const closed = await raw.waitClosed();
    expect(closed.code).toBe(1013);
    expect(server.svc.ctx.registry.get(id)!.pendingBytes).toBe(0);
  });

  it('editors joining while updates are held are sent only integrated state', async () => {
    const id = await alice.importMarkdown('Joining\n');
    const a = editor(id);
    await synced(a);
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    for (const u of orphanUpdates(a.doc, 2, 100)) await raw.send(syncUpdate(u));
    await raw.roundTrip();
    expect(server.svc.ctx.registry.get(id)!.pendingBytes).toBeGreaterThan(0);
    const newcomer = editor(id);
    await synced(newcomer);
    expect(editorBlocks(newcomer).map((x) => x.text)).toEqual(['Joining']);
    expect(newcomer.doc.store.pendingStructs).toBeNull();
    raw.ws.close();
  });
});

describe('compaction while updates are held', () => {
  it('stores the committed state only: the snapshot holds nothing Yjs keeps waiting for missing dependencies', async () => {
    const id = await alice.importMarkdown('# Compacted\n\nFirst\n');
    const a = editor(id);
    await synced(a);
    const live = server.svc.ctx.registry.get(id)!;
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    for (const u of orphanUpdates(a.doc, 2, 100)) await raw.send(syncUpdate(u));
    await raw.roundTrip();
    expect(live.pendingBytes).toBeGreaterThan(0);
    // A committed change, so that the log has something to fold.
    const revision = live.revision;
    typeInto(a, editorBlocks(a)[1]!.id as string, 0, 'Now ');
    await waitFor(() => live.revision > revision, 'the edit committed');

    await live.compact();
    const stored = (await server.svc.ctx.journals.store.loadState(live.seq))!;
    expect(stored.updates).toEqual([]);
    const reloaded = new Y.Doc();
    Y.applyUpdate(reloaded, stored.snapshot!);
    // Held structs in the snapshot would be held again here, and sent to other instances.
    expect(reloaded.store.pendingStructs).toBeNull();
    expect(reloaded.store.pendingDs).toBeNull();
    expect(Buffer.from(stored.snapshot!).equals(Buffer.from(encodeStateAsUpdateWithoutPending(live.doc)))).toBe(true);
    // Still held in memory, where they may yet complete.
    expect(live.pendingBytes).toBeGreaterThan(0);
    expect(await alice.content(id)).toBe('# Compacted\n\nNow First\n');
    raw.ws.close();
  });
});
