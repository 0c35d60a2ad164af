/**
 * Crowds (issue 30): a class opening one large journal at once.
 *
 * The server runs as a child process (the built dist/server/main.mjs, SQLite); the clients run in
 * other child processes (bench/fixtures/crowd-clients.mjs: minimal WebSocket clients over raw TCP
 * that parse frame headers only and count bytes, so a 20 MB sync step 2 is neither buffered nor
 * decoded on the client side and the clients are not the bottleneck).
 *
 * - Join storms: JOINERS (150) clients connect at once to a journal of 2, 5 and 20 MB of encoded
 *   state (text-heavy: ~100 KB per paragraph), each sending sync step 1 with an empty state
 *   vector; each is timed from the start until its whole sync step 2 has arrived. Cold: the
 *   server was just restarted, the journal is not loaded. Warm: one editor holds it loaded.
 *   Server RSS before and peak (VmHWM, reset through /proc/<pid>/clear_refs before the storm).
 * - Memory per loaded journal: RSS growth of a fresh server when one editor opens a journal (no
 *   sync exchange), over its encoded state size, for 1, 5 and 20 MB, text-heavy (~100 KB
 *   paragraphs) and block-heavy (~500-byte paragraphs). Meanwhile GET /healthz is probed every
 *   5 ms: the longest the server's event loop was held during that cold load (wall clock, and the
 *   part its main thread's CPU time accounts for, in 10 ms ticks with two ticks of slack), and the
 *   server's own longest event-loop delay (monitorEventLoopDelay, from GET /metrics), loaded in
 *   slices (the default) and, on a fresh server again, in one piece (JOURNAL_SLICED_LOAD_BYTES=0,
 *   the load before slicing). Beside it, what Yjs itself needs for the same state: a bare Node
 *   process that reads the encoded state and applies it to a Y.Doc, keeping both
 *   (bench/fixtures/yjs-memory.mjs), and ours / bare (goal <= 1.5).
 * - 1,000 editors on one journal (4 client processes): a REST edit, from the request until each
 *   editor has received the update; p50 and p99 over 3 edits.
 * - 10,000 editor connections over 3 instances on PostgreSQL + Redis (1,000 journals, 10 editors
 *   each spread over the instances, clients in 5 processes): REST edits on instance A of 20 of the
 *   journals, from the request until each of their editors has received it (p50, p99), and server
 *   memory per connection (RSS growth of the 3 instances / connections). Skipped without
 *   PostgreSQL (TEST_DATABASE_URL) or Redis (TEST_REDIS_URL).
 * - The same cold 20 MB join storm against a minimal Hocuspocus 3 server (@hocuspocus/server, a
 *   devDependency, with @hocuspocus/extension-database serving the same state), as a ratio.
 *
 * Knobs: CROWDS_SIZES (default 2,5,20), CROWDS_MEMORY_SIZES (1,5,20), CROWDS_JOINERS (150),
 * CROWDS_EDITORS (1000), CROWDS_CONNECTIONS (10000), CROWDS_SKIP (comma list of
 * storms,memory,editors,cluster,hocuspocus): e.g. CROWDS_SKIP=memory,editors,cluster,hocuspocus
 * runs the join storms alone.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import WebSocket from 'ws';
import { newBlockId } from '../shared/ids.ts';
import { DEFAULT_TEST_REDIS_URL, deleteRedisKeys, redisProblem, uniquePrefix } from '../test/cluster/harness.ts';
import { createOrgWithKey, startChildServer, type ChildServer } from '../test/helpers/child-server.ts';
import { freshPostgres, postgresAvailability } from '../test/helpers/databases.ts';
import { percentile, RawEditor } from './realtime.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENTS = path.join(here, 'fixtures', 'crowd-clients.mjs');
const WS_PATH = '/v1/journals/realtime';
const MB = 1024 * 1024;

const SIZES = (process.env.CROWDS_SIZES ?? '2,5,20').split(',').map(Number);
const JOINERS = Number(process.env.CROWDS_JOINERS ?? 150);
const EDITORS = Number(process.env.CROWDS_EDITORS ?? 1000);
const log = (msg: string) => console.log(`  [crowds ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const CONNECTIONS = Number(process.env.CROWDS_CONNECTIONS ?? 10_000);
const SKIP = new Set((process.env.CROWDS_SKIP ?? '').split(',').filter(Boolean));

const SERVER_ENV = {
  DATABASE_URL: '',
  REDIS_URL: '',
  // Seeding sends each journal as one editor update.
  WS_MAX_PAYLOAD_BYTES: String(64 * MB),
  WS_MAX_UPDATE_ITEMS: '10000000',
  WS_MAX_BYTES_PER_SECOND: '0',
  WS_MAX_MESSAGES_PER_SECOND: '0',
  JOURNAL_IDLE_SECONDS: '3600',
  JOURNAL_MEMORY_CAP_MB: '8192',
  WS_MAX_CONNECTIONS_PER_JOURNAL: '5000',
  WS_MAX_CONNECTIONS_PER_ORG: '20000',
};

// --- fixtures ---------------------------------------------------------------------------------

const WORDS = 'cell membrane nucleus ribosome protein enzyme energy mitochondria transport signal gene copy divide organism tissue'.split(' ');

/** Deterministic text of `n` characters. */
function text(n: number, seed: number): string {
  let s = '';
  let x = seed * 2654435761;
  while (s.length < n) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += `${WORDS[x % WORDS.length]}${x % 7 === 0 ? '. ' : ' '}`;
  }
  return s.slice(0, n);
}

