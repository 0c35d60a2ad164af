/**
 * Our server on SQLite vs Hocuspocus 3 (issue 13, item 8), same load in the same run: one writer
 * sends 5,000 small Yjs updates (one character typed each, at the end of a paragraph of a
 * 50-paragraph document) as fast as its socket takes them, and one listener receives them.
 * Both servers run as child processes of this one, which runs both clients; 2,000 updates warm
 * each server up first (not timed), then the servers take turns, three rounds each: the figures
 * are the medians.
 *
 * - Ours (server/main.ts, default settings but no per-connection rate limits): updates per second
 *   durably stored, the clock stopping when the journal's revision in the SQLite file (read by
 *   this process) shows all of them committed. Updates are committed before they are broadcast,
 *   so the listener's figure is there for comparison only. Once more with SQLITE_SYNCHRONOUS=full
 *   (an fsync per group commit), for information.
 * - Hocuspocus (@hocuspocus/server 3.4.4 `Server`, default settings: `debounce` 2000 ms,
 *   `maxDebounce` 10000 ms) with @hocuspocus/extension-database storing the document state into a
 *   better-sqlite3 file from its `store` hook (the table of @hocuspocus/extension-sqlite). Its
 *   updates per second acknowledged (each update answered with a SyncStatus message) and applied
 *   (received by the listener); how many of them the file held at that moment; and how long until
 *   it held them all.
 * Goal: ours >= Hocuspocus's (the higher of its two rates).
 *
 * Hocuspocus's client protocol: @hocuspocus/provider is not installed, so the clients here frame
 * messages as its server reads them (node_modules/@hocuspocus/server/src/ClientConnection.ts,
 * MessageReceiver.ts): every message starts with the document name (varString), then the message
 * type (varUint: 0 sync, 1 awareness, 2 auth, 4 sync reply, 8 sync status). A connection first
 * sends auth (2, then 0 "token", then the token string; no onAuthenticate hook, so any token),
 * then sync step 1; sync messages carry y-protocols' sync messages unchanged.
 *
 * The closed loop (issue 33), first: 10 journals on each server, each with one writer and one
 * listener (ws + y-protocols, one Y.Doc per connection); each writer types one character, waits
 * until its listener has it, then types the next. Both servers run at once and take turns (four
 * windows of 2.5 s each, after a 2 s warm-up). Printed: updates per second reaching the listeners,
 * updates per second durably stored (in the file), and server CPU per 1,000 updates (utime +
 * stime of the child process from /proc/<pid>/stat), each ours vs Hocuspocus with goal and
 * verdict. docs/performance.md has the figures and the profile of one update.
 * BENCH_HOCUSPOCUS_PARTS=loop runs the closed loop alone; BENCH_LOOP_SECONDS sets its length;
 * BENCH_HOCUSPOCUS_PROFILE=<dir> profiles our server through the loop and an open burst instead.
 *
 * This file is also the Hocuspocus child: run with BENCH_HOCUSPOCUS_FILE set, it serves and
 * prints its WebSocket URL.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { createOrgWithKey, startChildServer } from '../test/helpers/child-server.ts';
import { until } from '../test/helpers/wait.ts';
import { percentile, RawEditor } from './realtime.ts';

const N = 5000;
const WARM = 2000;
const ROUNDS = 3;
const DOC_NAME = 'bench';
const WS_PATH = '/v1/journals/realtime';
const MD = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} of a journal with editors.`).join('\n\n');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `until` with the bench's bounds: a minute, polled every millisecond (the clock may stop right after). */
const waitFor = (check: () => boolean, what: string, ms = 60_000, every = 1) => until(check, what, ms, every);

/** The first paragraph's text: where the writer types. */
function firstText(doc: Y.Doc): Y.XmlText | undefined {
  const el = doc.getXmlFragment('prosemirror').get(0) as Y.XmlElement | undefined;
  const t = el?.get(0);
  return t instanceof Y.XmlText ? t : undefined;
}

function textLength(doc: Y.Doc): number {
  return firstText(doc)?.length ?? 0;
}

/** `count` updates, each typing one 'x' at the end of the first paragraph, made before any is sent. */
function typedUpdates(doc: Y.Doc, count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const h = (u: Uint8Array, origin: unknown) => {
    if (origin === null) out.push(u);
  };
  doc.on('update', h);
  const text = firstText(doc)!;
  for (let i = 0; i < count; i++) text.insert(text.length, 'x');
  doc.off('update', h);
  return out;
}

