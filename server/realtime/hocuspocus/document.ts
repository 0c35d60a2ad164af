/**
 * One journal opened on a Hocuspocus socket. It is an editor connection like a y-websocket one
 * (server/realtime/connection.ts: rate limits, decoding, the schema guard, awareness screening,
 * the room's fan-out), whose socket is a view of the shared WebSocket (DocumentSocket: every
 * message sent gets the document's address, a message sent in fragments in its first one; a
 * permanent refusal closes only this document).
 * On top, each update or sync step 2 of the client is answered with a sync status: "saved" once
 * the update is committed to the store (the durability rule of docs/realtime.md), "not saved"
 * when it is not applied (a read-only connection) or Yjs holds part of it for missing dependencies.
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import type { Principal } from '../../auth/keys.ts';
import type { Logger } from '../../logger.ts';
import { Connection, type EditorMeter } from '../connection.ts';
import type { EditorLimits } from '../limits.ts';
import type { Room } from '../room.ts';
import { addressed, addressPrefix, encodeClose, encodeStateless, encodeSyncStatus } from './protocol.ts';

/** What a DocumentSocket needs of the shared socket (socket.ts). */
export interface SharedSocket {
  readonly ws: WebSocket;
  /** Pauses reading while any document asks it to (their handling yields, connection.ts). */
  pause(by: object): void;
  resume(by: object): void;
  /** Closes the whole socket (every document reconnects and resyncs). */
  close(code: number, reason: string): void;
}

/**
 * Codes that close one document only (permanent refusals, 4400-4499): a Close message for its
 * address, whose reason starts with the code. Anything else (1001 shutdown, 1007, 1011, 1013) is
 * transient and closes the socket, so that the provider reconnects and resyncs every document.
 */
export function closesDocumentOnly(code: number): boolean {
  return code >= 4400 && code <= 4499;
}

/** The part of ws's WebSocket that Connection uses, for one document of a shared socket. */
export class DocumentSocket extends EventEmitter {
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 1;
  readonly prefix: Uint8Array;

  constructor(
    private readonly shared: SharedSocket,
    readonly address: string,
  ) {
    super();
    this.prefix = addressPrefix(address);
  }

  get bufferedAmount(): number {
    return this.shared.ws.bufferedAmount;
  }

  private get open(): boolean {
    return this.readyState === this.OPEN && this.shared.ws.readyState === this.shared.ws.OPEN;
  }

  /** Whether a message of this document was begun (`fin: false`) and not yet finished. */
  private midMessage = false;

  /**
   * A y-websocket message (type + body), or a fragment of one, sent with this document's address,
   * as ws's `send(data, {fin}, cb)` that Connection uses: the first fragment of a message carries
   * the address, the others go as they are (Connection writes a message's fragments in one go, so
   * no other document's frame comes between them), and `cb` is called once the last is written
   * (with an error when the document or the socket is closed, as ws does).
   */
  send(message: Uint8Array, options: { fin?: boolean } = {}, cb?: (err?: Error) => void): void {
    if (!this.open) {
      this.midMessage = false;
      if (cb) queueMicrotask(() => cb(new Error('document closed')));
      return;
    }
    const fin = options.fin ?? true;
    const data = this.midMessage ? message : addressed(this.prefix, message);
    this.midMessage = !fin;
    this.shared.ws.send(data, { binary: true, fin }, cb);
  }

  /** A complete Hocuspocus frame of this document. */
  sendFrame(frame: Uint8Array): void {
    if (this.open) this.shared.ws.send(frame, { binary: true });
  }

  close(code: number, reason: string): void {
    if (this.readyState === this.CLOSED) return;
    if (closesDocumentOnly(code)) this.sendFrame(encodeClose(this.address, `${code} ${reason}`));
    else this.shared.close(code, reason);
    this.gone(code);
  }

  /** The document is closed (by the server, the client's Close, or the socket going away). */
  gone(code: number): void {
    if (this.readyState === this.CLOSED) return;
    this.readyState = this.CLOSED;
    this.shared.resume(this);
    this.emit('close', code);
  }

  pause(): void {
    if (this.readyState !== this.CLOSED) this.shared.pause(this);
  }

  resume(): void {
    this.shared.resume(this);
  }

  /** Dropping a document that no longer reads: it is closed already; otherwise the whole socket. */
  terminate(): void {
    if (this.readyState !== this.CLOSED) this.shared.ws.terminate();
  }

  ping(): void {
    this.shared.ws.ping();
  }
}

export class HocuspocusDocument extends Connection {
  /** Sync statuses owed, in the order of the client's updates. */
  private readonly owed: { update?: Uint8Array }[] = [];
  /** What the journal emitted for this connection's last applied update. */
  private lastEmitted?: Uint8Array;
  private readonly offUpdate: () => void;
  private readonly offCommitted: () => void;

  constructor(
    readonly socket: DocumentSocket,
    room: Room<Connection>,
    principal: Principal,
    logger: Logger,
    limits: EditorLimits,
    meter: EditorMeter | undefined,
    readOnly: boolean,
    /** Releases the journal and organization connection slot (hub.claimSlot). */
    readonly release: () => void,
  ) {
    super(socket as unknown as WebSocket, room, principal, logger, limits, meter, readOnly);
    const doc = room.live.doc;
    const onUpdate = (update: Uint8Array, origin: unknown) => {
      if (origin === this) this.lastEmitted = update;
    };
    doc.on('update', onUpdate);
    this.offUpdate = () => doc.off('update', onUpdate);
    this.offCommitted = room.live.onCommitted((update) => this.committed(update));
  }

  get address(): string {
    return this.socket.address;
  }

  protected override readOnlyUpdate(news: boolean): void {
    // As Hocuspocus answers a read-only connection: never closed, told what was not saved.
    this.socket.sendFrame(encodeSyncStatus(this.address, !news));
  }

  protected override updateApplied(held: boolean): void {
    const update = this.lastEmitted;
    this.lastEmitted = undefined;
    if (held) {
      // Part of it waits for updates the server has not seen: not stored, so not saved.
      this.socket.sendFrame(encodeSyncStatus(this.address, false));
      return;
    }
    this.owed.push({ update });
    // Nothing new (a duplicate, an empty step 2) and nothing uncommitted: saved already.
    if (update === undefined && this.room.live.settled) this.pay(this.owed.length);
  }

  /**
   * A committed update of the journal: own updates are committed in the order they were applied,
   * so everything owed up to this one is stored; and when nothing is left uncommitted, all is.
   */
  private committed(update: Uint8Array): void {
    if (this.owed.length === 0) return;
    const i = this.owed.findIndex((o) => o.update === update);
    if (i >= 0) this.pay(i + 1);
    if (this.owed.length > 0 && this.room.live.settled) this.pay(this.owed.length);
  }

  private pay(n: number): void {
    for (const _ of this.owed.splice(0, n)) this.socket.sendFrame(encodeSyncStatus(this.address, true));
  }

  sendStateless(payload: string): void {
    this.socket.sendFrame(encodeStateless(this.address, payload));
  }

  /** Stops listening to the journal (the document is closed). */
  detach(): void {
    this.offUpdate();
    this.offCommitted();
    this.owed.length = 0;
  }
}
