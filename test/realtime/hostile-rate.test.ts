/**
 * Per-connection rate limits (WS_MAX_MESSAGES_PER_SECOND / _BURST, WS_MAX_BYTES_PER_SECOND /
 * _BURST, defaults here): a flood is closed with 1013 while other editors and the HTTP API keep
 * being served; a person typing fast and pasting large text is never limited.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Client, type TestServer } from '../helpers/server.ts';
import { editorBlocks, editorSuite, synced, textOfY, typeInto, waitFor } from './helpers.ts';
import { rawSocket, sideDoc, syncUpdate } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

describe('message and byte rates per connection', () => {
  it('closes a flood of 5,000 small updates with 1013; other editors and /healthz keep being served', async () => {
    const id = await alice.importMarkdown('Flood\n\nCalm\n');
    const a = editor(id);
    const b = editor(id);
    await Promise.all([a, b].map(synced));
    const side = sideDoc(a.doc);
    const text = (side.fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    for (let i = 0; i < 5000; i++) text.insert(0, 'x');
    const flood = side.updates.splice(0).map(syncUpdate);

    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    for (const m of flood) raw.ws.send(m);
    const health: number[] = [];
    while (!raw.closed) {
      health.push((await fetch(`${server.url}/healthz`)).status);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(raw.closed).toMatchObject({ code: 1013, reason: expect.stringMatching(/rate limit: more than 100 messages per second/) });
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((s) => s === 200)).toBe(true);
    // The burst (500) and what refilled meanwhile were applied; the rest were never read.
    const live = server.svc.ctx.registry.get(id)!;
    expect(textOfY(live.fragment.get(0) as Y.XmlElement).length).toBeLessThan(2000);

    // The other editors were not disturbed.
    const calm = editorBlocks(a)[1]!.id as string;
    typeInto(a, calm, 0, 'Still ');
    await waitFor(() => editorBlocks(b)[1]?.text === 'Still Calm', 'normal editor served');
    expect(a.closes).toEqual([]);
    expect(b.closes).toEqual([]);
  });

  it('closes a connection sending more bytes than the byte bucket holds', async () => {
    const id = await alice.importMarkdown('Bytes\n');
    const raw = rawSocket(server.url, id, alice.key!);
    await raw.opened;
    // Messages of an unknown type are ignored but still counted: 24 x 1 MiB > the 16 MiB burst.
    const junk = new Uint8Array(1024 * 1024);
    junk[0] = 7;
    for (let i = 0; i < 24 && !raw.closed; i++) await raw.send(junk);
    const closed = await raw.waitClosed();
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/bytes per second/);
  });

  it('never limits a person typing fast and pasting large text', async () => {
    const id = await alice.importMarkdown('Typist\n');
    const a = editor(id);
    const b = editor(id);
    await Promise.all([a, b].map(synced));
    const block = editorBlocks(a)[0]!.id as string;
    // 200 keystrokes, each with a cursor move as y-prosemirror sends them, arriving at once: ten
    // seconds of very fast typing held up by a network stall.
    for (let i = 0; i < 200; i++) {
      typeInto(a, block, 0, 'k');
      a.provider.awareness.setLocalStateField('cursor', { anchor: i, head: i });
    }
    // Two large pastes.
    const paste = 'lorem ipsum '.repeat(200_000); // 2.4 MB
    const frag = a.fragment;
    for (let i = 0; i < 2; i++) {
      const p = new Y.XmlElement('paragraph');
      frag.insert(frag.length, [p]);
      p.insert(0, [new Y.XmlText(paste)]);
    }
    await waitFor(() => editorBlocks(b).length === 3 && editorBlocks(b)[0]!.text.startsWith('k'.repeat(200)), 'everything on the other editor', 20_000);
    expect(a.closes).toEqual([]);
    expect(a.provider.wsconnected).toBe(true);
  });
});