// ------------------------------------------------------------------------------------------------
// Hocuspocus: the child process, and a client speaking its framing
// ------------------------------------------------------------------------------------------------

async function serveHocuspocus(file: string): Promise<void> {
  const { Server } = await import('@hocuspocus/server');
  const { Database } = await import('@hocuspocus/extension-database');
  const db = new BetterSqlite3(file);
  db.exec('CREATE TABLE IF NOT EXISTS "documents" ("name" varchar(255) NOT NULL, "data" blob NOT NULL, UNIQUE(name))');
  const select = db.prepare('SELECT data FROM documents WHERE name = ?');
  const upsert = db.prepare('INSERT INTO documents (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data');
  const server = new Server({
    port: 0,
    address: '127.0.0.1',
    quiet: true,
    extensions: [
      new Database({
        fetch: async ({ documentName }) => (select.get(documentName) as { data: Buffer } | undefined)?.data ?? null,
        store: async ({ documentName, state }) => void upsert.run(documentName, state),
      }),
    ],
  });
  await server.listen();
  process.stdout.write(`${JSON.stringify({ hocuspocusUrl: server.webSocketURL })}\n`);
}

const HP_SYNC = 0;
const HP_AUTH = 2;
const HP_SYNC_REPLY = 4;
const HP_SYNC_STATUS = 8;

class HocuspocusClient {
  readonly doc = new Y.Doc();
  /** Called after each message (the closed loop's listener). */
  onMessage?: () => void;
  readonly ws: WebSocket;
  synced = false;
  /** SyncStatus messages with "applied" set. */
  acks = 0;
  problem?: string;

  constructor(
    url: string,
    private readonly name = DOC_NAME,
  ) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('open', () => {
      const auth = this.header(HP_AUTH);
      encoding.writeVarUint(auth, 0); // AuthMessageType.Token
      encoding.writeVarString(auth, 'no-token');
      this.ws.send(encoding.toUint8Array(auth));
      const step1 = this.header(HP_SYNC);
      syncProtocol.writeSyncStep1(step1, this.doc);
      this.ws.send(encoding.toUint8Array(step1));
    });
    this.ws.on('message', (data: Buffer) => {
      const d = decoding.createDecoder(data);
      decoding.readVarString(d); // the document name
      const type = decoding.readVarUint(d);
      if (type === HP_SYNC || type === HP_SYNC_REPLY) {
        const reply = this.header(HP_SYNC);
        const empty = encoding.length(reply);
        const t = syncProtocol.readSyncMessage(d, reply, this.doc, this);
        if (t === syncProtocol.messageYjsSyncStep2) this.synced = true;
        if (encoding.length(reply) > empty + 1) this.ws.send(encoding.toUint8Array(reply));
      } else if (type === HP_SYNC_STATUS) {
        if (decoding.readVarUint(d) === 1) this.acks++;
      } else if (type === HP_AUTH) {
        if (decoding.readVarUint(d) === 1) this.problem = `permission denied: ${decoding.readVarString(d)}`;
      }
      this.onMessage?.();
    });
    this.ws.on('error', (e) => (this.problem = e.message));
  }

  private header(type: number): encoding.Encoder {
    const e = encoding.createEncoder();
    encoding.writeVarString(e, this.name);
    encoding.writeVarUint(e, type);
    return e;
  }

  send(update: Uint8Array): void {
    const e = this.header(HP_SYNC);
    syncProtocol.writeUpdate(e, update);
    this.ws.send(encoding.toUint8Array(e));
  }
}

async function startHocuspocusChild(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: root,
    env: { ...process.env, BENCH_HOCUSPOCUS_FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      const m = /\{"hocuspocusUrl":"([^"]+)"\}/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the Hocuspocus child exited early with ${code}`)));
  });
  return { child, url };
}

// ------------------------------------------------------------------------------------------------
// The runs
// ------------------------------------------------------------------------------------------------

/** One timed round: ms from sending the first of `n` updates. */
interface OurRound {
  /** Until the SQLite file shows all `n` committed. */
  durableMs: number;
  /** Until the listener has received all `n`. */
  listenerMs: number;
}

