import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { resolveApiKey, revokeApiKey } from '../../server/auth/keys.ts';
import { blocks, type Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { connectEditor, type Editor, editorBlocks, editorSuite, synced, typeInto, upgradeStatus, waitFor, wsUrl } from './helpers.ts';

let server: TestServer;
let alice: Client;
let bob: Client;
const editor = editorSuite({ env: { WS_MAX_PAYLOAD_BYTES: '65536' } }, async (s, c) => {
  server = s;
  alice = c;
  bob = await s.newClient();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const keyIdOf = async (key: string) => (await resolveApiKey(server.svc.ctx.engine, key))!.keyId;
const revoke = async (key: string) => revokeApiKey(server.svc.ctx.engine, await keyIdOf(key));

/** A raw, authenticated ws that records what it receives and how it closes. */
function rawSocket(id: string, key: string) {
  const ws = new WebSocket(`${wsUrl(server.url)}/${id}`, { headers: bearer(key) });
  const state = { messages: 0, closed: undefined as undefined | { code: number; reason: string } };
  ws.on('message', () => state.messages++);
  ws.on('close', (code, reason) => (state.closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  return { ws, state, opened: new Promise((r) => ws.once('open', r)) };
}

describe('refused upgrades', () => {
  it('refuses missing, unknown, foreign, expired, misdirected and revoked credentials before any data', async () => {
    const id = await alice.importMarkdown('Secret\n');
    const other = await alice.importMarkdown('Other\n');
    const url = `${wsUrl(server.url)}/${id}`;
    const keyId = await keyIdOf(alice.key!);
    const expired = server.svc.ctx.editorTokens.mint(id, keyId, Date.now() - 3_600_000).token;
    const forOther = server.svc.ctx.editorTokens.mint(other, keyId).token;
    const forged = server.svc.ctx.editorTokens.mint(id, keyId).token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const cases: [string, Record<string, string>, number][] = [
      [url, {}, 401],
      [url, bearer('sk_study_unknown'), 401],
      [`${url}?token=sk_study_unknown`, {}, 401],
      [url, bearer(bob.key!), 404],
      [`${wsUrl(server.url)}/00000000-0000-4000-8000-000000000000`, bearer(alice.key!), 404],
      [`${url}?token=${encodeURIComponent(expired)}`, {}, 401],
      [`${url}?token=${encodeURIComponent(forOther)}`, {}, 401],
      [`${url}?token=${encodeURIComponent(forged)}`, {}, 401],
      [`${server.url.replace(/^http/, 'ws')}/v1/journals/elsewhere/${id}`, bearer(alice.key!), 404],
    ];
    for (const [u, headers, status] of cases) {
      const r = await upgradeStatus(u, headers);
      expect(r.status, u).toBe(status);
      expect(typeof JSON.parse(r.body).error).toBe('string');
    }
    // The right credentials succeed: header key, ?token= key, ?token= editor token.
    expect((await upgradeStatus(url, bearer(alice.key!))).status).toBe(101);
    expect((await upgradeStatus(`${url}?token=${alice.key}`)).status).toBe(101);
    const tok = server.svc.ctx.editorTokens.mint(id, keyId).token;
    expect((await upgradeStatus(`${url}?token=${encodeURIComponent(tok)}`)).status).toBe(101);
    // Revoked keys and their editor tokens are refused.
    const carol = await server.sameOrgClient(alice);
    const carolId = await carol.importMarkdown('Carol\n');
    const carolTok = server.svc.ctx.editorTokens.mint(carolId, await keyIdOf(carol.key!)).token;
    await revoke(carol.key!);
    expect((await upgradeStatus(`${wsUrl(server.url)}/${carolId}`, bearer(carol.key!))).status).toBe(401);
    expect((await upgradeStatus(`${wsUrl(server.url)}/${carolId}?token=${encodeURIComponent(carolTok)}`)).status).toBe(401);
  });

  it('closes open connections of a revoked key with 4401, leaving other keys connected', async () => {
    const dave = await server.sameOrgClient(alice);
    const id = await dave.importMarkdown('Dave\n');
    const aliceId = await alice.importMarkdown('Alice\n');
    const d1 = editor(id, { key: dave.key });
    const d2 = editor(id, { key: dave.key });
    const a = editor(aliceId, { key: alice.key });
    await Promise.all([d1, d2, a].map(synced));
    await revoke(dave.key!);
    await waitFor(() => d1.closes.length > 0 && d2.closes.length > 0, 'revocation close');
    expect(d1.closes[0]).toEqual({ code: 4401, reason: 'API key revoked' });
    expect(d2.closes[0]!.code).toBe(4401);
    // Permanent: the stock client stops reconnecting on 44xx.
    expect(d1.provider.shouldConnect).toBe(false);
    expect(a.closes).toEqual([]);
    expect(a.provider.wsconnected).toBe(true);
  });
});

describe('journal lifecycle', () => {
  it('deleting a journal closes its editors with 4404', async () => {
    const id = await alice.importMarkdown('Doomed\n');
    const a = editor(id, { key: alice.key });
    const b = editor(id, { key: alice.key });
    await Promise.all([a, b].map(synced));
    expect((await alice.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    await waitFor(() => a.closes.length > 0 && b.closes.length > 0, 'close on delete');
    expect(a.closes[0]).toEqual({ code: 4404, reason: 'journal deleted' });
    expect(a.provider.shouldConnect).toBe(false);
    expect((await upgradeStatus(`${wsUrl(server.url)}/${id}`, bearer(alice.key!))).status).toBe(404);
  });

  it('keeps a journal loaded while editors are connected and unloads it after they leave', async () => {
    const s = await startTestServer({ env: { JOURNAL_IDLE_SECONDS: '0.2' } });
    try {
      const c = await s.newClient();
      const id = await c.importMarkdown('Idle\n');
      const e = connectEditor(s.url, id, { key: c.key });
      await synced(e);
      typeInto(e, editorBlocks(e)[0]!.id as string, 0, 'Still ');
      const live = s.svc.ctx.registry.get(id)!;
      await waitFor(() => live.fragment.toString().includes('Still'), 'typing on the server');
      await s.svc.ctx.registry.sweepIdle(Date.now() + 60_000);
      expect(s.svc.ctx.registry.get(id)).toBe(live);
      e.destroy();
      await waitFor(() => live.holders === 0, 'editor gone');
      await s.svc.ctx.registry.sweepIdle(Date.now() + 60_000);
      expect(s.svc.ctx.registry.get(id)).toBeUndefined();
      expect(await c.content(id)).toBe('Still Idle\n');
    } finally {
      await s.close();
    }
  });

  it('the memory cap unloads least recently used idle journals, never ones with editors', async () => {
    const s = await startTestServer({ env: { JOURNAL_MEMORY_CAP_MB: '0.1' } });
    try {
      const c = await s.newClient();
      const md = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} with some text in it.`).join('\n\n');
      const held = await c.importMarkdown(md);
      const e = connectEditor(s.url, held, { key: c.key });
      await synced(e);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const id = await c.importMarkdown(md);
        ids.push(id);
        await c.model(id);
      }
      const reg = s.svc.ctx.registry;
      expect(reg.get(held)).toBeDefined();
      expect(reg.get(ids[7]!)).toBeDefined();
      expect(reg.get(ids[0]!)).toBeUndefined();
      expect(reg.size).toBeLessThan(9);
      expect(blocks(await c.model(ids[0]!))).toHaveLength(40);
      e.destroy();
    } finally {
      await s.close();
    }
  });
});

describe('bad input', () => {
  it('closes only the offending connection on malformed, text and oversized frames; the journal keeps serving', async () => {
    const id = await alice.importMarkdown('Robust\n');
    const good = editor(id, { key: alice.key });
    await synced(good);
    const blockId = editorBlocks(good)[0]!.id as string;
    const frames: [string, Buffer | string, number][] = [
      ['garbage', Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1007],
      ['truncated sync', Buffer.from([0, 2, 50, 1, 2]), 1007],
      ['bad update payload', (() => {
        const e = encoding.createEncoder();
        encoding.writeVarUint(e, 0);
        encoding.writeVarUint(e, 2);
        encoding.writeVarUint8Array(e, Uint8Array.from([1, 1, 7, 9, 200, 3, 5, 5, 5, 5]));
        return Buffer.from(encoding.toUint8Array(e));
      })(), 1007],
      ['bad sync type', Buffer.from([0, 9, 0]), 1007],
      ['text frame', 'hello', 1003],
      ['oversized', Buffer.alloc(70_000, 1), 1009],
    ];
    for (const [what, frame, code] of frames) {
      const raw = rawSocket(id, alice.key!);
      await raw.opened;
      raw.ws.send(frame);
      await waitFor(() => raw.state.closed, what);
      expect(raw.state.closed!.code, what).toBe(code);
    }
    // Unknown message types are ignored: the connection stays and still answers a query.
    const raw = rawSocket(id, alice.key!);
    await raw.opened;
    await waitFor(() => raw.state.messages > 0, 'sync step 1');
    const before = raw.state.messages;
    raw.ws.send(Buffer.from([7, 1, 2, 3]));
    raw.ws.send(Buffer.from([3]));
    await waitFor(() => raw.state.messages > before, 'awareness answer');
    expect(raw.state.closed).toBeUndefined();
    raw.ws.close();
    // The good editor and REST still work, and the journal is intact.
    const other = editor(id, { key: alice.key });
    await synced(other);
    typeInto(good, blockId, 0, 'Still ');
    await waitFor(() => editorBlocks(other)[0]!.text === 'Still Robust', 'good editor still served');
    expect(await alice.content(id)).toBe('Still Robust\n');
    expect(good.closes).toEqual([]);
  });

  it('enforces connection limits per journal and per organization with 429', async () => {
    const s = await startTestServer({ env: { WS_MAX_CONNECTIONS_PER_JOURNAL: '2', WS_MAX_CONNECTIONS_PER_ORG: '3' } });
    const eds: Editor[] = [];
    try {
      const c = await s.newClient();
      const j1 = await c.importMarkdown('One\n');
      const j2 = await c.importMarkdown('Two\n');
      for (const j of [j1, j1, j2]) {
        const e = connectEditor(s.url, j, { key: c.key });
        eds.push(e);
        await synced(e);
      }
      const h = bearer(c.key!);
      const third = await upgradeStatus(`${wsUrl(s.url)}/${j1}`, h);
      expect(third.status).toBe(429);
      expect(JSON.parse(third.body).error).toMatch(/journal/);
      const orgFull = await upgradeStatus(`${wsUrl(s.url)}/${j2}`, h);
      expect(orgFull.status).toBe(429);
      expect(JSON.parse(orgFull.body).error).toMatch(/organization/);
      // Another organization is not affected.
      const d = await s.newClient();
      const j3 = await d.importMarkdown('Three\n');
      expect((await upgradeStatus(`${wsUrl(s.url)}/${j3}`, bearer(d.key!))).status).toBe(101);
      // A slot frees up when an editor leaves.
      eds.pop()!.destroy();
      await waitFor(() => s.svc.realtime.connectionCount === 2, 'editor gone');
      expect((await upgradeStatus(`${wsUrl(s.url)}/${j2}`, h)).status).toBe(101);
    } finally {
      for (const e of eds) e.destroy();
      await s.close();
    }
  });
});

describe('documents stay valid Yjs', () => {
  it('an update with missing dependencies is held, not persisted half, and completes when they arrive', async () => {
    const id = await alice.importMarkdown('Base\n');
    const a = editor(id, { key: alice.key });
    await synced(a);
    // Two updates from a third doc; send only the second first.
    const side = new Y.Doc();
    Y.applyUpdate(side, Y.encodeStateAsUpdate(a.doc));
    const frag = side.getXmlFragment('prosemirror');
    const updates: Uint8Array[] = [];
    side.on('update', (u: Uint8Array) => updates.push(u));
    const p = new Y.XmlElement('paragraph');
    frag.insert(frag.length, [p]);
    p.insert(0, [new Y.XmlText('late')]);
    const t = p.get(0) as Y.XmlText;
    t.insert(4, ' arrival');
    expect(updates).toHaveLength(3);
    const raw = rawSocket(id, alice.key!);
    await raw.opened;
    const send = (u: Uint8Array) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint8Array(e, u);
      raw.ws.send(encoding.toUint8Array(e));
    };
    send(updates[2]!);
    send(updates[1]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(blocks(await alice.model(id)).map((b) => b.text)).toEqual(['Base']);
    send(updates[0]!);
    await waitFor(() => editorBlocks(a).length === 2 && editorBlocks(a)[1]!.text === 'late arrival', 'completed update');
    expect(blocks(await alice.model(id)).map((b) => b.text)).toEqual(['Base', 'late arrival']);
    raw.ws.close();
  });
});

describe('rate limits', () => {
  it('counts each upgrade against the organization limit of GET /journals/realtime/{journal_id}', async () => {
    const dev = await server.newClient('developer');
    const id = await dev.importMarkdown('limited\n');
    server.svc.ctx.billing.setLimit(dev.orgId, 'GET /journals/realtime/{journal_id}', 'minute', 2);
    const url = `${wsUrl(server.url)}/${id}`;
    expect((await upgradeStatus(url, bearer(dev.key!))).status).toBe(101);
    expect((await upgradeStatus(url, bearer(dev.key!))).status).toBe(101);
    const refused = await upgradeStatus(url, bearer(dev.key!));
    expect(refused.status).toBe(429);
    const body = JSON.parse(refused.body);
    expect(body).toMatchObject({ error: expect.any(String), limit_type: 'minute' });
    expect(Number.isInteger(body.retry_after)).toBe(true);
    // another organization is not affected
    const other = await server.newClient('developer');
    const theirs = await other.importMarkdown('free\n');
    expect((await upgradeStatus(`${wsUrl(server.url)}/${theirs}`, bearer(other.key!))).status).toBe(101);
  });
});
