/**
 * Real y-websocket editors in Node for the realtime suites: a stock WebsocketProvider with ws as
 * its WebSocket (a subclass adds the Authorization header, as a Node script would).
 */
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import { afterAll } from 'vitest';
import * as Y from 'yjs';
import { serverSuite, type Client, type TestServer, type TestServerOptions } from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';

export const REALTIME = '/v1/journals/realtime';

// Each WebsocketProvider in Node adds a process 'exit' listener (to clear its awareness state);
// suites open more than Node's default of 10 at once.
process.setMaxListeners(100);

export function wsUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws') + REALTIME;
}

/** ws's WebSocket that sends `Authorization: Bearer <key>` on the upgrade. */
export function bearerWebSocket(key: string) {
  return class BearerWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${key}` } });
    }
  };
}

export interface Editor {
  doc: Y.Doc;
  provider: WebsocketProvider;
  fragment: Y.XmlFragment;
  closes: { code: number; reason: string }[];
  destroy(): void;
}

export function connectEditor(
  httpUrl: string,
  journalId: string,
  cred: { key?: string; token?: string },
  opts: { doc?: Y.Doc; connect?: boolean } = {},
): Editor {
  const doc = opts.doc ?? new Y.Doc();
  const provider = new WebsocketProvider(wsUrl(httpUrl), journalId, doc, {
    WebSocketPolyfill: (cred.key ? bearerWebSocket(cred.key) : WebSocket) as never,
    params: cred.token ? { token: cred.token } : {},
    disableBc: true,
    connect: opts.connect ?? true,
    maxBackoffTime: 200,
  });
  const closes: { code: number; reason: string }[] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push({ code: event.code, reason: String(event.reason) });
  });
  return {
    doc,
    provider,
    fragment: doc.getXmlFragment('prosemirror'),
    closes,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Polls until `check` returns a truthy value (bounded; never a timing assertion). */
export function waitFor<T>(check: () => T | undefined | false | null, what = 'condition', ms = 10_000): Promise<T> {
  return until(check, what, ms);
}

export function synced(e: Editor): Promise<void> {
  return waitFor(() => e.provider.synced, 'sync').then(() => undefined);
}

/** Top-level blocks of an editor's document as { type, id, text }. */
export function editorBlocks(e: Editor): { type: string; id: unknown; text: string }[] {
  return e.fragment.toArray().map((n) => {
    const el = n as Y.XmlElement;
    return { type: el.nodeName, id: el.getAttribute('id'), text: textOfY(el) };
  });
}

export function textOfY(n: Y.XmlElement | Y.XmlText | Y.XmlHook): string {
  if (n instanceof Y.XmlText) return n.toDelta().map((d: { insert: unknown }) => (typeof d.insert === 'string' ? d.insert : '')).join('');
  if (n instanceof Y.XmlElement) return n.toArray().map((c) => textOfY(c as Y.XmlElement)).join('');
  return '';
}

export function blockById(e: Editor, id: string): Y.XmlElement | undefined {
  return e.fragment.toArray().find((n) => n instanceof Y.XmlElement && n.getAttribute('id') === id) as Y.XmlElement | undefined;
}

/** The text of block `id` in an editor's document, or undefined when it has no such block. */
export function blockText(e: Editor, id: string): string | undefined {
  const el = blockById(e, id);
  return el ? textOfY(el) : undefined;
}

/** Types into a block the way y-prosemirror does: into the XmlText inside the block's element. */
export function typeInto(e: Editor, id: string, index: number, text: string): void {
  const el = blockById(e, id);
  if (!el) throw new Error(`block ${id} not in the editor's document`);
  let t = el.toArray().find((c) => c instanceof Y.XmlText) as Y.XmlText | undefined;
  e.doc.transact(() => {
    if (!t) {
      t = new Y.XmlText();
      el.insert(0, [t]);
    }
    t.insert(Math.min(index, t.length), text);
  });
}

/** Opens a raw ws to the endpoint; resolves with the HTTP status of a refused upgrade, or 101. */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    let sawData = false;
    ws.on('message', () => {
      sawData = true;
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101, body: sawData ? 'data' : '' });
    });
    ws.on('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/**
 * The usual set-up of a realtime test file (serverSuite): a server with `opts` and a client,
 * handed to `ready`; returns `editor(id)`, a stock editor connected with that client's key (or
 * `cred`), destroyed after the file's tests.
 */
export function editorSuite(
  opts: TestServerOptions,
  ready: (server: TestServer, client: Client) => void | Promise<void>,
): (journalId: string, cred?: { key?: string; token?: string }) => Editor {
  let server: TestServer;
  let client: Client;
  const open: Editor[] = [];
  serverSuite(opts, async (s, c) => {
    server = s;
    client = c;
    await ready(s, c);
  });
  afterAll(() => {
    for (const e of open) e.destroy();
  });
  return (journalId, cred = { key: client.key }) => {
    const e = connectEditor(server.url, journalId, cred);
    open.push(e);
    return e;
  };
}