/** Our server on SQLite (a child process) with a writer and a listener on one journal. */
class OurSession {
  private constructor(
    private readonly stop: () => Promise<void>,
    private readonly writer: RawEditor,
    private readonly listener: RawEditor,
    private readonly revision: () => number,
    /** The document before anything was typed: Hocuspocus's writer starts from it too. */
    readonly seed: Uint8Array,
  ) {}

  static async start(env: Record<string, string>): Promise<OurSession> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-hp-ours-'));
    const file = path.join(dataDir, 'study.db');
    const { key } = await createOrgWithKey(file, 'bench-hocuspocus');
    const server = await startChildServer(dataDir, {
      DATABASE_URL: '',
      REDIS_URL: '',
      WS_MAX_MESSAGES_PER_SECOND: '0',
      WS_MAX_BYTES_PER_SECOND: '0',
      JOURNAL_IDLE_SECONDS: '3600',
      ...env,
    });
    let reader: BetterSqlite3.Database | undefined;
    const eds: RawEditor[] = [];
    const stop = async () => {
      for (const e of eds) e.ws.terminate();
      reader?.close();
      server.child.kill('SIGKILL');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      const r = await fetch(`${server.url}/v1/journals/editor/import_from_markdown`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ markdown: MD, title: 'bench' }),
      });
      if (r.status !== 200) throw new Error(`import failed: ${r.status} ${await r.text()}`);
      const id = ((await r.json()) as { journal_id: string }).journal_id;
      const url = `${server.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`;
      const writer = new RawEditor(url, key);
      const listener = new RawEditor(url, key);
      eds.push(writer, listener);
      await waitFor(() => writer.synced && listener.synced, 'our writer and listener to sync', 30_000);
      reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
      const stmt = reader.prepare('SELECT revision FROM journals WHERE id = ?');
      return new OurSession(stop, writer, listener, () => (stmt.get(id) as { revision: number }).revision, Y.encodeStateAsUpdate(writer.doc));
    } catch (e) {
      await stop();
      throw e;
    }
  }

  async round(n: number): Promise<OurRound> {
    const { writer, listener } = this;
    const updates = typedUpdates(writer.doc, n);
    const target = textLength(writer.doc);
    const rev1 = this.revision();
    let listened = 0;
    const onListener = () => {
      if (!listened && textLength(listener.doc) >= target) listened = performance.now();
    };
    listener.doc.on('update', onListener);
    try {
      const t0 = performance.now();
      for (const u of updates) writer.send(u);
      await waitFor(() => this.revision() >= rev1 + n, `${n} updates to be committed`, 120_000);
      const durable = performance.now();
      await waitFor(() => listened > 0, `our listener to receive ${n} updates`, 60_000);
      return { durableMs: durable - t0, listenerMs: listened - t0 };
    } finally {
      listener.doc.off('update', onListener);
    }
  }

  close(): Promise<void> {
    return this.stop();
  }
}

interface HocuspocusRound {
  /** Until the writer had a SyncStatus acknowledgement for each of the `n` updates. */
  ackedMs: number;
  /** Until the listener had received all `n`. */
  appliedMs: number;
  /** Of the `n`, how many the file held once all were acknowledged and received. */
  storedWhenAcked: number;
  /** From then until the file held all `n` (undefined: not within 30 s). */
  msUntilStored?: number;
}

/** Hocuspocus (a child process) with a writer and a listener on one document, which starts as ours. */
class HocuspocusSession {
  private constructor(
    private readonly stop: () => Promise<void>,
    private readonly writer: HocuspocusClient,
    private readonly listener: HocuspocusClient,
    /** Characters of the first paragraph in the stored state. */
    private readonly storedLength: () => number,
  ) {}

