/**
 * The Hocuspocus wire protocol, as `@hocuspocus/provider` 4.x speaks it: every message starts
 * with its address (varString: the document name, or `name\0sessionId` for a provider with
 * `sessionAwareness`), then a varUint type. Sync (0), awareness (1) and query awareness (3) carry
 * exactly what a y-websocket message carries after its type, so the rest of such a message is a
 * y-websocket message (server/realtime/protocol.ts) and is handled by the same code. Pure
 * encoding helpers; socket.ts decides what to do with each message.
 */
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

export const HocuspocusType = {
  Sync: 0,
  Awareness: 1,
  Auth: 2,
  QueryAwareness: 3,
  /** Sent by Hocuspocus servers in reply to a step 1 (no step 1 back); read like Sync. */
  SyncReply: 4,
  Stateless: 5,
  BroadcastStateless: 6,
  Close: 7,
  SyncStatus: 8,
  Ping: 9,
  Pong: 10,
} as const;

/** Sub-types of Auth messages (@hocuspocus/common auth.ts). */
export const AuthType = { Token: 0, PermissionDenied: 1, Authenticated: 2 } as const;

/** The scope in an Authenticated reply. */
export type HocuspocusScope = 'read-write' | 'readonly';

export class MalformedFrame extends Error {}

/** A frame split into its address, its document name (the address without a session id), its type. */
export interface Frame {
  address: string;
  documentName: string;
  type: number;
  /** Offset of what follows the type. */
  bodyOffset: number;
  data: Uint8Array;
}

export function readFrame(data: Uint8Array): Frame {
  try {
    const d = decoding.createDecoder(data);
    const address = decoding.readVarString(d);
    const type = decoding.readVarUint(d);
    const sep = address.indexOf('\0');
    return { address, documentName: sep === -1 ? address : address.slice(0, sep), type, bodyOffset: d.pos, data };
  } catch (err) {
    throw new MalformedFrame(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The y-websocket message inside a sync, awareness or query-awareness frame: its type and its body
 * (a view on the frame, no copy). A SyncReply is read as a sync message.
 */
export function innerMessage(frame: Frame): Uint8Array {
  const type = frame.type === HocuspocusType.SyncReply ? HocuspocusType.Sync : frame.type;
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, type);
  const head = encoding.toUint8Array(e);
  const body = frame.data.subarray(frame.bodyOffset);
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

/** The token of an Auth frame (type Token), or undefined for another auth sub-type. */
export function readAuthToken(frame: Frame): string | undefined {
  try {
    const d = decoding.createDecoder(frame.data.subarray(frame.bodyOffset));
    if (decoding.readVarUint(d) !== AuthType.Token) return undefined;
    return decoding.readVarString(d);
  } catch (err) {
    throw new MalformedFrame(err instanceof Error ? err.message : String(err));
  }
}

/** The payload of a Stateless or BroadcastStateless frame. */
export function readStateless(frame: Frame): string {
  try {
    return decoding.readVarString(decoding.createDecoder(frame.data.subarray(frame.bodyOffset)));
  } catch (err) {
    throw new MalformedFrame(err instanceof Error ? err.message : String(err));
  }
}

/** The address prefix of every message sent for `address`. */
export function addressPrefix(address: string): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, address);
  return encoding.toUint8Array(e);
}

/** A y-websocket message (type + body) sent for a document: the address, then the message. */
export function addressed(prefix: Uint8Array, message: Uint8Array): Uint8Array {
  const out = new Uint8Array(prefix.length + message.length);
  out.set(prefix, 0);
  out.set(message, prefix.length);
  return out;
}

function frameOf(address: string, type: number, write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, address);
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
}

export function encodeAuthenticated(address: string, scope: HocuspocusScope): Uint8Array {
  return frameOf(address, HocuspocusType.Auth, (e) => {
    encoding.writeVarUint(e, AuthType.Authenticated);
    encoding.writeVarString(e, scope);
  });
}

export function encodePermissionDenied(address: string, reason: string): Uint8Array {
  return frameOf(address, HocuspocusType.Auth, (e) => {
    encoding.writeVarUint(e, AuthType.PermissionDenied);
    encoding.writeVarString(e, reason);
  });
}

/** "Saved" (true) or "not saved" (false) for one update or sync step 2 of the client. */
export function encodeSyncStatus(address: string, saved: boolean): Uint8Array {
  return frameOf(address, HocuspocusType.SyncStatus, (e) => encoding.writeVarUint(e, saved ? 1 : 0));
}

export function encodeStateless(address: string, payload: string): Uint8Array {
  return frameOf(address, HocuspocusType.Stateless, (e) => encoding.writeVarString(e, payload));
}

/** The server closes one document of the socket; the provider shows `reason`. */
export function encodeClose(address: string, reason: string): Uint8Array {
  return frameOf(address, HocuspocusType.Close, (e) => encoding.writeVarString(e, reason));
}
