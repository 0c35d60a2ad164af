/**
 * Real `@hocuspocus/provider` clients in Node for the Hocuspocus suites: one
 * HocuspocusProviderWebsocket (ws as its WebSocket) that providers of several journals share.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { waitFor } from './helpers.ts';

export const COLLABORATION = '/v1/collaboration';

export function collaborationUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws') + COLLABORATION;
}

export interface HpDoc {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  fragment: Y.XmlFragment;
  /** The scope of the authenticated reply, or the reason of a denial. */
  authenticated?: string;
  denied?: string;
  /** Sync statuses received, in order ("saved" true / false), and Close messages. */
  statuses: boolean[];
  closes: string[];
  stateless: string[];
}

export function hocuspocusSocket(httpUrl: string): HocuspocusProviderWebsocket {
  return new HocuspocusProviderWebsocket({
    url: collaborationUrl(httpUrl),
    WebSocketPolyfill: WebSocket as never,
    delay: 50,
    minDelay: 50,
    maxDelay: 200,
  });
}

/** A provider of journal `name` on `socket` (its own socket when none is given). */
export function openDocument(socket: HocuspocusProviderWebsocket, name: string, token: string, doc = new Y.Doc()): HpDoc {
  const d: HpDoc = { doc, fragment: doc.getXmlFragment('prosemirror'), statuses: [], closes: [], stateless: [] } as unknown as HpDoc;
  d.provider = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    token,
    document: doc,
    onAuthenticated: ({ scope }) => (d.authenticated = scope),
    onAuthenticationFailed: ({ reason }) => (d.denied = reason),
    onStateless: ({ payload }) => d.stateless.push(payload),
    onClose: ({ event }) => d.closes.push(String(event.reason)),
  });
  // SyncStatus messages, as the provider receives them (type 8 after the address).
  d.provider.on('message', ({ message }: { message: { decoder: { arr: Uint8Array; pos: number } } }) => {
    const bytes = message.decoder.arr;
    let pos = 0;
    let len = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++]!;
      len |= (b & 0x7f) << shift;
      shift += 7;
      if (b < 0x80) break;
    }
    pos += len;
    if (bytes[pos] === 8) d.statuses.push(bytes[pos + 1] === 1);
  });
  d.provider.attach();
  return d;
}

export function hpSynced(d: HpDoc): Promise<void> {
  return waitFor(() => d.provider.isSynced, 'hocuspocus provider synced').then(() => undefined);
}

/** Until every change the provider sent is answered "saved". */
export function hpSaved(d: HpDoc): Promise<void> {
  return waitFor(() => d.provider.isSynced && !d.provider.hasUnsyncedChanges, 'hocuspocus changes saved').then(() => undefined);
}