/** Adds paragraphs of `blockBytes` characters to `doc` until its state is about `bytes`. */
function fill(doc: Y.Doc, bytes: number, blockBytes: number): void {
  const f = doc.getXmlFragment('prosemirror');
  const blocks = Math.max(1, Math.round(bytes / (blockBytes + 40)));
  doc.transact(() => {
    const els: Y.XmlElement[] = [];
    for (let i = 0; i < blocks; i++) {
      const p = new Y.XmlElement('paragraph');
      p.setAttribute('id', newBlockId());
      p.insert(0, [new Y.XmlText(text(blockBytes, i + 1))]);
      els.push(p);
    }
    f.insert(f.length, els);
  });
}

interface Seeded {
  id: string;
  /** Encoded state of the journal (bytes). */
  stateBytes: number;
  /** That state in a file, for the bare-Yjs memory baseline (bench/fixtures/yjs-memory.mjs). */
  stateFile: string;
}

async function rest(server: ChildServer, key: string, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(`${server.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return r.json();
}

async function waitUntil(check: () => boolean, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`bench timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A journal of about `bytes` of encoded state, written by one editor update. */
async function seed(server: ChildServer, key: string, title: string, bytes: number, blockBytes: number, dir: string): Promise<Seeded> {
  const { journal_id: id } = await rest(server, key, 'PUT', '/journals/editor/create', { title });
  const ed = new RawEditor(`${server.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`, key);
  await waitUntil(() => ed.synced, 'seeding editor to sync', 30_000);
  const sv = Y.encodeStateVector(ed.doc);
  fill(ed.doc, bytes, blockBytes);
  const update = Y.encodeStateAsUpdate(ed.doc, sv);
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, update);
  await new Promise<void>((resolve, reject) => ed.ws.send(encoding.toUint8Array(e), (err) => (err ? reject(err) : resolve())));
  // Committed once a REST read (a settled task) sees it.
  const state = Y.encodeStateAsUpdate(ed.doc);
  const stateFile = path.join(dir, `state-${id}.bin`);
  fs.writeFileSync(stateFile, state);
  await rest(server, key, 'GET', `/journals/editor/model/${id}`).catch(() => undefined);
  ed.ws.close();
  return { id, stateBytes: state.byteLength, stateFile };
}

// --- server and clients -------------------------------------------------------------------------

/** CPU time (ms) of a process's main thread (Linux), or undefined. */
function mainThreadCpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The server's own longest event-loop delay since the last call (prom-client's
 * monitorEventLoopDelay at 10 ms resolution, reset on each scrape of GET /metrics), in ms.
 */
async function eventLoopLagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  return m ? Number(m[1]) * 1000 : NaN;
}

/**
 * Runs `work` while probing GET /healthz every 5 ms; the longest wait of a probe (wall clock) and
 * the part of it the server's main thread accounts for (its CPU time over that wait plus two
 * 10 ms ticks of /proc's granularity, capped by the wall clock): a wait while the shared cores
 * run other processes shows in the first only. `tailMs`: probing goes on that long after `work`
 * (the first editor's block-id audit runs once its connection is open).
 */
