/**
 * The y-websocket wire protocol, as the stock client speaks it: every message starts with a
 * varuint type; sync messages (0) carry a y-protocols sync step 1, step 2 or update, awareness
 * messages (1) an awareness update, and a query (3) asks for every awareness state. Pure
 * encoding helpers; connection.ts decides what to do with each message.
 */
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { scanUpdate } from './update-scan.ts';

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
// 2 is y-protocols' auth message: the server never sends one, and one from an editor is ignored like any unknown type.
export const MESSAGE_QUERY_AWARENESS = 3;

export class MalformedMessage extends Error {}

export function encodeSyncStep1(doc: Y.Doc): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  syncProtocol.writeSyncStep1(e, doc);
  return encoding.toUint8Array(e);
}

export function encodeSyncStep2(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

/**
 * The start of a sync step 2 message carrying an update of `length` bytes: sent as the first
 * fragment of the message, the update itself (shared, never copied) as the second.
 */
export function encodeSyncStep2Header(length: number): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2);
  encoding.writeVarUint(e, length);
  return encoding.toUint8Array(e);
}

export function encodeUpdate(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  syncProtocol.writeUpdate(e, update);
  return encoding.toUint8Array(e);
}

export function encodeAwareness(awareness: awarenessProtocol.Awareness, clients: number[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
  return encoding.toUint8Array(e);
}

/** One decoded client message; unknown types are kept as `other` and ignored by the caller. */
export type ClientMessage =
  | { kind: 'sync-step1'; stateVector: Uint8Array }
  | { kind: 'update'; update: Uint8Array; structs: (Y.Item | Y.GC | Y.Skip)[] }
  /** An update over the item limit, or carrying subdocuments: not decoded (update-scan.ts). */
  | { kind: 'update-too-large'; items: number }
  | { kind: 'update-subdocs' }
  | { kind: 'awareness'; update: Uint8Array }
  | { kind: 'query-awareness' }
  | { kind: 'other'; type: number };

/**
 * Decodes one binary message, validating Yjs updates fully (every struct decodes) before anyone
 * applies them: a malformed frame must fail here, not halfway into the shared document. The
 * decoded structs go along for the schema check (update-guard.ts). An update is first scanned
 * (update-scan.ts): over `maxUpdateItems` items, or with a subdocument, it is not decoded.
 */
export function decodeClientMessage(data: Uint8Array, limits: { maxUpdateItems: number } = { maxUpdateItems: Infinity }): ClientMessage {
  try {
    const d = decoding.createDecoder(data);
    const type = decoding.readVarUint(d);
    switch (type) {
      case MESSAGE_SYNC: {
        const sub = decoding.readVarUint(d);
        const payload = decoding.readVarUint8Array(d);
        if (sub === syncProtocol.messageYjsSyncStep1) {
          Y.decodeStateVector(payload);
          return { kind: 'sync-step1', stateVector: payload };
        }
        if (sub === syncProtocol.messageYjsSyncStep2 || sub === syncProtocol.messageYjsUpdate) {
          // Counted before anything is built: decoding costs per item, whatever the bytes.
          const scan = scanUpdate(payload, limits.maxUpdateItems);
          if (scan.overLimit) return { kind: 'update-too-large', items: scan.items };
          if (scan.subdocs > 0) return { kind: 'update-subdocs' };
          return { kind: 'update', update: payload, structs: Y.decodeUpdate(payload).structs };
        }
        throw new Error(`unknown sync message type ${sub}`);
      }
      case MESSAGE_AWARENESS:
        return { kind: 'awareness', update: decoding.readVarUint8Array(d) };
      case MESSAGE_QUERY_AWARENESS:
        return { kind: 'query-awareness' };
      default:
        return { kind: 'other', type };
    }
  } catch (err) {
    throw new MalformedMessage(err instanceof Error ? err.message : String(err));
  }
}
