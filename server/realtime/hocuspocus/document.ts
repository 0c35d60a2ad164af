/**
 * One journal opened on a Hocuspocus socket. It is an editor connection like a y-websocket one
 * (server/realtime/connection.ts: rate limits, decoding, the schema guard, awareness screening,
 * the room's fan-out), whose socket is a view of the shared WebSocket (DocumentSocket: every
 * message sent gets the document's address, a message sent in fragments in its first one; a
 * permanent refusal closes only this document).
 * On top, each update or sync step 2 of the client is answered with a sync status: "saved" once
 * the update is committed to the store (the durability rule of docs/realtime.md), "not saved"
 * when it is not applied (a read-only connection). An update Yjs holds (in part) for missing
 * dependencies is answered once they arrive and it is committed, or "not saved" when what Yjs held
 * is dropped: the provider sends what it queued while reconnecting after what it types once the
 * socket is open, so held updates are routine, and it counts only "saved" answers.
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import type { Principal } from '../../auth/keys.ts';
import type { Logger } from '../../logger.ts';
import { Connection, type EditorMeter } from '../connection.ts';
import type { EditorLimits } from '../limits.ts';
import type { Room } from '../room.ts';
import { endsReached, heldEnds, pendingDrops, type Struct } from '../../journals/pending.ts';
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

/** A sync status owed for an update of the client. */
interface Owed {
  /** What the journal emitted when the update was applied in full (none: it changed nothing). */
  update?: Uint8Array;
  /** Set while Yjs holds part of it: the clocks its structs reach, and the drop count then. */
  held?: { ends: ReadonlyMap<number, number>; deletes: boolean; drops: number };
}

export class HocuspocusDocument extends Connection {
  /** Sync statuses owed, in the order the updates were applied in full. */
  private owed: Owed[] = [];
  private heldCount = 0;
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
      if (this.heldCount > 0) this.settleHeld(update);
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

  protected override updateApplied(structs: readonly Struct[], deletesHeld: boolean): void {
    const update = this.lastEmitted;
    this.lastEmitted = undefined;
    const doc = this.room.live.doc;
    const ends = heldEnds(doc, structs);
    if (ends || deletesHeld) {
      // Not stored until what it waits for arrives (settleHeld).
      this.owed.push({ held: { ends: ends ?? new Map(), deletes: deletesHeld, drops: pendingDrops(doc) } });
      this.heldCount++;
      return;
    }
    this.owed.push({ update });
    // Nothing new (a duplicate, an empty step 2) and nothing uncommitted: saved already.
    if (update === undefined && this.room.live.settled) this.pay(this.owed.length);
  }

  /**
   * After a change of the journal (`update`): held updates now in the document in full were applied
   * by it, and join the end of the queue with it; those whose held part was dropped never will be.
   */
  private settleHeld(update: Uint8Array): void {
    const doc = this.room.live.doc;
    const drops = pendingDrops(doc);
    const done: Owed[] = [];
    this.owed = this.owed.filter((o) => {
      const h = o.held;
      if (!h) return true;
      if (endsReached(doc, h.ends) && !(h.deletes && doc.store.pendingDs)) done.push({ update });
      else if (h.drops !== drops) this.socket.sendFrame(encodeSyncStatus(this.address, false));
      else return true;
      this.heldCount--;
      return false;
    });
    this.owed.push(...done);
  }

  /**
   * A committed update of the journal: updates are committed in the order they were applied, so
   * everything owed up to this one is stored; and when nothing is left uncommitted, all is.
   */
  private committed(update: Uint8Array): void {
    if (this.owed.length === 0) return;
    const i = this.owed.findIndex((o) => o.update === update);
    if (i >= 0) this.pay(i + 1);
    if (this.owed.length > 0 && this.room.live.settled) this.pay(this.owed.length);
  }

  /** Answers "saved" for the first `n` owed, except those still held. */
  private pay(n: number): void {
    if (this.heldCount === 0) {
      for (const _ of this.owed.splice(0, n)) this.socket.sendFrame(encodeSyncStatus(this.address, true));
      return;
    }
    const paid = this.owed.splice(0, n);
    const held = paid.filter((o) => o.held);
    for (let i = held.length; i < paid.length; i++) this.socket.sendFrame(encodeSyncStatus(this.address, true));
    this.owed.unshift(...held);
  }

  sendStateless(payload: string): void {
    this.socket.sendFrame(encodeStateless(this.address, payload));
  }

  /** Stops listening to the journal (the document is closed). */
  detach(): void {
    this.offUpdate();
    this.offCommitted();
    this.owed.length = 0;
    this.heldCount = 0;
  }
}