async function whileProbing<T>(url: string, pid: number, work: () => Promise<T>, tailMs = 500): Promise<{ result: T; wallMs: number; heldMs: number }> {
  let done = false;
  const pending = work().finally(() => {
    done = true;
  });
  let end = Infinity;
  let wallMs = 0;
  let heldMs = 0;
  let t0 = performance.now();
  let cpu0 = mainThreadCpuMs(pid);
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
    await (await fetch(`${url}/healthz`)).text();
    const t1 = performance.now();
    const cpu1 = mainThreadCpuMs(pid);
    const wall = Math.max(0, t1 - t0 - 5);
    wallMs = Math.max(wallMs, wall);
    heldMs = Math.max(heldMs, cpu0 === undefined || cpu1 === undefined ? wall : Math.min(wall, cpu1 - cpu0 + 20));
    t0 = t1;
    cpu0 = cpu1;
    if (done && end === Infinity) end = performance.now() + tailMs;
  }
  return { result: await pending, wallMs, heldMs };
}

function readStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux: VmHWM then includes earlier peaks
  }
}

async function stopServer(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  await server.exited;
  clearTimeout(timer);
}

interface ClientProc {
  child: ChildProcess;
  lines: any[];
  next(pred: (l: any) => boolean, ms?: number): Promise<any>;
  send(line: string): void;
  stop(): void;
}

let jobs = 0;

function clientProc(job: Record<string, unknown>): ClientProc {
  const file = path.join(os.tmpdir(), `crowd-job-${process.pid}-${jobs++}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  const child = spawn(process.execPath, [CLIENTS, `@${file}`], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.once('exit', () => fs.rmSync(file, { force: true }));
  const lines: any[] = [];
  const waiters: { pred: (l: any) => boolean; resolve: (l: any) => void }[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const l = JSON.parse(line);
    lines.push(l);
    for (const w of [...waiters]) {
      if (w.pred(l)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  return {
    child,
    lines,
    next(pred, ms = 180_000) {
      const found = lines.find(pred);
      if (found) {
        lines.splice(lines.indexOf(found), 1);
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('client process timed out')), ms);
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            lines.splice(lines.indexOf(l), 1);
            resolve(l);
          },
        });
      });
    },
    send(line) {
      child.stdin!.write(`${line}\n`);
    },
    stop() {
      child.stdin!.end();
    },
  };
}

interface Storm {
  medianS: number;
  p99S: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  errors: number;
}

/** `n` joiners over 3 client processes, all started at once. */
async function joinStorm(url: string, key: string | undefined, pid: number | undefined, n: number, hocuspocus?: string): Promise<Storm> {
  const procs = [0, 1, 2].map((i) => clientProc({ mode: 'join', url, key, n: Math.floor(n / 3) + (i < n % 3 ? 1 : 0), hocuspocus }));
  try {
    await Promise.all(procs.map((p) => p.next((l) => l.waiting !== undefined)));
    const before = pid ? readStatus(pid, 'VmRSS') : NaN;
    if (pid) resetPeak(pid);
    for (const p of procs) p.send('go');
    const results = await Promise.all(procs.map((p) => p.next((l) => l.times !== undefined, 600_000)));
    const peak = pid ? readStatus(pid, 'VmHWM') : NaN;
    const times = results.flatMap((r) => r.times as (number | null)[]).filter((t): t is number => t !== null);
    const errors = results.reduce((k, r) => k + r.errors.length, 0);
    if (errors > 0) console.log(`  (join storm: ${errors} clients failed: ${results.flatMap((r) => r.errors).slice(0, 3).join('; ')})`);
    return {
      medianS: percentile(times, 50) / 1000,
      p99S: percentile(times, 99) / 1000,
      rssBeforeMb: before / MB,
      rssPeakMb: peak / MB,
      errors,
    };
  } finally {
    for (const p of procs) p.stop();
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A connection that holds the journal loaded (opened, no sync exchange). */
async function holder(url: string, key: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` }, maxPayload: 256 * MB });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

// --- Hocuspocus ---------------------------------------------------------------------------------

