import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { blocks, type Client, type TestServer } from '../helpers/server.ts';
import { blockText, type Editor, editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

async function journalWithEditors(n = 2): Promise<{ id: string; ids: string[]; editors: Editor[] }> {
  const id = await alice.importMarkdown('# Title\n\nFirst para\n\nSecond para\n');
  const ids = blocks(await alice.model(id)).map((b) => b.id);
  const editors: Editor[] = [];
  for (let i = 0; i < n; i++) editors.push(editor(id));
  await Promise.all(editors.map(synced));
  return { id, ids, editors };
}

describe('editors over y-websocket', () => {
  it('two editors receive the journal and converge on each other\'s typing', async () => {
    const { id, ids, editors: [a, b] } = await journalWithEditors();
    expect(editorBlocks(a!).map((x) => x.text)).toEqual(['Title', 'First para', 'Second para']);
    typeInto(a!, ids[1]!, 0, 'A says: ');
    typeInto(b!, ids[2]!, 0, 'B says: ');
    await waitFor(() => blockText(b!, ids[1]!) === 'A says: First para' && blockText(a!, ids[2]!) === 'B says: Second para', 'convergence');
    expect(Y.encodeStateVector(a!.doc)).toEqual(Y.encodeStateVector(b!.doc));
    // Persisted and visible to REST reads.
    expect(await alice.content(id)).toBe('# Title\n\nA says: First para\n\nB says: Second para\n');
  });

  it('a REST edit with sync_realtime_state true reaches every editor, outside their undo history', async () => {
    const { id, ids, editors: [a, b] } = await journalWithEditors();
    const undo = new Y.UndoManager(a!.fragment);
    typeInto(a!, ids[2]!, 0, 'mine ');
    await waitFor(() => blockText(b!, ids[2]!) === 'mine Second para', 'editor change');
    expect(undo.undoStack.length).toBe(1);
    const r = await alice.edit(id, [{ type: 'update_node', nodeId: ids[1], nodeType: 'paragraph', params: [{ content: 'From **REST**' }] }]);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    await waitFor(() => blockText(a!, ids[1]!) === 'From REST' && blockText(b!, ids[1]!) === 'From REST', 'REST edit on editors');
    // Only the editor's own change is undoable; undoing it leaves the REST change alone.
    expect(undo.undoStack.length).toBe(1);
    undo.undo();
    expect(blockText(a!, ids[1]!)).toBe('From REST');
    expect(blockText(a!, ids[2]!)).toBe('Second para');
    undo.destroy();
  });

  it('sync_realtime_state false: saved and readable at once, delivered to editors when they next sync, merged', async () => {
    const { id, ids, editors: [a, b] } = await journalWithEditors();
    const r = await alice.edit(id, [{ type: 'update_node', nodeId: ids[2], nodeType: 'paragraph', params: [{ content: 'Quiet change' }] }], {
      sync_realtime_state: false,
    });
    expect(r.status).toBe(200);
    expect(blocks(await alice.model(id))[2]!.text).toBe('Quiet change');
    // A later broadcast edit reaches the editors; the quiet one, sent before it, did not.
    const loud = await alice.edit(id, [{ type: 'update_node', nodeId: ids[0], nodeType: 'heading', params: [{ level: 1, content: 'Loud' }] }]);
    expect(loud.status).toBe(200);
    await waitFor(() => blockText(a!, ids[0]!) === 'Loud' && blockText(b!, ids[0]!) === 'Loud', 'broadcast edit');
    expect(blockText(a!, ids[2]!)).toBe('Second para');
    expect(blockText(b!, ids[2]!)).toBe('Second para');
    // A edits the same block concurrently, then reconnects: both changes survive.
    typeInto(a!, ids[2]!, 11, ' (edited)');
    await waitFor(() => blockText(b!, ids[2]!) === 'Second para (edited)', 'concurrent editor change');
    a!.provider.disconnect();
    a!.provider.connect();
    await waitFor(() => blockText(a!, ids[2]!)?.includes('Quiet change'), 'quiet change after reconnect');
    expect(blockText(a!, ids[2]!)).toContain('(edited)');
    // B has not resynced yet: it still lacks the quiet change.
    expect(blockText(b!, ids[2]!)).toBe('Second para (edited)');
    b!.provider.disconnect();
    b!.provider.connect();
    await waitFor(() => blockText(b!, ids[2]!) === blockText(a!, ids[2]!), 'B after reconnect');
    const model = blocks(await alice.model(id));
    expect(model[2]!.text).toBe(blockText(a!, ids[2]!));
    expect(model[2]!.text).toContain('Quiet change');
    expect(model[2]!.text).toContain('(edited)');
  });

  it('concurrent typing in one block and a REST update of another block all survive', async () => {
    const { id, ids, editors: [a, b] } = await journalWithEditors();
    typeInto(a!, ids[1]!, 0, 'Alpha ');
    typeInto(b!, ids[1]!, 10, ' Beta');
    const rest = alice.edit(id, [{ type: 'update_node', nodeId: ids[2], nodeType: 'paragraph', params: [{ content: 'REST *wins* here' }] }]);
    typeInto(a!, ids[1]!, 0, 'Gamma ');
    expect((await rest).status).toBe(200);
    await waitFor(
      () => blockText(a!, ids[1]!) === blockText(b!, ids[1]!) && blockText(a!, ids[2]!) === 'REST wins here' && blockText(b!, ids[2]!) === 'REST wins here',
      'convergence',
    );
    const p1 = blockText(a!, ids[1]!)!;
    for (const part of ['Alpha ', ' Beta', 'Gamma ', 'First']) expect(p1).toContain(part);
    const model = blocks(await alice.model(id));
    expect(model[1]!.text).toBe(p1);
    expect(model[2]!.text).toBe('REST wins here');
  });

  it('gives server ids to editor-made blocks without an id or with a duplicated one', async () => {
    const { id, ids, editors: [a, b] } = await journalWithEditors();
    a!.doc.transact(() => {
      const noId = new Y.XmlElement('paragraph');
      noId.insert(0, [new Y.XmlText('no id yet')]);
      const dup = new Y.XmlElement('paragraph');
      dup.setAttribute('id', ids[1]!); // what ProseMirror's split (Enter) does
      dup.insert(0, [new Y.XmlText('split half')]);
      const list = new Y.XmlElement('bullet_list');
      const item = new Y.XmlElement('list_item');
      const para = new Y.XmlElement('paragraph');
      para.insert(0, [new Y.XmlText('nested')]);
      item.insert(0, [para]);
      list.insert(0, [item]);
      // The duplicate goes BEFORE the original: the existing block must still keep its id.
      a!.fragment.insert(1, [dup]);
      a!.fragment.insert(a!.fragment.length, [noId, list]);
    });
    const allIds = (e: Editor) => {
      const out: unknown[] = [];
      const walk = (p: Y.XmlFragment | Y.XmlElement) =>
        p.toArray().forEach((c) => {
          if (c instanceof Y.XmlElement) {
            out.push(c.getAttribute('id'));
            walk(c);
          }
        });
      walk(e.fragment);
      return out;
    };
    const done = (e: Editor) => {
      const got = allIds(e);
      return got.length === 8 && got.every((x) => typeof x === 'string' && x.length > 0) && new Set(got).size === got.length;
    };
    await waitFor(() => done(a!) && done(b!), 'server-assigned ids');
    expect(allIds(a!)).toEqual(allIds(b!));
    // The original block kept its id; the copy got a new one.
    expect(blockText(a!, ids[1]!)).toBe('First para');
    const model = blocks(await alice.model(id));
    expect(model.map((x) => x.text)).toEqual(['Title', 'split half', 'First para', 'Second para', 'no id yet', 'nested']);
    // The new ids are real block ids: REST can address them.
    const newId = model[4]!.id;
    expect(newId).toMatch(/^[A-Za-z0-9]{10}$/);
    const r = await alice.edit(id, [{ type: 'update_node', nodeId: newId, nodeType: 'paragraph', params: [{ content: 'now addressable' }] }]);
    expect(r.body.results[0].success).toBe(true);
    await waitFor(() => blockText(b!, newId) === 'now addressable', 'REST edit of a server-id block');
  });

  it('shares awareness between editors', async () => {
    const { editors: [a, b] } = await journalWithEditors();
    a!.provider.awareness.setLocalStateField('user', { name: 'Ada' });
    await waitFor(() => b!.provider.awareness.getStates().get(a!.doc.clientID)?.user?.name === 'Ada', 'awareness');
    a!.provider.disconnect();
    await waitFor(() => !b!.provider.awareness.getStates().has(a!.doc.clientID), 'awareness removed on disconnect');
  });

  it('browser editors connect with a journal-scoped token from POST /v1/journals/editor/session', async () => {
    const id = await alice.importMarkdown('Token journal\n');
    const r = await alice.request('POST', '/v1/journals/editor/session', { journal_id: id });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, journal_id: id, token: expect.stringMatching(/^et1\./) });
    expect(Date.parse(r.body.expires_at)).toBeGreaterThan(Date.now());
    expect(r.body.ws_url).toBe(`${server.url.replace(/^http/, 'ws')}/v1/journals/realtime/${id}`);
    expect(r.body.ws_url).not.toContain(r.body.token);
    const e = editor(id, { token: r.body.token });
    await synced(e);
    expect(editorBlocks(e)[0]!.text).toBe('Token journal');
    // Unknown and foreign journals are 404, malformed bodies 422.
    const bob = await server.newClient();
    expect((await bob.request('POST', '/v1/journals/editor/session', { journal_id: id })).status).toBe(404);
    expect((await alice.request('POST', '/v1/journals/editor/session', {})).status).toBe(422);
  });
});
