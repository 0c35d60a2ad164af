/**
 * Realtime benchmark, in one process against the real service on loopback:
 * - REST edit -> applied by all of 100 editors (real y-websocket providers) and 1,000 editors
 *   (lightweight raw clients: ws + y-protocols sync + a Y.Doc each; 1,000 providers would mostly
 *   measure their own timers), median and p99 from the request until the last editor applied it;
 * - WebSocket updates per second one journal absorbs, each persisted before it is broadcast;
 * - heap per idle loaded journal, and the share of it released after unload.
 * Editors run in the same process (one event loop) as the server, so the end-to-end figures
 * include all editors' own decoding and applying; the `server_side` figures isolate the service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { startService, type RunningService } from '../server/app.ts';
import { createApiKey, createOrganization, resolveApiKey } from '../server/auth/keys.ts';
import { loadConfig } from '../server/config.ts';
import { RestOrigin } from '../server/journals/live.ts';

const WS_PATH = '/v1/journals/realtime';

function gcFn(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('bench timed out');
    await new Promise((r) => setImmediate(r));
  }
}

/** A minimal editor: answers the server's sync step 1, applies step 2 and updates. */
export class RawEditor {
  readonly doc = new Y.Doc();
  readonly ws: WebSocket;
  synced = false;
  constructor(url: string, key: string) {
    this.ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false });
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('open', () => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, this.doc);
      this.ws.send(encoding.toUint8Array(e));
    });
    this.ws.on('message', (data: Buffer) => {
      const d = decoding.createDecoder(data);
      if (decoding.readVarUint(d) !== 0) return;
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, 0);
      const t = syncProtocol.readSyncMessage(d, reply, this.doc, this);
      if (t === syncProtocol.messageYjsSyncStep2) this.synced = true;
      if (encoding.length(reply) > 1) this.ws.send(encoding.toUint8Array(reply));
    });
    this.ws.on('error', () => {});
  }
  send(update: Uint8Array): void {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeUpdate(e, update);
    this.ws.send(encoding.toUint8Array(e));
  }
}

export function textOf(doc: Y.Doc, index: number): string {
  const el = doc.getXmlFragment('prosemirror').get(index) as Y.XmlElement | undefined;
  const t = el?.get(0);
  return t instanceof Y.XmlText ? t.toString() : '';
}

/**
 * Watches `docs` until each shows `marker` as its first block's text: `pending` counts those that
 * have not yet, `first` and `last` are when the first and the last one did (performance.now()).
 */
export function watchMarker(docs: Y.Doc[], marker: string): { pending: number; first: number; last: number; stop(): void } {
  const watch = { pending: docs.length, first: 0, last: 0, stop: () => offs.forEach((off) => off()) };
  const offs = docs.map((d) => {
    let done = false;
    const h = () => {
      if (!done && textOf(d, 0) === marker) {
        done = true;
        watch.pending--;
        watch.last = performance.now();
        watch.first ||= watch.last;
      }
    };
    d.on('update', h);
    return () => d.off('update', h);
  });
  return watch;
}

interface Ctx {
  svc: RunningService;
  key: string;
  rest(journalId: string, ops: unknown[]): Promise<void>;
  importMd(md: string): Promise<{ id: string; firstBlock: string }>;
}

async function setup(): Promise<Ctx & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-rt-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WS_MAX_CONNECTIONS_PER_JOURNAL: '5000',
    WS_MAX_CONNECTIONS_PER_ORG: '5000',
    JOURNAL_IDLE_SECONDS: '3600',
    JOURNAL_MEMORY_CAP_MB: '0',
    // The throughput figure sends thousands of updates on one socket: no per-connection rate limit.
    WS_MAX_MESSAGES_PER_SECOND: '0',
    WS_MAX_BYTES_PER_SECOND: '0',
  });
  const svc = await startService(config);
  const org = await createOrganization(svc.ctx.engine, 'bench', 'enterprise');
  const { api_key: key } = await createApiKey(svc.ctx.engine, org.id);
  const principal = (await resolveApiKey(svc.ctx.engine, key))!;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    dataDir,
    svc,
    key,
    async rest(journal_id, operations) {
      const r = await fetch(`${svc.url}/v1/journals/editor/edit`, { method: 'PATCH', headers, body: JSON.stringify({ journal_id, operations }) });
      if (r.status !== 200) throw new Error(`edit failed: ${r.status}`);
      await r.arrayBuffer();
    },
    async importMd(md) {
      const row = await svc.ctx.journals.importMarkdown(principal, md, 'bench', undefined);
      const live = (await svc.ctx.registry.open(row))!;
      return { id: row.id, firstBlock: (live.fragment.get(0) as Y.XmlElement).getAttribute('id') as string };
    },
  };
}

/**
 * REST edit -> every editor applied it: ms per edit from sending the request to the last editor
 * (`total`), and the server's share (`server`): from the start of the edit's transaction until
 * the update was persisted and handed to every socket.
 */
