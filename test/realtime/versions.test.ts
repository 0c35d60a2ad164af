/**
 * Restore with real y-websocket editors connected: they see the old content at once, their own
 * undo stacks hold only their own changes, and typing during a restore merges per the CRDT.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { blocks, type Client } from '../helpers/server.ts';
import { blockText, type Editor, editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';

let alice: Client;
const editor = editorSuite({}, (_s, c) => {
  alice = c;
});

const V = (id: string) => `/v1/journals/versions/${id}`;

async function editorOn(id: string): Promise<Editor> {
  const e = editor(id);
  await synced(e);
  return e;
}

describe('restore with editors connected', () => {
  it('editors see the restored content and keep their own undo stacks', async () => {
    const id = await alice.importMarkdown('# Title\n\nKeep me\n\nSecond\n');
    const ids = blocks(await alice.model(id)).map((b) => b.id);
    const v = (await alice.post(V(id), { name: 'clean' })).body;
    const e = await editorOn(id);
    const undo = new Y.UndoManager(e.fragment);
    typeInto(e, ids[1]!, 0, 'oops ');
    await waitFor(() => undo.undoStack.length === 1, 'own change tracked');
    // Wait until the server has it (a REST read reflects it).
    for (let i = 0; i < 100 && !(await alice.content(id)).includes('oops'); i++) await new Promise((r) => setTimeout(r, 20));
    const after = (await alice.post(V(id), { name: 'typed' })).body;

    const r = await alice.post(`${V(id)}/${v.version_id}/restore`, {});
    expect(r.status).toBe(200);
    await waitFor(() => blockText(e, ids[1]!) === 'Keep me', 'restore reached the editor');
    expect(editorBlocks(e).map((b) => b.id)).toEqual(ids);
    // The restore is not in the editor's undo stack: undoing its own change leaves the restore alone.
    expect(undo.undoStack.length).toBe(1);
    // The diff from the typed version to now: the restore changed that one block back.
    const d = (await alice.get(`${V(id)}/diff?from=${after.version_id}`)).body.diff;
    expect(d.changed).toEqual([{ block_id: ids[1], type: 'paragraph', before: 'oops Keep me\n', after: 'Keep me\n', changed_by: [{ actor: 'api_key', key_id: after.created_by }] }]);
  });

  it('typing concurrent with a restore is not lost: it merges per the CRDT', async () => {
    const id = await alice.importMarkdown('Alpha\n\nBeta\n\nGamma\n');
    const ids = blocks(await alice.model(id)).map((b) => b.id);
    const v = (await alice.post(V(id), {})).body;
    await alice.edit(id, [{ type: 'update_node', nodeId: ids[0], nodeType: 'paragraph', params: [{ content: 'Alpha overwritten' }] }]);
    const a = await editorOn(id);
    const b = await editorOn(id);
    // b types without having seen the restore (offline until after it): in a block the restore
    // leaves alone and in the one it rewrites.
    b.provider.disconnect();
    typeInto(b, ids[2]!, 0, 'offline ');
    typeInto(b, ids[0]!, 0, 'typed ');
    // a keeps typing while the restore is in flight.
    const restoring = alice.post(`${V(id)}/${v.version_id}/restore`, {});
    for (let i = 0; i < 5; i++) {
      typeInto(a, ids[1]!, 0, `b${i}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await restoring).status).toBe(200);
    await waitFor(() => blockText(a, ids[0]!) === 'Alpha', 'restore reached a');
    b.provider.connect();
    const same = () => Buffer.compare(Buffer.from(Y.encodeStateAsUpdate(a.doc)), Buffer.from(Y.encodeStateAsUpdate(b.doc))) === 0;
    await waitFor(() => blockText(a, ids[0]!) === 'typed Alpha' && blockText(a, ids[2]!) === 'offline Gamma' && blockText(b, ids[0]!) === 'typed Alpha', 'b merged');
    await waitFor(() => blockText(b, ids[1]!) === blockText(a, ids[1]!) || same(), 'convergence');
    // Everything a typed after the restore started reached b too; nothing of the overwritten text came back.
    expect(blockText(b, ids[1]!)).toBe(blockText(a, ids[1]!));
    expect(blockText(a, ids[1]!)!.endsWith('Beta')).toBe(true);
    let stored = '';
    for (let i = 0; i < 100 && !(stored = await alice.content(id)).includes('offline'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(stored).toBe(`typed Alpha\n\n${blockText(a, ids[1]!)}\n\noffline Gamma\n`);
  });
});
