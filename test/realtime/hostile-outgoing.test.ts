/**
 * What the server sends is bounded per connection (docs/realtime.md, "Outgoing bytes"):
 * - sync step 1 requests are answered one at a time per connection, those arriving meanwhile merged
 *   into one answer: 100 requests of 4 bytes no longer make the server send 100 copies of the state;
 * - the full state is encoded once per revision and the same bytes go to every joiner, never one
 *   copy per connection: 20 connections that never read, each asking twice, add almost nothing to
 *   the server's memory, and what they held is given back when they leave;
 * - updates queued to a connection that does not read are bounded (WS_MAX_QUEUED_BYTES): past it
 *   the connection is closed (1013) and its queue dropped; the other editors go on.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { prepareDataDir, startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';
import { connectEditor, editorBlocks, synced, typeInto, waitFor, type Editor } from './helpers.ts';
import { rawSocket, type RawSocket } from './hostile-helpers.ts';

const MB = 1024 * 1024;

/** Sync step 1 with an empty state vector, as a fresh y-websocket client sends it (4 bytes). */
const EMPTY_STEP1 = Uint8Array.from([0, 0, 1, 0]);

/** Paragraphs of `blockBytes` characters added by `e` until about `bytes` were added; resolves when stored. */
async function grow(client: Client, id: string, e: Editor, bytes: number, blockBytes = 64 * 1024): Promise<number> {
  const n = Math.ceil(bytes / blockBytes);
  e.doc.transact(() => {
    const els = Array.from({ length: n }, (_, i) => {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText(`${i} `.padEnd(blockBytes, 'abcdefgh'))]);
      return p;
    });
    e.fragment.insert(e.fragment.length, els);
  });
  await until(async () => (await client.content(id)).length > bytes, 'the journal stored', 60_000);
  return Y.encodeStateAsUpdate(e.doc).byteLength;
}

/** Sync step 2 answers among what a raw socket received. */
const step2s = (raw: RawSocket) => raw.received.filter((m) => m[0] === 0 && m[1] === 1);

describe('in process', () => {
  let server: TestServer;
  let alice: Client;
  const editors: Editor[] = [];
  beforeAll(async () => {
    server = await startTestServer({ env: { WS_MAX_PAYLOAD_BYTES: String(MB), WS_MAX_QUEUED_BYTES: String(MB), WS_MAX_BYTES_PER_SECOND: '0' } });
    alice = await server.newClient();
  });
  afterAll(async () => {
    for (const e of editors) e.destroy();
    await server.close();
  });
  const editor = (id: string) => {
    const e = connectEditor(server.url, id, { key: alice.key });
    editors.push(e);
    return e;
  };

  it('answers 100 sync step 1 requests sent at once with at most 2 copies of the state', async () => {
    const id = await alice.importMarkdown('# Asked often\n');
    const e = editor(id);
    await synced(e);
    const state = await grow(alice, id, e, 900 * 1024);
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    for (let i = 0; i < 100; i++) void raw.send(EMPTY_STEP1);
    await waitFor(() => step2s(raw).length >= 1, 'a first answer');
    await raw.roundTrip(); // every request handled
    await new Promise((r) => setTimeout(r, 300));
    const answers = step2s(raw);
    expect(answers.length).toBeLessThanOrEqual(2);
    expect(answers.reduce((n, m) => n + m.byteLength, 0)).toBeLessThan(2.1 * state);
    expect(raw.closed).toBeUndefined();
    raw.ws.close();
  });

  it('closes a connection that does not read once its queued updates pass WS_MAX_QUEUED_BYTES; the others go on', async () => {
    const id = await alice.importMarkdown('# Relayed\n\nTyped here.\n');
    const writer = editor(id);
    const reader = editor(id);
    await Promise.all([writer, reader].map(synced));
    const live = server.svc.ctx.registry.get(id)!;
    const stalled = rawSocket(server.url, id, alice.key!);
    await stalled.opened;
    await waitFor(() => live.holders === 3, 'three editors');
    stalled.ws.pause(); // reads nothing from now on
    const blockId = editorBlocks(writer)[1]!.id as string;
    // 64 KiB pastes; the kernel's socket buffers take a few MB before the server's queue grows.
    // Each paste waits until the reading editor has it: that editor lives in this process, as the
    // server does, so pastes sent faster than it reads would fill its queue too.
    for (let i = 0; i < 400 && live.holders === 3; i++) {
      typeInto(writer, blockId, 0, `${i}`.padEnd(64 * 1024, 'z'));
      await waitFor(() => live.holders < 3 || (editorBlocks(reader)[1]?.text ?? '').startsWith(`${i}z`), `paste ${i} read`, 10_000);
    }
    await waitFor(() => live.holders === 2, 'the stalled connection closed', 30_000);
    expect(live.queuedBytes).toBeGreaterThanOrEqual(0);
    await waitFor(() => live.queuedBytes === 0, 'queues written or dropped');
    // The reading editor got everything.
    await waitFor(() => editorBlocks(reader)[1]?.text === editorBlocks(writer)[1]?.text, 'reader caught up', 30_000);
    expect(reader.closes).toEqual([]);
    stalled.ws.resume();
    const closed = await stalled.waitClosed('close seen by the client', 30_000);
    expect([1013, 1006]).toContain(closed.code);
  });
});

describe('a server in its own process', () => {
  let server: ChildServer;
  let alice: Client;
  beforeAll(async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    server = await startChildServer(dataDir, { LOG_LEVEL: 'info' });
    alice = new Client(server.url, key, orgId);
  });
  afterAll(() => {
    server.child.kill('SIGKILL');
  });

  const rss = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) * 1024;

  it('20 connections that never read, each asking twice for the state, hold one copy; RSS is back near the baseline after they leave', async () => {
    const id = await alice.importMarkdown('# Class\n');
    const e = connectEditor(server.url, id, { key: alice.key });
    try {
      await synced(e);
      const state = await grow(alice, id, e, 4 * MB);
      // Baseline: the journal loaded and one joiner served.
      const first = rawSocket(server.url, id, alice.key!);
      await first.opened;
      await first.send(EMPTY_STEP1);
      await waitFor(() => step2s(first).length === 1, 'a joiner served');
      first.ws.close();
      await new Promise((r) => setTimeout(r, 500));
      const baseline = rss();

      const stalled = Array.from({ length: 20 }, () => rawSocket(server.url, id, alice.key!));
      await Promise.all(stalled.map((r) => r.opened));
      for (const r of stalled) {
        r.ws.pause();
        await r.send(EMPTY_STEP1);
        await r.send(EMPTY_STEP1);
      }
      let peak = rss();
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 100));
        peak = Math.max(peak, rss());
      }
      for (const r of stalled) r.ws.terminate();
      let after = rss();
      await until(() => (after = rss()) < baseline + 32 * MB, 'memory given back', 10_000).catch(() => undefined);
      const figures = `state ${(state / MB).toFixed(1)} MB; RSS baseline ${(baseline / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, after ${(after / MB).toFixed(0)} MB`;
      // 40 answers of 4 MB each would be 160 MB (twice that with their framing copies).
      expect(peak - baseline, figures).toBeLessThan(2 * state + 32 * MB);
      expect(after - baseline, figures).toBeLessThan(32 * MB);
    } finally {
      e.destroy();
    }
  });
});