  static async start(seed: Uint8Array): Promise<HocuspocusSession> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-hp-'));
    const file = path.join(dir, 'hocuspocus.db');
    const { child, url } = await startHocuspocusChild(file);
    let reader: BetterSqlite3.Database | undefined;
    const clients: HocuspocusClient[] = [];
    const stop = async () => {
      for (const c of clients) c.ws.terminate();
      reader?.close();
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    };
    try {
      const writer = new HocuspocusClient(url);
      const listener = new HocuspocusClient(url);
      clients.push(writer, listener);
      await waitFor(() => {
        const problem = writer.problem ?? listener.problem;
        if (problem) throw new Error(`Hocuspocus client: ${problem}`);
        return writer.synced && listener.synced;
      }, 'the Hocuspocus writer and listener to sync', 30_000);
      // The same document as ours: the writer sends the 50 paragraphs first.
      Y.applyUpdate(writer.doc, seed, writer);
      writer.send(seed);
      await waitFor(() => textLength(listener.doc) > 0, 'the Hocuspocus listener to receive the document');
      await waitFor(() => fs.existsSync(file), 'the Hocuspocus file');
      reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
      const stmt = reader.prepare('SELECT data FROM documents WHERE name = ?');
      const storedLength = () => {
        const row = stmt.get(DOC_NAME) as { data: Buffer } | undefined;
        if (!row) return 0;
        const d = new Y.Doc();
        Y.applyUpdate(d, row.data);
        return textLength(d);
      };
      return new HocuspocusSession(stop, writer, listener, storedLength);
    } catch (e) {
      await stop();
      throw e;
    }
  }

  /**
   * One round: waits until the document is stored (each round starts from a stored document,
   * as ours does), then sends `n` updates.
   */
  async round(n: number): Promise<HocuspocusRound> {
    const { writer, listener } = this;
    await waitFor(() => this.storedLength() >= textLength(writer.doc), 'Hocuspocus to store the document before the round', 30_000, 50);
    const base = textLength(writer.doc);
    const updates = typedUpdates(writer.doc, n);
    const target = textLength(writer.doc);
    const acks1 = writer.acks;
    let acked = 0;
    let applied = 0;
    const onListener = () => {
      if (!applied && textLength(listener.doc) >= target) applied = performance.now();
    };
    listener.doc.on('update', onListener);
    try {
      const t0 = performance.now();
      for (const u of updates) writer.send(u);
      await waitFor(() => {
        if (!acked && writer.acks >= acks1 + n) acked = performance.now();
        const problem = writer.problem ?? listener.problem;
        if (problem) throw new Error(`Hocuspocus client: ${problem}`);
        return acked > 0 && applied > 0;
      }, `Hocuspocus to acknowledge and deliver ${n} updates`, 120_000);
      const storedWhenAcked = Math.max(0, this.storedLength() - base);
      const both = performance.now();
      let msUntilStored: number | undefined;
      try {
        await waitFor(() => this.storedLength() >= target, `Hocuspocus to store all ${n}`, 30_000, 10);
        msUntilStored = performance.now() - both;
      } catch {
        /* reported as not stored */
      }
      return { ackedMs: acked - t0, appliedMs: applied - t0, storedWhenAcked, msUntilStored };
    } finally {
      listener.doc.off('update', onListener);
    }
  }

  close(): Promise<void> {
    return this.stop();
  }
}

// ------------------------------------------------------------------------------------------------
// The closed loop (issue 33): what one keystroke costs on its way through each server
// ------------------------------------------------------------------------------------------------