async function fanOut(ctx: Ctx, docs: Y.Doc[], journalId: string, blockId: string, edits: number): Promise<{ total: number[]; server: number[] }> {
  const out: number[] = [];
  const server: number[] = [];
  const live = ctx.svc.ctx.registry.get(journalId)!;
  let tStart = 0;
  const onBefore = (tr: Y.Transaction) => {
    if (tr.origin instanceof RestOrigin) tStart = performance.now();
  };
  // Registered after the room's listener, so it runs once every socket was given the update.
  const offSent = live.onCommitted((_u: Uint8Array, origin: unknown) => {
    if (origin instanceof RestOrigin) server.push(performance.now() - tStart);
  });
  live.doc.on('beforeTransaction', onBefore);
  for (let i = 0; i < edits; i++) {
    const marker = `edit ${i}`;
    const watch = watchMarker(docs, marker);
    const t0 = performance.now();
    await ctx.rest(journalId, [{ type: 'update_node', nodeId: blockId, nodeType: 'paragraph', params: [{ content: marker }] }]);
    await until(() => watch.pending === 0);
    watch.stop();
    if (i > 0) out.push(watch.last - t0); // the first edit warms up
  }
  live.doc.off('beforeTransaction', onBefore);
  offSent();
  return { total: out, server: server.slice(1) };
}

export async function benchRealtime(): Promise<Record<string, number>> {
  const ctx = await setup();
  const figures: Record<string, number> = {};
  const gc = gcFn();
  try {
    const md = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} of a journal with editors.`).join('\n\n');

    // 100 real providers.
    {
      const { id, firstBlock } = await ctx.importMd(md);
      class AuthWS extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { authorization: `Bearer ${ctx.key}` }, perMessageDeflate: false });
        }
      }
      process.setMaxListeners(0);
      const providers = Array.from({ length: 100 }, () => {
        const doc = new Y.Doc();
        return new WebsocketProvider(ctx.svc.url.replace(/^http/, 'ws') + WS_PATH, id, doc, { WebSocketPolyfill: AuthWS as never, disableBc: true });
      });
      await until(() => providers.every((p) => p.synced));
      const ms = await fanOut(ctx, providers.map((p) => p.doc), id, firstBlock, 41);
      figures['rest_to_100_providers_median_ms (goal < 10)'] = percentile(ms.total, 50);
      figures.rest_to_100_providers_p99_ms = percentile(ms.total, 99);
      figures.rest_to_100_server_side_median_ms = percentile(ms.server, 50);
      figures.rest_to_100_server_side_p99_ms = percentile(ms.server, 99);
      for (const p of providers) {
        p.destroy();
        p.doc.destroy();
      }
    }

    // 1,000 raw editors.
    {
      const { id, firstBlock } = await ctx.importMd(md);
      const url = `${ctx.svc.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`;
      const eds: RawEditor[] = [];
      for (let i = 0; i < 1000; i += 100) {
        const batch = Array.from({ length: 100 }, () => new RawEditor(url, ctx.key));
        eds.push(...batch);
        await until(() => batch.every((e) => e.synced));
      }
      const ms = await fanOut(ctx, eds.map((e) => e.doc), id, firstBlock, 21);
      figures.rest_to_1000_raw_editors_median_ms = percentile(ms.total, 50);
      figures.rest_to_1000_raw_editors_p99_ms = percentile(ms.total, 99);
      figures.rest_to_1000_server_side_median_ms = percentile(ms.server, 50);
      figures.rest_to_1000_server_side_p99_ms = percentile(ms.server, 99);
      for (const e of eds) e.ws.terminate();
      await until(() => ctx.svc.realtime.connectionCount === 0);
    }

    // WebSocket updates one journal absorbs (each appended to SQLite, then broadcast to a listener).
    {
      const { id } = await ctx.importMd(md);
      const url = `${ctx.svc.url.replace(/^http/, 'ws')}${WS_PATH}/${id}`;
      const writer = new RawEditor(url, ctx.key);
      const listener = new RawEditor(url, ctx.key);
      await until(() => writer.synced && listener.synced);
      const updates: Uint8Array[] = [];
      writer.doc.on('update', (u: Uint8Array, origin: unknown) => {
        if (origin !== writer) updates.push(u);
      });
      const text = (writer.doc.getXmlFragment('prosemirror').get(0) as Y.XmlElement).get(0) as Y.XmlText;
      const N = 5000;
      for (let i = 0; i < N; i++) text.insert(0, 'x');
      const live = ctx.svc.ctx.registry.get(id)!;
      const rev0 = live.revision;
      const t0 = performance.now();
      for (const u of updates) writer.send(u);
      await until(() => live.revision - rev0 >= N);
      const serverMs = performance.now() - t0;
      await until(() => textOf(listener.doc, 0).startsWith('x'.repeat(N)));
      figures.ws_updates_per_s_persisted = Math.round(N / (serverMs / 1000));
      writer.ws.terminate();
      listener.ws.terminate();
      await until(() => ctx.svc.realtime.connectionCount === 0);
    }

    // Heap per idle loaded journal, and what unloading gives back.
    {
      const reg = ctx.svc.ctx.registry;
      const rows = [];
      for (let i = 0; i < 200; i++) {
        const { id } = await ctx.importMd(md);
        rows.push((await ctx.svc.ctx.journals.store.findById(id))!);
      }
      await reg.sweepIdle(Date.now() + 10 * 3600_000);
      gc();
      const base = process.memoryUsage().heapUsed;
      for (const row of rows) await reg.open(row);
      gc();
      const loaded = process.memoryUsage().heapUsed;
      await reg.sweepIdle(Date.now() + 10 * 3600_000);
      gc();
      const after = process.memoryUsage().heapUsed;
      figures.idle_journal_heap_kb = Math.round((loaded - base) / rows.length / 1024);
      figures.idle_journal_heap_released_ratio = (loaded - after) / Math.max(1, loaded - base);
      figures.journals_loaded_after_unload = reg.size;
    }
  } finally {
    await ctx.svc.close();
    fs.rmSync(ctx.dataDir, { recursive: true, force: true });
  }
  return figures;
}
