/**
 * The Hocuspocus endpoint (/v1/collaboration) with the real `@hocuspocus/provider` 4 in Node:
 * sync both ways with REST, awareness, many journals over one socket each authorised on its own,
 * auth failures, read-only tokens (and y-websocket's read-only close), REST edits reaching a
 * provider, a y-websocket editor beside a provider on one journal, schema refusals and revocation.
 */
import type { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as encoding from 'lib0/encoding';
import { afterEach, describe, expect, it } from 'vitest';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { resolveApiKey, revokeApiKey } from '../../server/auth/keys.ts';
import { blocks, serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { sleep, until } from '../helpers/wait.ts';
import { connectEditor, editorBlocks, synced, textOfY, typeInto, waitFor, type Editor } from './helpers.ts';
import { hocuspocusSocket, hpSaved, hpSynced, openDocument, type HpDoc } from './hocuspocus-helpers.ts';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

const sockets: HocuspocusProviderWebsocket[] = [];
const docs: HpDoc[] = [];
const editors: Editor[] = [];
afterEach(() => {
  for (const d of docs.splice(0)) d.provider.destroy();
  for (const s of sockets.splice(0)) s.destroy();
  for (const e of editors.splice(0)) e.destroy();
});

function socket(): HocuspocusProviderWebsocket {
  const s = hocuspocusSocket(server.url);
  sockets.push(s);
  return s;
}

function open(s: HocuspocusProviderWebsocket, id: string, token = c.key!): HpDoc {
  const d = openDocument(s, id, token);
  docs.push(d);
  return d;
}

/** Top-level blocks of a provider's document as { type, id, text }. */
function hpBlocks(d: HpDoc) {
  return editorBlocks({ fragment: d.fragment } as Editor);
}

function typeHp(d: HpDoc, blockId: string, index: number, text: string): void {
  typeInto({ doc: d.doc, fragment: d.fragment } as Editor, blockId, index, text);
}

/** Updates typed into a copy of `d`'s document (another client), one per text, each after the one before. */
function typedElsewhere(d: HpDoc, blockId: string, texts: string[]): Uint8Array[] {
  const side = new Y.Doc();
  Y.applyUpdate(side, Y.encodeStateAsUpdate(d.doc));
  const updates: Uint8Array[] = [];
  side.on('update', (u: Uint8Array) => updates.push(u));
  for (const text of texts) typeInto({ doc: side, fragment: side.getXmlFragment('prosemirror') } as Editor, blockId, 0, text);
  return updates;
}

/** Sends `update` on `s` as `d`'s provider sends its own (a Sync frame with its address). */
function sendUpdate(s: HocuspocusProviderWebsocket, d: HpDoc, update: Uint8Array): void {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, d.provider.effectiveName);
  encoding.writeVarUint(e, 0); // Sync
  syncProtocol.writeUpdate(e, update);
  s.send(encoding.toUint8Array(e));
}

async function session(journalId: string, scope?: 'read' | 'write') {
  const r = await c.request('POST', '/v1/journals/editor/session', scope ? { journal_id: journalId, scope } : { journal_id: journalId });
  expect(r.status).toBe(200);
  return r.body as { token: string; scope: string; collaboration_url: string };
}

describe('hocuspocus provider', () => {
  it('syncs a journal both ways with REST, and answers "saved" for its changes', async () => {
    const id = await c.importMarkdown('# Cells\n\nThe cell.\n');
    const d = open(socket(), id);
    await hpSynced(d);
    expect(d.authenticated).toBe('read-write');
    expect(hpBlocks(d).map((b) => b.text)).toEqual(['Cells', 'The cell.']);
    const para = hpBlocks(d)[1]!.id as string;
    typeHp(d, para, 0, 'Typed. ');
    await hpSaved(d);
    expect(d.statuses).toContain(true);
    expect(blocks(await c.model(id))[1]!.text).toBe('Typed. The cell.');
  });

  it('carries awareness between providers and to y-websocket editors', async () => {
    const id = await c.importMarkdown('# Presence\n');
    const a = open(socket(), id);
    const b = open(socket(), id);
    const e = connectEditor(server.url, id, { key: c.key });
    editors.push(e);
    await Promise.all([hpSynced(a), hpSynced(b), synced(e)]);
    a.provider.setAwarenessField('user', { name: 'Ada' });
    await waitFor(() => [...b.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'Ada'), 'b sees Ada');
    await waitFor(() => [...e.provider.awareness.getStates().values()].some((s) => s.user?.name === 'Ada'), 'y-websocket editor sees Ada');
    e.provider.awareness.setLocalStateField('user', { name: 'Grace' });
    await waitFor(() => [...a.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'Grace'), 'a sees Grace');
  });

  it('opens two journals over one socket, each authorised on its own', async () => {
    const one = await c.importMarkdown('# One\n');
    const two = await c.importMarkdown('# Two\n');
    const s = socket();
    const token = (await session(two)).token;
    const a = open(s, one);
    const b = open(s, two, token);
    await Promise.all([hpSynced(a), hpSynced(b)]);
    expect(hpBlocks(a)[0]!.text).toBe('One');
    expect(hpBlocks(b)[0]!.text).toBe('Two');
    typeHp(a, hpBlocks(a)[0]!.id as string, 3, ' plus');
    typeHp(b, hpBlocks(b)[0]!.id as string, 3, ' more');
    await Promise.all([hpSaved(a), hpSaved(b)]);
    expect(blocks(await c.model(one))[0]!.text).toBe('One plus');
    expect(blocks(await c.model(two))[0]!.text).toBe('Two more');
    // /metrics counts connections per protocol: the two journals open on this socket (once the
    // sockets of the tests before have gone).
    await until(async () => /^realtime_editor_connections\{protocol="hocuspocus"\} 2$/m.test(await (await fetch(`${server.url}/metrics`)).text()), 'metrics');
    expect(server.svc.collaboration.connectionCount).toBe(2);
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^realtime_editor_connections\{protocol="y-websocket"\} \d+$/m);
  });

  it('denies a document with a bad token, a token of another journal or a foreign journal, and serves the others on the socket', async () => {
    const mine = await c.importMarkdown('# Mine\n');
    const other = await c.importMarkdown('# Other\n');
    const third = await c.importMarkdown('# Third\n');
    const stranger = await server.newClient();
    const theirs = await stranger.importMarkdown('# Theirs\n');
    const s = socket();
    const ok = open(s, mine);
    const bad = open(s, third, 'sk_study_not_a_key');
    const wrongJournal = open(s, other, (await session(mine)).token);
    const foreign = open(s, theirs);
    await hpSynced(ok);
    await waitFor(() => bad.denied && wrongJournal.denied && foreign.denied, 'denials');
    expect(bad.denied).toMatch(/^401 /);
    expect(wrongJournal.denied).toBe('401 Editor token is for another journal');
    expect(foreign.denied).toBe('404 Journal not found');
    expect(bad.fragment.length + wrongJournal.fragment.length + foreign.fragment.length).toBe(0);
    typeHp(ok, hpBlocks(ok)[0]!.id as string, 0, 'Still ');
    await hpSaved(ok);
    expect(blocks(await c.model(mine))[0]!.text).toBe('Still Mine');
  });

  it('read-only tokens: the provider receives updates and awareness, its changes are answered "not saved" and never applied', async () => {
    const id = await c.importMarkdown('# Read\n\nonly\n');
    const ro = await session(id, 'read');
    expect(ro.scope).toBe('read');
    expect((await session(id)).scope).toBe('write');
    const bad = await c.request('POST', '/v1/journals/editor/session', { journal_id: id, scope: 'admin' });
    expect(bad.status).toBe(422);
    const writer = open(socket(), id);
    const reader = open(socket(), id, ro.token);
    await Promise.all([hpSynced(writer), hpSynced(reader)]);
    expect(reader.authenticated).toBe('readonly');
    const para = hpBlocks(writer)[1]!.id as string;
    typeHp(writer, para, 0, 'w ');
    await waitFor(() => hpBlocks(reader)[1]?.text === 'w only', 'reader gets the update');
    writer.provider.setAwarenessField('user', { name: 'W' });
    await waitFor(() => [...reader.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'W'), 'reader sees awareness');
    const before = reader.statuses.length;
    typeHp(reader, para, 0, 'r ');
    await waitFor(() => reader.statuses.length > before, 'status for the reader');
    expect(reader.statuses.at(-1)).toBe(false);
    await hpSaved(writer);
    expect(blocks(await c.model(id))[1]!.text).toBe('w only');
  });

  it('answers an update that arrives before the one it depends on "saved" once both are in and stored', async () => {
    // What the provider does after a reconnect: updates it queued while disconnected are sent after
    // those typed once the socket is open, so the server receives an update before its dependency.
    const id = await c.importMarkdown('# Held\n\nback\n');
    const s = socket();
    const d = open(s, id);
    await hpSaved(d); // its sync answered: the statuses from here on are for what follows
    const [heading, para] = hpBlocks(d).map((b) => b.id as string);
    const [first, second] = typedElsewhere(d, para!, ['one ', 'two ']);
    const before = d.statuses.length;
    sendUpdate(s, d, second!);
    typeHp(d, heading!, 0, 'x'); // handled after the held update, answered once stored
    await waitFor(() => d.statuses.length > before, "status of the provider's own update");
    await sleep(100);
    expect(d.statuses.slice(before)).toEqual([true]); // nothing yet for the held one
    sendUpdate(s, d, first!);
    await waitFor(() => d.statuses.length >= before + 3, 'statuses of both');
    expect(d.statuses.slice(before)).toEqual([true, true, true]);
    expect(blocks(await c.model(id)).map((b) => b.text)).toEqual(['xHeld', 'two one back']);
    await hpSaved(d);
  });

  it('answers a held update "not saved" when what the journal held is dropped', async () => {
    const id = await c.importMarkdown('# Held\n\nback\n');
    const s = socket();
    const d = open(s, id);
    const otherSocket = socket();
    const other = open(otherSocket, id);
    await Promise.all([hpSaved(d), hpSynced(other)]);
    const [heading, para] = hpBlocks(d).map((b) => b.id as string);
    const [first, second] = typedElsewhere(d, para!, ['one ', 'two ']);
    const before = d.statuses.length;
    sendUpdate(s, d, second!);
    // Another connection's held updates over the cap (256 KiB): everything held is dropped.
    const [, big] = typedElsewhere(other, para!, ['a', 'b'.repeat(300 * 1024)]);
    sendUpdate(otherSocket, other, big!);
    await waitFor(() => other.closes.length > 0, 'the other document closed');
    typeHp(d, heading!, 0, 'x');
    await waitFor(() => d.statuses.length >= before + 2, 'statuses');
    expect(d.statuses.slice(before)).toEqual([false, true]);
    sendUpdate(s, d, first!);
    await waitFor(() => d.statuses.length >= before + 3, 'status of the first');
    expect(d.statuses.slice(before)).toEqual([false, true, true]);
    expect(blocks(await c.model(id)).map((b) => b.text)).toEqual(['xHeld', 'one back']);
    // The other socket was closed (1013) and reconnects: destroyed while connecting, ws would throw.
    await waitFor(() => otherSocket.status === 'connected', 'the other socket connected again');
  });

  it('read-only tokens on y-websocket: the editor syncs, an update with changes closes it with 4405', async () => {
    const id = await c.importMarkdown('# Read\n\nonly\n');
    const e = connectEditor(server.url, id, { token: (await session(id, 'read')).token });
    editors.push(e);
    await synced(e);
    await sleep(100); // its empty sync step 2 is ignored, not refused
    expect(e.closes).toEqual([]);
    typeInto(e, editorBlocks(e)[1]!.id as string, 0, 'r ');
    await waitFor(() => e.closes.length > 0, 'closed');
    expect(e.closes[0]).toEqual({ code: 4405, reason: 'read-only connection: updates are refused' });
    expect(blocks(await c.model(id))[1]!.text).toBe('only');
  });

  it('a REST edit with sync_realtime_state reaches a provider; one without waits for its next sync', async () => {
    const id = await c.importMarkdown('# Rest\n');
    const d = open(socket(), id);
    await hpSynced(d);
    const head = hpBlocks(d)[0]!.id as string;
    expect((await c.edit(id, [{ type: 'update_node', nodeId: head, nodeType: 'heading', params: [1, 'Pushed'] }])).status).toBe(200);
    await waitFor(() => hpBlocks(d)[0]?.text === 'Pushed', 'pushed edit');
    await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'quiet' }] }], { sync_realtime_state: false });
    await sleep(200);
    expect(hpBlocks(d).map((b) => b.text)).toEqual(['Pushed']);
    d.provider.forceSync();
    await waitFor(() => hpBlocks(d).length === 2, 'quiet edit after a sync');
  });

  it('a y-websocket editor and a provider on one journal see each other\'s typing', async () => {
    const id = await c.importMarkdown('# Both\n\nprotocols\n');
    const e = connectEditor(server.url, id, { key: c.key });
    editors.push(e);
    const d = open(socket(), id);
    await Promise.all([synced(e), hpSynced(d)]);
    const para = editorBlocks(e)[1]!.id as string;
    typeInto(e, para, 0, 'ws ');
    await waitFor(() => hpBlocks(d)[1]?.text === 'ws protocols', 'provider sees y-websocket typing');
    typeHp(d, para, 0, 'hp ');
    await waitFor(() => editorBlocks(e)[1]?.text === 'hp ws protocols', 'y-websocket editor sees provider typing');
    await hpSaved(d);
    expect(blocks(await c.model(id))[1]!.text).toBe('hp ws protocols');
  });

  it('gives blocks made in a provider ids, and refuses an update outside the schema by closing that document (4422)', async () => {
    const id = await c.importMarkdown('# Schema\n');
    const s = socket();
    const d = open(s, id);
    const other = await c.importMarkdown('# Kept\n');
    const kept = open(s, other);
    await Promise.all([hpSynced(d), hpSynced(kept)]);
    d.doc.transact(() => {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText('new block')]);
      d.fragment.insert(1, [p]);
    });
    await waitFor(() => typeof hpBlocks(d)[1]?.id === 'string', 'server gave the block an id');
    d.fragment.insert(0, [new Y.XmlText('text straight in the fragment')]);
    await waitFor(() => d.closes.length > 0, 'document closed');
    expect(d.closes[0]).toMatch(/^4422 update refused: /);
    expect(blocks(await c.model(id)).map((b) => b.text)).toEqual(['Schema', 'new block']);
    typeHp(kept, hpBlocks(kept)[0]!.id as string, 0, 'still ');
    await hpSaved(kept);
    expect(blocks(await c.model(other))[0]!.text).toBe('still Kept');
  });

  it('closes the documents of a revoked key with 4401, leaving other keys\' documents on the socket open', async () => {
    const dave = await server.newClient();
    const mine = await c.importMarkdown('# Stays\n');
    const theirs = await dave.importMarkdown('# Revoke\n');
    const s = socket();
    const kept = open(s, mine);
    const d = open(s, theirs, dave.key!);
    await Promise.all([hpSynced(d), hpSynced(kept)]);
    expect(textOfY(d.fragment.get(0) as Y.XmlElement)).toBe('Revoke');
    await revokeApiKey(server.svc.ctx.engine, (await resolveApiKey(server.svc.ctx.engine, dave.key!))!.keyId);
    await server.svc.collaboration.closeRevoked();
    await waitFor(() => d.closes.length > 0, 'closed');
    expect(d.closes[0]).toBe('4401 API key revoked');
    typeHp(kept, hpBlocks(kept)[0]!.id as string, 0, 'still ');
    await hpSaved(kept);
    expect(blocks(await c.model(mine))[0]!.text).toBe('still Stays');
  });
});
