/**
 * Who changed what (issue 14, item 7): every committed update keeps its actor (the API key of a
 * REST edit or restore, the key behind an editor's token) and the blocks it touched, so versions
 * and diffs name who changed which blocks; a block an editor adds without an id is theirs once
 * the service gives it one.
 */
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import { blocks, type Client, serverSuite, startTestServer, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, typeInto, waitFor } from '../realtime/helpers.ts';

let server: TestServer;
let alice: Client;
serverSuite({}, (s, c) => {
  server = s;
  alice = c;
});

const V = (id: string) => `/v1/journals/versions/${id}`;
const byActor = (changes: { actor: string; key_id: string | null; blocks: string[] }[]) =>
  Object.fromEntries(changes.map((c) => [`${c.actor}:${c.key_id}`, [...c.blocks].sort()]));

it('versions and diffs name the keys and editors that changed each block since the version before', async () => {
  const id = await alice.importMarkdown('# Title\n\nOne\n\nTwo\n\nThree\n');
  const [, one, two, three] = blocks(await alice.model(id));
  const v0 = (await alice.post(V(id), { name: 'start' })).body;
  const v1 = (await alice.post(V(id), { name: 'before' })).body;
  // A journal belongs to one key: its REST edits and its editors (tokens or the key) are told apart by kind.
  const keyA = v1.created_by as string;
  const keyB = keyA;
  expect(v0.created_by).toBe(keyA);

  expect((await alice.edit(id, [{ type: 'update_node', nodeId: one!.id, nodeType: 'paragraph', params: [{ content: 'One, by Alice' }] }])).status).toBe(200);
  const editor = connectEditor(server.url, id, { key: alice.key });
  try {
    await synced(editor);
    typeInto(editor, two!.id, 3, ', typed in an editor');
    // A block the editor adds without an id: the service gives it one, on the editor's behalf.
    editor.doc.transact(() => {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText('Four, new in an editor')]);
      editor.fragment.insert(editor.fragment.length, [p]);
    });
    const four = await waitFor(async () => blocks(await alice.model(id)).find((b) => b.text === 'Four, new in an editor' && b.id), 'the new block stored with an id');
    if (!four) throw new Error("unreachable");
    await waitFor(async () => (await alice.content(id)).includes('typed in an editor'), 'the typing stored');

    const v2 = (await alice.post(V(id), { name: 'after' })).body;
    const expected = { [`api_key:${keyA}`]: [one!.id], [`editor:${keyB}`]: [two!.id, four.id].sort() };
    const list = (await alice.get(V(id))).body.versions;
    expect(list.map((v: { name: string }) => v.name)).toEqual(['after', 'before', 'start']);
    expect(byActor(list[0].changed_by)).toEqual(expected);
    expect(list[1].changed_by).toEqual([]); // nothing between the first two versions
    const single = (await alice.get(`${V(id)}/${v2.version_id}?format=markdown`)).body;
    expect(byActor(single.changed_by)).toEqual(expected);
    expect(single.changed_by.every((c: { last_changed_at: string }) => !Number.isNaN(Date.parse(c.last_changed_at)))).toBe(true);

    const diff = (await alice.get(`${V(id)}/diff?from=${v1.version_id}&to=${v2.version_id}`)).body;
    expect(byActor(diff.changed_by)).toEqual(expected);
    const who = (list: { block_id: string; changed_by: unknown }[], block: string) => list.find((c) => c.block_id === block)?.changed_by;
    expect(who(diff.diff.changed, one!.id)).toEqual([{ actor: 'api_key', key_id: keyA }]);
    expect(who(diff.diff.changed, two!.id)).toEqual([{ actor: 'editor', key_id: keyB }]);
    expect(who(diff.diff.added, four.id)).toEqual([{ actor: 'editor', key_id: keyB }]);

    // A restore is the REST caller's change of every block it puts back or removes.
    expect((await alice.edit(id, [{ type: 'delete_node', nodeId: three!.id }])).status).toBe(200);
    const r = await alice.post(`${V(id)}/${v1.version_id}/restore`, {});
    expect(r.status).toBe(200);
    const since = (await alice.get(`${V(id)}/diff?from=${v2.version_id}&to=current`)).body;
    expect(who(since.diff.removed, four.id)).toEqual([{ actor: 'api_key', key_id: keyA }]);
    expect(who(since.diff.changed, two!.id)).toEqual([{ actor: 'api_key', key_id: keyA }]);
    expect(byActor(r.body.version.changed_by ?? (await alice.get(`${V(id)}/${r.body.version.version_id}`)).body.changed_by)[`api_key:${keyA}`]).toEqual(
      expect.arrayContaining([one!.id, two!.id, four.id]),
    );
  } finally {
    editor.destroy();
  }
});

