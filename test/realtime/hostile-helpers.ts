/**
 * Raw WebSocket clients speaking y-protocols by hand, for the hostile-* suites: they send what a
 * stock client never would and record what the server sends back and how it closes.
 */
import { Writable } from 'node:stream';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import pino from 'pino';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { waitFor, wsUrl } from './helpers.ts';

export interface RawSocket {
  ws: WebSocket;
  received: Uint8Array[];
  closed?: { code: number; reason: string };
  opened: Promise<void>;
  /** Sends and resolves once the frame is handed to the socket (or the socket is gone). */
  send(message: Uint8Array): Promise<void>;
  waitClosed(what?: string, ms?: number): Promise<{ code: number; reason: string }>;
  /** A query-awareness round trip: resolves when the server answered it (it is still reading). */
  roundTrip(): Promise<void>;
}

export function rawSocket(httpUrl: string, journalId: string, key: string, opts: { autoPong?: boolean } = {}): RawSocket {
  const ws = new WebSocket(`${wsUrl(httpUrl)}/${journalId}`, { headers: { authorization: `Bearer ${key}` }, autoPong: opts.autoPong ?? true });
  const raw: RawSocket = {
    ws,
    received: [],
    opened: new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    }),
    send: (message) =>
      new Promise((resolve) => {
        if (ws.readyState !== ws.OPEN) return resolve();
        ws.send(message, () => resolve());
      }),
    waitClosed: (what = 'close', ms = 10_000) => waitFor(() => raw.closed, what, ms),
    async roundTrip() {
      const before = raw.received.length;
      await raw.send(Uint8Array.from([3]));
      await waitFor(() => raw.received.slice(before).some((m) => m[0] === 1) || raw.closed, 'awareness answer');
      if (raw.closed) throw new Error(`closed: ${raw.closed.code} ${raw.closed.reason}`);
    },
  };
  ws.on('message', (data: Buffer) => raw.received.push(new Uint8Array(data)));
  ws.on('close', (code, reason) => (raw.closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  return raw;
}

/** A y-websocket sync message carrying a Yjs update. */
export function syncUpdate(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

/** A y-websocket awareness message; `state` is JSON-encoded (null removes). */
export function awarenessMessage(entries: { clientId: number; clock: number; state: unknown }[]): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, entries.length);
  for (const { clientId, clock, state } of entries) {
    encoding.writeVarUint(inner, clientId);
    encoding.writeVarUint(inner, clock);
    encoding.writeVarString(inner, JSON.stringify(state));
  }
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint8Array(e, encoding.toUint8Array(inner));
  return encoding.toUint8Array(e);
}

/** Every awareness client id mentioned in awareness messages the server sent to `raw`. */
export function awarenessIdsReceived(raw: RawSocket): Set<number> {
  const ids = new Set<number>();
  for (const m of raw.received) {
    const d = decoding.createDecoder(m);
    if (decoding.readVarUint(d) !== 1) continue;
    const inner = decoding.createDecoder(decoding.readVarUint8Array(d));
    const n = decoding.readVarUint(inner);
    for (let i = 0; i < n; i++) {
      ids.add(decoding.readVarUint(inner));
      decoding.readVarUint(inner);
      decoding.readVarString(inner);
    }
  }
  return ids;
}

/**
 * A document holding the journal's state (from a synced editor), whose updates are recorded one
 * per transaction, under a client id of its own.
 */
export function sideDoc(from: Y.Doc): { doc: Y.Doc; fragment: Y.XmlFragment; updates: Uint8Array[] } {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(from));
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  return { doc, fragment: doc.getXmlFragment('prosemirror'), updates };
}

/** A pino logger whose JSON lines land in `lines` (for warn lines the suites check). */
export function captureLogs(level = 'warn'): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** Sends `messages` on a raw editor socket as fast as it takes them, until done or closed. */
export async function flood(url: string, key: string, journalId: string, messages: Iterable<Uint8Array>): Promise<{ status: number }> {
  const raw = rawSocket(url, journalId, key);
  await raw.opened;
  for (const m of messages) {
    if (raw.closed) break;
    await raw.send(m);
  }
  const closed = await raw.waitClosed('close', 30_000).catch(() => undefined);
  raw.ws.terminate();
  return { status: closed?.code ?? 0 };
}

/**
 * Updates that all wait for one never-sent insertion, so Yjs would hold every one of them. Each
 * comes from a small document of its own (its own client id), so making them costs nothing.
 */
export function* heldUpdates(totalBytes: number): Generator<Uint8Array> {
  const base = new Y.Doc();
  base.getText('t').insert(0, 'never sent');
  const baseState = Y.encodeStateAsUpdate(base);
  const baseVector = Y.encodeStateVector(base);
  let sent = 0;
  for (let i = 0; sent < totalBytes; i++) {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, baseState);
    doc.getText('t').insert(10, `chunk ${i} `.padEnd(4000, 'x'));
    const update = Y.encodeStateAsUpdate(doc, baseVector);
    doc.destroy();
    sent += update.byteLength;
    yield syncUpdate(update);
  }
}

/** `count` one-character insertions into a paragraph of its own (the first update adds it). */
export function* smallUpdates(count: number): Generator<Uint8Array> {
  const doc = new Y.Doc();
  const p = new Y.XmlElement('paragraph');
  const text = new Y.XmlText();
  for (let i = 0; i < count; i++) {
    const sv = Y.encodeStateVector(doc);
    if (i === 0) {
      doc.getXmlFragment('prosemirror').insert(0, [p]);
      p.insert(0, [text]);
    } else text.insert(text.length, 'x');
    yield syncUpdate(Y.encodeStateAsUpdate(doc, sv));
  }
}

