/**
 * One editor's WebSocket. Handles the y-websocket messages in the order they arrive, each one
 * completely (persist, apply, broadcast) before the next, and closes only this connection on
 * bad input.
 */
import type { WebSocket } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { newBlockId } from '../../shared/ids.ts';
import type { Principal } from '../auth/keys.ts';
import type { Logger } from '../logger.ts';
import { CloseCode } from './close-codes.ts';
import { decodeClientMessage, encodeAwareness, encodeSyncStep1, encodeSyncStep2 } from './protocol.ts';
import type { Room } from './room.ts';

/** A connection whose unsent data passes this is too slow to follow the journal: it must resync. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export class Connection {
  /** Awareness client ids this connection announced, removed when it closes. */
  readonly awarenessClients = new Set<number>();
  alive = true;
  private closed = false;

  constructor(
    readonly ws: WebSocket,
    readonly room: Room,
    readonly principal: Principal,
    private readonly logger: Logger,
    private readonly onStorageFailure: (room: Room) => void,
  ) {}

  /** Server half of the opening handshake: our state vector, then everyone's awareness. */
  start(): void {
    this.send(encodeSyncStep1(this.room.live.doc));
    const states = this.room.awareness.getStates();
    if (states.size > 0) this.send(encodeAwareness(this.room.awareness, [...states.keys()]));
  }

  send(message: Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(CloseCode.TRY_AGAIN_LATER, 'connection too slow; reconnect to resync');
      return;
    }
    this.ws.send(message, { binary: true });
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.room.remove(this);
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  /** The socket is gone (closed by either side or terminated). */
  released(): void {
    this.closed = true;
    this.room.remove(this);
  }

  handle(data: Uint8Array, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) {
      this.close(CloseCode.UNSUPPORTED_DATA, 'text frames are not supported; send binary y-protocols messages');
      return;
    }
    let message;
    try {
      message = decodeClientMessage(data);
    } catch (err) {
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, err: (err as Error).message }, 'malformed realtime message');
      this.close(CloseCode.MALFORMED, 'malformed message');
      return;
    }
    const { live, awareness } = this.room;
    switch (message.kind) {
      case 'sync-step1':
        this.send(encodeSyncStep2(Y.encodeStateAsUpdate(live.doc, message.stateVector)));
        return;
      case 'update':
        this.applyUpdate(message.update);
        return;
      case 'awareness':
        try {
          awarenessProtocol.applyAwarenessUpdate(awareness, message.update, this);
        } catch {
          this.close(CloseCode.MALFORMED, 'malformed awareness message');
        }
        return;
      case 'query-awareness':
        this.send(encodeAwareness(awareness, [...awareness.getStates().keys()]));
        return;
      default:
        return; // auth (2) and future message types: ignored, as the y-websocket server does
    }
  }

  /**
   * The journal's first update listener appends the update to SQLite (synchronously, in one
   * transaction) before the room's listener broadcasts it; nothing is sent if the append fails.
   */
  private applyUpdate(update: Uint8Array): void {
    const { live } = this.room;
    try {
      Y.applyUpdate(live.doc, update, this);
      live.assignBlockIds(newBlockId);
      live.touch();
    } catch (err) {
      if (live.broken) {
        this.logger.error({ err, journal_id: live.id }, 'persisting a realtime update failed; reloading the journal');
        this.onStorageFailure(this.room);
        return;
      }
      this.logger.warn({ journal_id: live.id, err: (err as Error).message }, 'realtime update could not be applied');
      this.close(CloseCode.MALFORMED, 'update could not be applied');
    }
  }
}