it('records consecutive commits of one actor on the same blocks as one run, ended by the next version or another change', async () => {
  const own = await startTestServer({});
  try {
    const c = await own.newClient();
    const engine = own.svc.ctx.engine;
    const id = await c.importMarkdown('# Title\n\nOne\n\nTwo\n');
    const [, one, two] = blocks(await c.model(id));
    const { seq } = (await engine.get<{ seq: number }>('SELECT seq FROM journals WHERE id = ?', [id]))!;
    const v0 = (await c.post(V(id), { name: 'start' })).body;
    const tableRows = () => engine.all<{ first_revision: number; last_revision: number; blocks: string }>('SELECT first_revision, last_revision, blocks FROM journal_activity WHERE journal_seq = ? ORDER BY seq', [seq]);
    const openRun = async () => {
      const r = (await engine.get<{ f: number | null; l: number | null }>('SELECT activity_first AS f, activity_last AS l FROM journals WHERE seq = ?', [seq]))!;
      return r.f === null ? null : [Number(r.f), Number(r.l)];
    };
    const setOne = async (text: string) => (await c.edit(id, [{ type: 'update_node', nodeId: one!.id, nodeType: 'paragraph', params: [{ content: text }] }])).body.revision as number;
    const r1 = await setOne('One, 1');
    await setOne('One, 2');
    const r3 = await setOne('One, 3');
    // Three commits, one actor, the same block: one open run, no row of their own.
    expect(await openRun()).toEqual([r1, r3]);
    expect(await tableRows()).toEqual([]);
    // Another block: the run ends (a row), a new one starts.
    const r4 = (await c.edit(id, [{ type: 'update_node', nodeId: two!.id, nodeType: 'paragraph', params: [{ content: 'Two, 1' }] }])).body.revision as number;
    expect((await tableRows()).map((r) => [Number(r.first_revision), Number(r.last_revision), JSON.parse(r.blocks)])).toEqual([[r1, r3, [one!.id]]]);
    expect(await openRun()).toEqual([r4, r4]);
    // A version ends the run too: its changes are recorded as they stand.
    const v1 = (await c.post(V(id), { name: 'after' })).body;
    expect(await openRun()).toBeNull();
    expect((await tableRows()).map((r) => [Number(r.first_revision), Number(r.last_revision)])).toEqual([
      [r1, r3],
      [r4, r4],
    ]);
    const r5 = await setOne('One, 4');
    expect(await openRun()).toEqual([r5, r5]);
    const list = (await c.get(V(id))).body.versions;
    expect(list.map((v: { version_id: string }) => v.version_id)).toEqual([v1.version_id, v0.version_id]);
    expect(byActor(list[0].changed_by)).toEqual({ [`api_key:${v1.created_by}`]: [one!.id, two!.id].sort() });
    const since = (await c.get(`${V(id)}/diff?from=${v1.version_id}&to=current`)).body;
    expect(byActor(since.changed_by)).toEqual({ [`api_key:${v1.created_by}`]: [one!.id] });
  } finally {
    await own.close();
  }
});