const LOOP_JOURNALS = 10;
const LOOP_MS = Number(process.env.BENCH_LOOP_SECONDS ?? 10) * 1000;
const LOOP_WARM_MS = 2000;
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds (user + system) process `pid` has used so far (/proc/<pid>/stat fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** One writer and its listener, on one document. */
interface LoopPair {
  writer: { doc: Y.Doc; send(update: Uint8Array): void };
  listener: { doc: Y.Doc };
}

/**
 * Each writer types one character at the end of its first paragraph, waits until its listener has
 * it, then types the next, for `ms`. Answers how many reached the listeners within the window.
 */
async function closedLoop(pairs: readonly LoopPair[], ms: number): Promise<number> {
  let stopped = false;
  let received = 0;
  let inFlight = 0;
  const offs: (() => void)[] = [];
  for (const { writer, listener } of pairs) {
    const text = firstText(writer.doc)!;
    let pending: Uint8Array | undefined;
    const capture = (u: Uint8Array, origin: unknown) => {
      if (origin === null) pending = u;
    };
    let target = 0;
    let waiting = false;
    const next = () => {
      if (stopped) return;
      text.insert(text.length, 'x');
      target = text.length;
      waiting = true;
      inFlight++;
      writer.send(pending!);
    };
    const onListener = () => {
      if (waiting && textLength(listener.doc) >= target) {
        waiting = false;
        inFlight--;
        if (!stopped) received++;
        next();
      }
    };
    writer.doc.on('update', capture);
    listener.doc.on('update', onListener);
    offs.push(() => {
      writer.doc.off('update', capture);
      listener.doc.off('update', onListener);
    });
    next();
  }
  await new Promise((r) => setTimeout(r, ms));
  stopped = true;
  const n = received;
  // The last ones in flight arrive before the next window starts.
  await waitFor(() => inFlight === 0, 'the closed loop to settle', 30_000, 5).catch(() => {});
  for (const off of offs) off();
  return n;
}

interface LoopFigures {
  /** Updates per second that reached the listeners. */
  received: number;
  /** Updates per second durably stored within the window (in the file when the window closed). */
  stored: number;
  /** Server CPU ms per 1,000 updates received. */
  cpuPer1000: number;
}

/** What one measured window of the closed loop saw. */
interface LoopWindow {
  received: number;
  /** Updates in the store when the window opened and when it closed. */
  storedStart: number;
  storedEnd: number;
  cpuSeconds: number;
  seconds: number;
}

/** One measured window of `ms`: reads the server's CPU and the store when it opens and closes. */
async function loopWindow(pairs: readonly LoopPair[], pid: number, storedCount: () => number, ms: number): Promise<LoopWindow> {
  const stored0 = storedCount();
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  let end: { cpu: number; t: number; stored: number } | undefined;
  const close = () => (end ??= { cpu: cpuSeconds(pid), t: performance.now(), stored: storedCount() });
  const timer = setTimeout(close, ms);
  let received: number;
  try {
    received = await closedLoop(pairs, ms);
  } finally {
    clearTimeout(timer);
  }
  const e = close();
  return { received, storedStart: stored0, storedEnd: e.stored, cpuSeconds: e.cpu - cpu0, seconds: (e.t - t0) / 1000 };
}

/**
 * The windows' figures together. Stored: from the first window's opening to the last one's close,
 * over the windows' time. Hocuspocus stores a document 2 s after its last change (at most 10 s
 * after the first unstored one), so with windows in turns what it stored during the other
 * server's turn counts for it: in its favour, as the goal is ours >= its.
 */
function figuresOf(windows: readonly LoopWindow[]): LoopFigures {
  const sum = (f: (w: LoopWindow) => number) => windows.reduce((n, w) => n + f(w), 0);
  const seconds = sum((w) => w.seconds);
  const n = sum((w) => w.received);
  return { received: Math.round(n / seconds), stored: Math.round((windows.at(-1)!.storedEnd - windows[0]!.storedStart) / seconds), cpuPer1000: n > 0 ? (sum((w) => w.cpuSeconds) * 1e6) / n : Infinity };
}

/** A warm-up window, then the measured one (for one server alone). */
async function measureLoop(pairs: readonly LoopPair[], pid: number, storedCount: () => number): Promise<LoopFigures> {
  await closedLoop(pairs, LOOP_WARM_MS);
  return figuresOf([await loopWindow(pairs, pid, storedCount, LOOP_MS)]);
}

/** Our server (a child process) with LOOP_JOURNALS journals, a writer and a listener on each. */
/** Transactions and updates our server's group committer has committed so far (GET /metrics). */
async function commitsOf(url: string): Promise<{ transactions: number; updates: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { transactions: read('journal_update_persist_seconds_count'), updates: read('journal_updates_persisted_total') };
}

async function oursLoop(
  env: Record<string, string>,
  run: (pairs: LoopPair[], pid: number, stored: () => number, seed: Uint8Array, commits: () => Promise<{ transactions: number; updates: number }>) => Promise<void>,
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-hp-loop-'));
  const file = path.join(dataDir, 'study.db');
  const { key } = await createOrgWithKey(file, 'bench-hocuspocus-loop');
  const server = await startChildServer(dataDir, {
    DATABASE_URL: '',
    REDIS_URL: '',
    WS_MAX_MESSAGES_PER_SECOND: '0',
    WS_MAX_BYTES_PER_SECOND: '0',
    JOURNAL_IDLE_SECONDS: '3600',
    ...env,
  });
  const eds: RawEditor[] = [];
  let reader: BetterSqlite3.Database | undefined;
  try {
    const ids: string[] = [];
    for (let i = 0; i < LOOP_JOURNALS; i++) {
      const r = await fetch(`${server.url}/v1/journals/editor/import_from_markdown`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ markdown: MD, title: `loop ${i}` }),
      });
      if (r.status !== 200) throw new Error(`import failed: ${r.status} ${await r.text()}`);
      ids.push(((await r.json()) as { journal_id: string }).journal_id);
    }
    const pairs = ids.map((id) => {
      const url = `${server.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`;
      const writer = new RawEditor(url, key);
      const listener = new RawEditor(url, key);
      eds.push(writer, listener);
      return { writer, listener };
    });
    await waitFor(() => eds.every((e) => e.synced), 'the closed loop editors to sync', 30_000);
    reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const stmt = reader.prepare(`SELECT SUM(revision) AS n FROM journals WHERE id IN (${ids.map(() => '?').join(',')})`);
    await run(pairs, server.child.pid!, () => (stmt.get(...ids) as { n: number }).n, Y.encodeStateAsUpdate(pairs[0]!.writer.doc), () => commitsOf(server.url));
  } finally {
    for (const e of eds) e.ws.terminate();
    reader?.close();
    // A profiled server writes its profile when it exits on its own.
    server.child.kill(env.BENCH_CPU_PROF_DIR ? 'SIGTERM' : 'SIGKILL');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Hocuspocus (a child process) with LOOP_JOURNALS documents starting as `seed`, a writer and a listener on each. */
async function hocuspocusLoop(seed: Uint8Array, run: (pairs: LoopPair[], pid: number, stored: () => number) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-hp-loop-'));
  const file = path.join(dir, 'hocuspocus.db');
  const { child, url } = await startHocuspocusChild(file);
  const clients: HocuspocusClient[] = [];
  let reader: BetterSqlite3.Database | undefined;
  try {
    const names = Array.from({ length: LOOP_JOURNALS }, (_, i) => `loop-${i}`);
    const pairs = names.map((name) => {
      const writer = new HocuspocusClient(url, name);
      const listener = new HocuspocusClient(url, name);
      clients.push(writer, listener);
      return { writer, listener };
    });
    await waitFor(() => {
      const problem = clients.find((c) => c.problem)?.problem;
      if (problem) throw new Error(`Hocuspocus client: ${problem}`);
      return clients.every((c) => c.synced);
    }, 'the Hocuspocus closed loop clients to sync', 30_000);
    for (const { writer } of pairs) {
      Y.applyUpdate(writer.doc, seed, writer);
      writer.send(seed);
    }
    await waitFor(() => pairs.every((p) => textLength(p.listener.doc) > 0), 'the Hocuspocus listeners to receive the documents');
    await waitFor(() => fs.existsSync(file), 'the Hocuspocus file');
    reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const stmt = reader.prepare('SELECT data FROM documents WHERE name = ?');
    const storedLength = (name: string) => {
      const row = stmt.get(name) as { data: Buffer } | undefined;
      if (!row) return 0;
      const d = new Y.Doc();
      Y.applyUpdate(d, row.data);
      return textLength(d);
    };
    const stored = () => names.reduce((n, name) => n + storedLength(name), 0);
    await run(pairs, child.pid!, stored);
  } finally {
    for (const c of clients) c.ws.terminate();
    reader?.close();
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The closed loop on both servers, both running at once: after a warm-up window each, they take
 * turns, LOOP_ROUNDS windows each (the machine's load drifts; turns spread it over both).
 */
const LOOP_ROUNDS = 4;
async function benchClosedLoop(out: Record<string, number>): Promise<void> {
  let ours!: LoopFigures;
  let hp!: LoopFigures;
  let perCommit = NaN;
  await oursLoop({}, (oPairs, oPid, oStored, seed, commits) =>
    hocuspocusLoop(seed, async (hPairs, hPid, hStored) => {
      await closedLoop(oPairs, LOOP_WARM_MS);
      await closedLoop(hPairs, LOOP_WARM_MS);
      const o: LoopWindow[] = [];
      const h: LoopWindow[] = [];
      const c0 = await commits();
      for (let i = 0; i < LOOP_ROUNDS; i++) {
        o.push(await loopWindow(oPairs, oPid, oStored, LOOP_MS / LOOP_ROUNDS));
        h.push(await loopWindow(hPairs, hPid, hStored, LOOP_MS / LOOP_ROUNDS));
      }
      const c1 = await commits();
      perCommit = (c1.updates - c0.updates) / (c1.transactions - c0.transactions);
      ours = figuresOf(o);
      hp = figuresOf(h);
    }),
  );
  const rate = ours.received / hp.received;
  const durable = ours.stored / hp.stored;
  const cpu = ours.cpuPer1000 / hp.cpuPer1000;
  const s = LOOP_MS / 1000;
  out[`hocuspocus.loop_ours_updates_per_s_reaching_listener (${LOOP_JOURNALS} journals, ${s} s)`] = ours.received;
  out['hocuspocus.loop_hocuspocus_updates_per_s_reaching_listener'] = hp.received;
  out['hocuspocus.loop_ours_updates_per_s_durably_stored_in_window'] = ours.stored;
  out['hocuspocus.loop_hocuspocus_updates_per_s_durably_stored_in_window (debounce 2 s, max 10 s; windows of LOOP_MS / 4 in turns)'] = hp.stored;
  out['hocuspocus.loop_ours_server_cpu_ms_per_1000_updates'] = Math.round(ours.cpuPer1000);
  out['hocuspocus.loop_hocuspocus_server_cpu_ms_per_1000_updates'] = Math.round(hp.cpuPer1000);
  out['hocuspocus.loop_ours_updates_per_transaction (group commit)'] = perCommit;
  out['hocuspocus.loop_rate_ours_vs_hocuspocus, reaching the listener (goal >= 1.0)'] = rate;
  out['hocuspocus.loop_durable_rate_ours_vs_hocuspocus, stored in the window (goal >= 1.0)'] = durable;
  out['hocuspocus.loop_cpu_per_update_ours_vs_hocuspocus (goal <= 1.2)'] = cpu;
  const v = (ok: boolean) => (ok ? 'ok  ' : 'MISS');
  console.log(
    `\nhocuspocus closed loop (${LOOP_JOURNALS} journals, writer waits for its listener, ${s} s each in ${LOOP_ROUNDS} turns):` +
      `\n  ${v(rate >= 1)} reaching the listener: ours ${ours.received}/s vs Hocuspocus ${hp.received}/s = ${rate.toFixed(2)}x (goal >= 1.0x)` +
      `\n  ${v(durable >= 1)} durably stored in the window: ours ${ours.stored}/s vs Hocuspocus ${hp.stored}/s = ${durable.toFixed(2)}x (goal >= 1.0x)` +
      `\n  ${v(cpu <= 1.2)} server CPU per 1,000 updates: ours ${ours.cpuPer1000.toFixed(0)} ms vs Hocuspocus ${hp.cpuPer1000.toFixed(0)} ms = ${cpu.toFixed(2)}x (goal <= 1.2x)`,
  );
}

/**
 * BENCH_HOCUSPOCUS_PROFILE=<dir>: our server profiled (bench/cpu-prof.cjs, as node --cpu-prof), once through the closed loop
 * (<dir>/loop) and once through an open burst of N updates (<dir>/burst); nothing is compared.
 * Summarize with `npx tsx bench/profile-top.ts <dir>/loop`.
 */
async function profileOurs(dir: string): Promise<void> {
  const prof = (sub: string) => ({ NODE_OPTIONS: `--require ${path.join(root, 'bench/cpu-prof.cjs')}`, BENCH_CPU_PROF_DIR: path.join(dir, sub) });
  await oursLoop(prof('loop'), async (pairs, pid, stored) => {
    const f = await measureLoop(pairs, pid, stored);
    console.log(`profiled closed loop: ${f.received} updates/s, ${f.cpuPer1000.toFixed(0)} ms CPU per 1,000`);
  });
  await oursLoop(prof('burst'), async (pairs, _pid, stored) => {
    const { writer } = pairs[0]!;
    const listener = pairs[0]!.listener;
    for (let round = 0; round < 2; round++) {
      const updates = typedUpdates(writer.doc, N);
      const target = textLength(writer.doc);
      const before = stored();
      const t0 = performance.now();
      for (const u of updates) writer.send(u);
      await waitFor(() => stored() >= before + N && textLength(listener.doc) >= target, 'the burst to be stored and received', 120_000);
      console.log(`profiled open burst: ${N} updates durably stored and received in ${Math.round(performance.now() - t0)} ms`);
    }
  });
}

const median = (xs: number[]) => percentile(xs, 50);
const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000));

export async function benchHocuspocus(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // Our child runs the build (dist/server/main.mjs): compiled from the current sources, not an earlier build.
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'ignore' });
  console.log(`hocuspocus bench: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the start (other processes skew the figures)`);
  if (process.env.BENCH_HOCUSPOCUS_PROFILE) {
    await profileOurs(process.env.BENCH_HOCUSPOCUS_PROFILE);
    return out;
  }
  await benchClosedLoop(out);
  // BENCH_HOCUSPOCUS_PARTS=loop: the closed loop alone.
  if (process.env.BENCH_HOCUSPOCUS_PARTS === 'loop') return out;
  const ours = await OurSession.start({});
  let full: OurSession | undefined;
  let hp: HocuspocusSession | undefined;
  const o: OurRound[] = [];
  const f: OurRound[] = [];
  const h: HocuspocusRound[] = [];
  try {
    full = await OurSession.start({ SQLITE_SYNCHRONOUS: 'full' });
    hp = await HocuspocusSession.start(ours.seed);
    // Warm-up rounds (not counted), then the three servers take turns.
    await ours.round(WARM);
    await hp.round(WARM);
    await full.round(WARM);
    for (let i = 0; i < ROUNDS; i++) {
      o.push(await ours.round(N));
      h.push(await hp.round(N));
      f.push(await full.round(N));
    }
  } finally {
    await ours.close();
    await full?.close();
    await hp?.close();
  }
  const oursRate = perSecond(N, median(o.map((r) => r.durableMs)));
  const hpAcked = perSecond(N, median(h.map((r) => r.ackedMs)));
  const hpApplied = perSecond(N, median(h.map((r) => r.appliedMs)));
  const hpBest = Math.max(hpAcked, hpApplied);
  const ratio = oursRate / hpBest;
  const list = (rs: number[]) => rs.map((x) => Math.round(x)).join(', ');
  out[`hocuspocus.ours_durably_stored_updates_per_s (SQLite, SQLITE_SYNCHRONOUS=normal, the default; rounds: ${list(o.map((r) => perSecond(N, r.durableMs)))})`] = oursRate;
  out['hocuspocus.ours_updates_per_s_received_by_listener'] = perSecond(N, median(o.map((r) => r.listenerMs)));
  out[`hocuspocus.ours_durably_stored_updates_per_s with SQLITE_SYNCHRONOUS=full (info; rounds: ${list(f.map((r) => perSecond(N, r.durableMs)))})`] = perSecond(N, median(f.map((r) => r.durableMs)));
  out[`hocuspocus.hocuspocus_acknowledged_updates_per_s (rounds: ${list(h.map((r) => perSecond(N, r.ackedMs)))})`] = hpAcked;
  out[`hocuspocus.hocuspocus_applied_updates_per_s, received by the listener (rounds: ${list(h.map((r) => perSecond(N, r.appliedMs)))})`] = hpApplied;
  out[`hocuspocus.hocuspocus_updates_stored_when_all_acknowledged (of ${N}; rounds: ${list(h.map((r) => r.storedWhenAcked))})`] = median(h.map((r) => r.storedWhenAcked));
  const stored = h.map((r) => r.msUntilStored ?? -1);
  out[`hocuspocus.hocuspocus_ms_from_all_acknowledged_to_all_stored (-1: not within 30 s; rounds: ${list(stored)})`] = median(stored);
  out['hocuspocus.ours_durable_vs_hocuspocus_acknowledged (goal >= 1)'] = ratio;
  out['hocuspocus.goal_met (ours >= Hocuspocus)'] = ratio >= 1 ? 1 : 0;
  const storedLater = median(stored) < 0 ? 'not all of them within 30 s' : `all of them ${Math.round(median(stored))} ms later`;
  console.log(
    `\nhocuspocus goal: ${ratio >= 1 ? 'ok  ' : 'MISS'} ours durably stored ${oursRate}/s vs Hocuspocus acknowledged ${hpBest}/s: ${ratio.toFixed(2)}x` +
      ` (medians of ${ROUNDS} rounds; Hocuspocus had stored ${median(h.map((r) => r.storedWhenAcked))} of ${N} when all were acknowledged, ${storedLater})`,
  );
  return out;
}

if (process.env.BENCH_HOCUSPOCUS_FILE && process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await serveHocuspocus(process.env.BENCH_HOCUSPOCUS_FILE);
}