async function startHocuspocus(stateFile: string): Promise<{ child: ChildProcess; url: string; pid: number }> {
  const script = `
    import fs from 'node:fs';
    import { Server } from '@hocuspocus/server';
    import { Database } from '@hocuspocus/extension-database';
    const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, extensions: [new Database({
      fetch: async () => new Uint8Array(fs.readFileSync(${JSON.stringify(stateFile)})),
      store: async () => {},
    })] });
    await server.listen();
    process.stdout.write(JSON.stringify({ url: server.webSocketURL }) + '\\n');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: path.resolve(here, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (l) => resolve(JSON.parse(l).url));
    child.once('exit', (code) => reject(new Error(`hocuspocus exited with ${code}`)));
  });
  return { child, url, pid: child.pid! };
}

// --- 10,000 connections over 3 instances ----------------------------------------------------------

async function clusterFanOut(out: Record<string, number>): Promise<void> {
  const redisUrl = process.env.TEST_REDIS_URL?.trim() || DEFAULT_TEST_REDIS_URL;
  const pgState = await postgresAvailability().catch((e: Error) => ({ url: undefined, skipReason: e.message }));
  const redisWhy = await redisProblem(redisUrl);
  if (!pgState.url || redisWhy) {
    log(`10,000 connections skipped: ${pgState.url ? '' : `PostgreSQL: ${(pgState as { skipReason?: string }).skipReason}`} ${redisWhy ? `Redis: ${redisWhy}` : ''}`);
    return;
  }
  const journals = Math.max(1, Math.round(CONNECTIONS / 10));
  const db = await freshPostgres();
  const prefix = uniquePrefix('crowds');
  const { key, orgId } = await createOrgWithKey(db.url, 'bench-crowds-cluster');
  // 10,000 upgrades within a minute or two are over the tier's upgrade rate: this organization gets its own.
  for (const window of ['minute', 'day']) {
    execFileSync(process.execPath, ['scripts/admin.mjs', 'org', 'set-limit', '--org', orgId, '--endpoint', 'GET /journals/realtime/{journal_id}', '--window', window, '--limit', '1000000'], {
      cwd: path.resolve(here, '..'),
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const env = { ...SERVER_ENV, DATABASE_URL: db.url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, JOURNAL_MEMORY_CAP_MB: '0' };
  const servers: ChildServer[] = [];
  const dirs: string[] = [];
  const procs: ClientProc[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `study-bench-crowds-${i}-`)));
      servers.push(await startChildServer(dirs[i]!, env));
    }
    log(`creating ${journals} journals`);
    const ids: string[] = new Array(journals);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let j = next++; j < journals; j = next++) {
          ids[j] = (await rest(servers[(w + j) % 3]!, key, 'PUT', '/journals/editor/import_from_markdown', { markdown: `Journal ${j}\n\nRead by ten editors.\n`, title: `j${j}` })).journal_id;
        }
      }),
    );
    // Connection k: journal k % journals, on instance floor(k / journals) % 3 (each journal's editors spread).
    const urlOf = (k: number) => `${servers[Math.floor(k / journals) % 3]!.url.replace(/^http/, 'ws')}${WS_PATH}/${ids[k % journals]}`;
    const rssSum = () => servers.reduce((n, s) => n + readStatus(s.child.pid!, 'VmRSS'), 0);
    const before = rssSum();
    log(`connecting ${CONNECTIONS} editors`);
    const perProc = Math.ceil(CONNECTIONS / 5);
    for (let p = 0; p * perProc < CONNECTIONS; p++) {
      const ks = Array.from({ length: Math.min(perProc, CONNECTIONS - p * perProc) }, (_, i) => p * perProc + i);
      procs.push(clientProc({ mode: 'listen', urls: ks.map(urlOf), key, n: ks.length }));
    }
    const ready = await Promise.all(procs.map((p) => p.next((l) => l.ready !== undefined || l.error !== undefined, 600_000)));
    const failed = ready.filter((r) => r.error !== undefined);
    if (failed.length > 0) log(`some editors failed to connect: ${failed[0].error}`);
    await new Promise((r) => setTimeout(r, 2000));
    out[`${CONNECTIONS} connections over 3 instances: server RSS per connection KB`] = (rssSum() - before) / CONNECTIONS / 1024;
    log('REST edits');
    const lat: number[] = [];
    let missing = 0;
    for (let e = 0; e < 20; e++) {
      const j = Math.floor((e * journals) / 20);
      const model = await rest(servers[0]!, key, 'GET', `/journals/editor/model/${ids[j]}`);
      const t0 = performance.timeOrigin + performance.now();
      await rest(servers[0]!, key, 'PATCH', '/journals/editor/edit', {
        journal_id: ids[j],
        operations: [{ type: 'update_node', nodeId: model.model.content[1].attrs.id, nodeType: 'paragraph', params: [`Edit ${e} reaches ten editors on three instances.`] }],
      });
      await new Promise((r) => setTimeout(r, 1000));
      for (const p of procs) p.send('report');
      const reports = await Promise.all(procs.map((p) => p.next((l) => l.received !== undefined)));
      let got = 0;
      for (const r of reports) for (const t of r.received as (number | null)[]) if (t !== null) (got++, lat.push(t - t0));
      missing += Math.max(0, 10 - got);
    }
    for (let i = 0; i < missing; i++) lat.push(Infinity);
    out[`${CONNECTIONS} connections over 3 instances: REST edit -> its 10 editors, p50 ms`] = percentile(lat, 50);
    out[`${CONNECTIONS} connections over 3 instances: REST edit -> its 10 editors, p99 ms (goal < 250)`] = percentile(lat, 99);
  } finally {
    for (const p of procs) p.stop();
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db.drop().catch(() => {});
    await deleteRedisKeys(redisUrl, prefix).catch(() => {});
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

// --- the bench --------------------------------------------------------------------------------

export async function benchCrowds(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-crowds-'));
  const { key } = await createOrgWithKey(path.join(dataDir, 'study.db'), 'bench-crowds');
  let server = await startChildServer(dataDir, SERVER_ENV);
  const wsOf = (s: ChildServer, id: string) => `${s.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`;
  try {
    // Seeding: text-heavy journals for the storms and the memory figures, block-heavy ones for memory.
    const text = new Map<number, Seeded>();
    const blocks = new Map<number, Seeded>();
    const memorySizes = SKIP.has('memory') ? [] : (process.env.CROWDS_MEMORY_SIZES ?? '1,5,20').split(',').map(Number);
    const stormSizes = SKIP.has('storms') ? [] : SIZES;
    log('seeding');
    for (const mb of [...new Set([...stormSizes, ...memorySizes, ...(SKIP.has('hocuspocus') ? [] : [Math.max(...SIZES)])])].sort((a, b) => a - b)) text.set(mb, await seed(server, key, `text ${mb} MB`, mb * MB, 100_000, dataDir));
    for (const mb of memorySizes) blocks.set(mb, await seed(server, key, `blocks ${mb} MB`, mb * MB, 500, dataDir));
    const small = (await rest(server, key, 'PUT', '/journals/editor/import_from_markdown', {
      markdown: Array.from({ length: 50 }, (_, i) => `Paragraph ${i} of a lecture.`).join('\n\n'),
      title: 'lecture',
    })).journal_id as string;
    const restart = async (env: Record<string, string> = {}) => {
      await stopServer(server);
      server = await startChildServer(dataDir, { ...SERVER_ENV, ...env });
    };

    // Join storms, cold then warm, per size.
    for (const mb of stormSizes) {
      const j = text.get(mb)!;
      await restart();
      const pid = server.child.pid!;
      log(`cold storm ${mb} MB`);
      const cold = await joinStorm(wsOf(server, j.id), key, pid, JOINERS);
      log(`cold storm ${mb} MB: median ${cold.medianS.toFixed(2)} s, p99 ${cold.p99S.toFixed(2)} s, RSS ${cold.rssBeforeMb.toFixed(0)} -> ${cold.rssPeakMb.toFixed(0)} MB`);
      const label = `${mb} MB (${(j.stateBytes / MB).toFixed(1)} MB state)`;
      out[`cold ${label}, ${JOINERS} joiners: median s${mb === 20 ? ' (goal <= 5)' : ''}`] = cold.medianS;
      out[`cold ${label}, ${JOINERS} joiners: p99 s${mb === 20 ? ' (goal <= 8)' : ''}`] = cold.p99S;
      out[`cold ${label}: server RSS before MB`] = cold.rssBeforeMb;
      out[`cold ${label}: server RSS peak MB`] = cold.rssPeakMb;
      out[`cold ${label}: RSS peak growth / encoded state${mb === 20 ? ' (goal <= 4)' : ''}`] = (cold.rssPeakMb - cold.rssBeforeMb) / (j.stateBytes / MB);
      const hold = await holder(wsOf(server, j.id), key);
      const warm = await joinStorm(wsOf(server, j.id), key, pid, JOINERS);
      log(`warm storm ${mb} MB: median ${warm.medianS.toFixed(2)} s, p99 ${warm.p99S.toFixed(2)} s, RSS ${warm.rssBeforeMb.toFixed(0)} -> ${warm.rssPeakMb.toFixed(0)} MB`);
      hold.close();
      out[`warm ${label}, ${JOINERS} joiners: median s`] = warm.medianS;
      out[`warm ${label}, ${JOINERS} joiners: p99 s`] = warm.p99S;
      out[`warm ${label}: RSS peak growth / encoded state`] = (warm.rssPeakMb - warm.rssBeforeMb) / (j.stateBytes / MB);
      if (mb === 20) out['cold 20 MB: join storm errors'] = cold.errors + warm.errors;
    }

    // Memory per loaded journal: a fresh server, one editor opens it.
    if (memorySizes.length) log('memory per journal');
    for (const [kind, set] of [['text-heavy', text], ['block-heavy', blocks]] as const) {
      for (const mb of memorySizes) {
        const j = set.get(mb)!;
        let ours = NaN;
        for (const onePiece of [false, true]) {
          await restart(onePiece ? { JOURNAL_SLICED_LOAD_BYTES: '0' } : {});
          const pid = server.child.pid!;
          await new Promise((r) => setTimeout(r, 500));
          // Warm the process (first requests, the worker thread) so that the load is what is measured.
          await (await fetch(`${server.url}/healthz`)).text();
          const before = readStatus(pid, 'VmRSS');
          await eventLoopLagMaxMs(server.url); // resets the server's own maximum
          const t0 = performance.now();
          let loadMs = 0;
          const probe = await whileProbing(server.url, pid, async () => {
            const ws = await holder(wsOf(server, j.id), key);
            loadMs = performance.now() - t0;
            return ws;
          });
          const lagMs = await eventLoopLagMaxMs(server.url);
          await new Promise((r) => setTimeout(r, 1000));
          const after = readStatus(pid, 'VmRSS');
          probe.result.close();
          const mode = onePiece ? 'in one piece' : 'in slices';
          log(`${kind} ${mb} MB ${mode}: load ${loadMs.toFixed(0)} ms, longest stall ${probe.heldMs.toFixed(0)} ms (wall ${probe.wallMs.toFixed(0)} ms, server's own event-loop delay ${lagMs.toFixed(0)} ms)`);
          out[`cold load ${kind} ${mb} MB ${mode}: server's longest event-loop delay ms (monitorEventLoopDelay)`] = lagMs;
          out[`cold load ${kind} ${mb} MB ${mode}: longest event-loop stall ms (main thread)${onePiece ? '' : ' (goal <= 50)'}`] = probe.heldMs;
          out[`cold load ${kind} ${mb} MB ${mode}: longest /healthz wait ms (wall clock)`] = probe.wallMs;
          out[`cold load ${kind} ${mb} MB ${mode}: load ms`] = loadMs;
          out[`memory ${kind} ${mb} MB${onePiece ? ' (loaded in one piece)' : ''}: RSS growth / encoded state`] = (after - before) / j.stateBytes;
          if (!onePiece) ours = after - before;
        }
        // What Yjs itself needs for the same state, in a bare process, measured the same way.
        const bare = JSON.parse(execFileSync(process.execPath, [path.join(here, 'fixtures', 'yjs-memory.mjs'), j.stateFile], { encoding: 'utf8' })) as { growth: number };
        log(`${kind} ${mb} MB: RSS growth ours ${(ours / MB).toFixed(0)} MB, bare Yjs ${(bare.growth / MB).toFixed(0)} MB`);
        out[`memory ${kind} ${mb} MB, bare Yjs (a Y.Doc and its encoded state): RSS growth / encoded state`] = bare.growth / j.stateBytes;
        out[`memory ${kind} ${mb} MB: ours / bare Yjs (goal <= 1.5)`] = ours / bare.growth;
      }
    }

    // 1,000 editors on one journal, a REST edit reaching all.
    if (!SKIP.has('editors')) {
      log(`${EDITORS} editors`);
      await restart();
      const url = wsOf(server, small);
      const per = Math.ceil(EDITORS / 4);
      const procs = [0, 1, 2, 3].map((i) => clientProc({ mode: 'listen', url, key, n: Math.min(per, EDITORS - i * per) }));
      try {
        await Promise.all(procs.map((p) => p.next((l) => l.ready !== undefined || l.error !== undefined)));
        const model = await rest(server, key, 'GET', `/journals/editor/model/${small}`);
        const blockId = model.model.content[0].attrs.id as string;
        const lat: number[] = [];
        let restMs = 0;
        let serverCpuMs = 0;
        const pid = server.child.pid!;
        for (let round = 0; round < 3; round++) {
          const t0 = performance.timeOrigin + performance.now();
          const cpu0 = mainThreadCpuMs(pid) ?? NaN;
          await rest(server, key, 'PATCH', '/journals/editor/edit', {
            journal_id: small,
            operations: [{ type: 'update_node', nodeId: blockId, nodeType: 'paragraph', params: [`Edit ${round} reaches everyone.`] }],
          });
          restMs += performance.timeOrigin + performance.now() - t0;
          await new Promise((r) => setTimeout(r, 1000));
          // The server's own share: its main thread's CPU time over the edit and its fan-out (the
          // second of waiting holds nothing else: the editors are idle).
          serverCpuMs += (mainThreadCpuMs(pid) ?? NaN) - cpu0;
          for (const p of procs) p.send('report');
          const reports = await Promise.all(procs.map((p) => p.next((l) => l.received !== undefined)));
          for (const r of reports) for (const t of r.received as (number | null)[]) lat.push(t === null ? Infinity : t - t0);
        }
        out[`${EDITORS} editors on one journal: REST edit -> all, p50 ms`] = percentile(lat, 50);
        out[`${EDITORS} editors on one journal: REST edit -> all, p99 ms (goal < 250)`] = percentile(lat, 99);
        out[`${EDITORS} editors on one journal: REST answer ms (mean)`] = restMs / 3;
        out[`${EDITORS} editors on one journal: server main-thread CPU ms per edit (mean, 10 ms ticks)`] = serverCpuMs / 3;
      } finally {
        for (const p of procs) p.stop();
      }
    }

    if (!SKIP.has('cluster')) await clusterFanOut(out);

    // Hocuspocus: the same cold storm on the largest size.
    if (!SKIP.has('hocuspocus')) {
      const mb = Math.max(...SIZES);
      const j = text.get(mb)!;
      log('hocuspocus');
      await restart();
      const hold = await holder(wsOf(server, j.id), key);
      const ed = new RawEditor(wsOf(server, j.id), key);
      await waitUntil(() => ed.synced, 'the state for Hocuspocus');
      const stateFile = path.join(dataDir, 'hocuspocus-state.bin');
      fs.writeFileSync(stateFile, Y.encodeStateAsUpdate(ed.doc));
      ed.ws.close();
      hold.close();
      await restart();
      const ours = await joinStorm(wsOf(server, j.id), key, server.child.pid!, JOINERS);
      const hp = await startHocuspocus(stateFile);
      try {
        const theirs = await joinStorm(`${hp.url.replace(/\/$/, '')}/bench`, undefined, hp.pid, JOINERS, 'bench');
        out[`hocuspocus cold ${mb} MB, ${JOINERS} joiners: median s`] = theirs.medianS;
        out[`hocuspocus cold ${mb} MB, ${JOINERS} joiners: p99 s`] = theirs.p99S;
        out[`hocuspocus cold ${mb} MB: RSS peak growth / encoded state`] = (theirs.rssPeakMb - theirs.rssBeforeMb) / (j.stateBytes / MB);
        out[`ours / hocuspocus, cold ${mb} MB join storm median (goal <= 0.5)`] = ours.medianS / theirs.medianS;
        if (theirs.errors > 0) out['hocuspocus join storm errors'] = theirs.errors;
      } finally {
        hp.child.kill('SIGKILL');
      }
    }
  } finally {
    await stopServer(server).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}
