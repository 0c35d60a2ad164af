/**
 * REST edit -> Hocuspocus providers beside y-websocket editors (issue 31), in one process against
 * the real service on loopback: one journal with 20 real `@hocuspocus/provider`s (what a Tiptap
 * app runs, on /v1/collaboration) and 20 real y-websocket providers connected at once; each REST
 * edit (`sync_realtime_state` true) is timed from the request until the last client of each kind
 * applied it, so both figures come from the same edits. Goal: the Hocuspocus figure within 1.5x
 * of the y-websocket one (same committed update, one more address per frame). The clients share
 * the server's event loop, so figures include their own decoding and applying.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { startService } from '../server/app.ts';
import { createApiKey, createOrganization, resolveApiKey } from '../server/auth/keys.ts';
import { loadConfig } from '../server/config.ts';
import { percentile, watchMarker } from './realtime.ts';

// Each WebsocketProvider in Node adds a process 'exit' listener.
process.setMaxListeners(100);

const CLIENTS = 20;
const EDITS = 200;

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('bench timed out');
    await new Promise((r) => setImmediate(r));
  }
}

export async function benchCollaboration(): Promise<Record<string, number>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-collab-'));
  const svc = await startService(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOURNAL_IDLE_SECONDS: '3600' }));
  const org = await createOrganization(svc.ctx.engine, 'bench', 'enterprise');
  const { api_key: key } = await createApiKey(svc.ctx.engine, org.id);
  const principal = (await resolveApiKey(svc.ctx.engine, key))!;
  const md = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} of a journal with editors.`).join('\n\n');
  const row = await svc.ctx.journals.importMarkdown(principal, md, 'bench', undefined);
  const live = (await svc.ctx.registry.open(row))!;
  const blockId = (live.fragment.get(0) as Y.XmlElement).getAttribute('id') as string;
  const wsBase = svc.url.replace(/^http/, 'ws');
  class AuthWS extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false });
    }
  }
  const wsDocs: Y.Doc[] = [];
  const wsProviders: WebsocketProvider[] = [];
  const hpDocs: Y.Doc[] = [];
  const hpProviders: HocuspocusProvider[] = [];
  const sockets: HocuspocusProviderWebsocket[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const d = new Y.Doc();
    wsDocs.push(d);
    wsProviders.push(new WebsocketProvider(`${wsBase}/v1/journals/realtime`, row.id, d, { WebSocketPolyfill: AuthWS as never, disableBc: true }));
    const h = new Y.Doc();
    hpDocs.push(h);
    const socket = new HocuspocusProviderWebsocket({ url: `${wsBase}/v1/collaboration`, WebSocketPolyfill: WebSocket as never });
    sockets.push(socket);
    const p = new HocuspocusProvider({ websocketProvider: socket, name: row.id, token: key, document: h });
    p.attach();
    hpProviders.push(p);
  }
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const ws: number[] = [];
  const hp: number[] = [];
  try {
    await until(() => wsProviders.every((p) => p.synced) && hpProviders.every((p) => p.isSynced));
    for (let i = 0; i < EDITS; i++) {
      const marker = `edit ${i}`;
      const a = watchMarker(wsDocs, marker);
      const b = watchMarker(hpDocs, marker);
      const t0 = performance.now();
      const r = await fetch(`${svc.url}/v1/journals/editor/edit`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ journal_id: row.id, operations: [{ type: 'update_node', nodeId: blockId, nodeType: 'paragraph', params: [{ content: marker }] }] }),
      });
      if (r.status !== 200) throw new Error(`edit failed: ${r.status}`);
      await r.arrayBuffer();
      await until(() => a.pending === 0 && b.pending === 0);
      a.stop();
      b.stop();
      if (i >= 10) {
        // the first edits warm up
        ws.push(a.last - t0);
        hp.push(b.last - t0);
      }
    }
  } finally {
    for (const p of hpProviders) p.destroy();
    for (const s of sockets) s.destroy();
    for (const p of wsProviders) p.destroy();
    await svc.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const wsMedian = percentile(ws, 50);
  const hpMedian = percentile(hp, 50);
  return {
    [`REST edit -> all ${CLIENTS} y-websocket editors, median ms`]: wsMedian,
    [`REST edit -> all ${CLIENTS} y-websocket editors, p95 ms`]: percentile(ws, 95),
    [`REST edit -> all ${CLIENTS} hocuspocus providers (Tiptap's), median ms`]: hpMedian,
    [`REST edit -> all ${CLIENTS} hocuspocus providers (Tiptap's), p95 ms`]: percentile(hp, 95),
    'hocuspocus / y-websocket median (goal <= 1.5)': hpMedian / wsMedian,
  };
}
