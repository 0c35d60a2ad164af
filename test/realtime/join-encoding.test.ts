/**
 * One encoding per revision (issue 30): every joiner with an empty state vector, or one equal to
 * the journal's, gets the same bytes, encoded once per revision (and, after a load from a
 * snapshot alone, the stored snapshot itself); a joiner with a partial state gets its diff. Stock
 * y-websocket editors joining that way converge with the journal.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Client, type TestServer } from '../helpers/server.ts';
import { editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';
import { rawSocket } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

const EMPTY = Uint8Array.from([0]);

describe('the state sent to joiners', () => {
  it('is encoded once per revision and shared by joiners with an empty or equal state vector', async () => {
    const id = await alice.importMarkdown('# Shared\n\nOne encoding.\n');
    const a = editor(id);
    await synced(a);
    const live = server.svc.ctx.registry.get(id)!;
    const [first, second] = await live.settledTask(() => [live.stateFor(EMPTY), live.stateFor(EMPTY)]);
    expect(first.shared).toBe(true);
    expect(second.update).toBe(first.update); // the same bytes, not a second encoding
    const upToDate = await live.settledTask(() => live.stateFor(Y.encodeStateVector(live.doc)));
    expect(upToDate.shared).toBe(true);
    expect(upToDate).toEqual(await live.settledTask(() => live.stateFor(Y.encodeStateVector(live.doc))));

    // A new revision: a new encoding, which has the change.
    const revision = live.revision;
    typeInto(a, editorBlocks(a)[1]!.id as string, 0, 'Still ');
    await waitFor(() => live.revision > revision, 'stored');
    const next = await live.settledTask(() => live.stateFor(EMPTY));
    expect(next.update).not.toBe(first.update);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, next.update);
    expect(doc.getXmlFragment('prosemirror').toString()).toContain('Still One encoding.');

    // A partial state gets its own diff: what it lacks, no more.
    const behind = new Y.Doc();
    Y.applyUpdate(behind, first.update);
    const diff = await live.settledTask(() => live.stateFor(Y.encodeStateVector(behind)));
    expect(diff.shared).toBe(false);
    expect(diff.update.byteLength).toBeLessThan(next.update.byteLength);
    Y.applyUpdate(behind, diff.update);
    expect(behind.getXmlFragment('prosemirror').toString()).toBe(doc.getXmlFragment('prosemirror').toString());
  });

  it('serves joiners of a journal loaded from its snapshot with the snapshot itself; stock editors converge', async () => {
    const id = await alice.importMarkdown('# Loaded\n\nFrom the snapshot.\n');
    const registry = server.svc.ctx.registry;
    await registry.sweepIdle(Date.now() + 3_600_000); // compacted and unloaded
    expect(registry.get(id)).toBeUndefined();
    const raws = [0, 1, 2].map(() => rawSocket(server.url, id, alice.key!));
    await Promise.all(raws.map((r) => r.opened));
    for (const r of raws) await r.send(Uint8Array.from([0, 0, 1, 0]));
    await waitFor(() => raws.every((r) => r.received.some((m) => m[0] === 0 && m[1] === 1)), 'answers');
    const answers = raws.map((r) => r.received.find((m) => m[0] === 0 && m[1] === 1)!);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    for (const r of raws) r.ws.close();
    // Stock editors on it see the journal and each other's changes.
    const a = editor(id);
    const b = editor(id);
    await Promise.all([a, b].map(synced));
    expect(editorBlocks(b).map((x) => x.text)).toEqual(['Loaded', 'From the snapshot.']);
    typeInto(a, editorBlocks(a)[1]!.id as string, 0, 'Read ');
    await waitFor(() => editorBlocks(b)[1]?.text === 'Read From the snapshot.', 'b sees a');
  });
});
