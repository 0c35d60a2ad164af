/**
 * The editors of one loaded journal: the connections, their shared awareness, and the fan-out of
 * document updates. The room hears of updates from the LiveJournal once they are committed, so
 * everything it sends is already in the store.
 */
import * as awarenessProtocol from 'y-protocols/awareness';
import { RemoteOrigin, RestOrigin, UNLOAD_MESSAGE, type LiveJournal } from '../journals/live.ts';
import type { RoomAwarenessView } from './awareness-guard.ts';
import { CLOSE_CODE_FOR_UNLOAD } from './close-codes.ts';
import type { Principal } from '../auth/keys.ts';
import { encodeAwareness, encodeUpdate } from './protocol.ts';

/** y-protocols drops a state not renewed for this long; clients renew every 15 s. */
const AWARENESS_OUTDATED_MS = 30_000;

/** Origin of awareness changes that editors on other instances made (server/cluster/sync.ts). */
const REMOTE_AWARENESS = Symbol('remote awareness');

/** What a room shares with the rooms of the same journal on other instances. */
export interface RoomPeers {
  /** Publishes an awareness update of this instance's editors. */
  publish(update: Uint8Array): void;
  /** Asks the other instances for their editors' awareness. */
  query(): void;
}

/** From another instance: its editors' awareness, or a request for this instance's. */
export type PeerAwareness = { update: Uint8Array } | { query: true };

/** The other instances' rooms, when there are any (server/cluster/sync.ts implements this). */
export interface AwarenessPeers {
  /** How the room of `journalId` reaches its peers; undefined when nothing carries awareness. */
  peersOf(journalId: string): RoomPeers | undefined;
  onPeerAwareness(listener: (journalId: string, m: PeerAwareness) => void): void;
}

/**
 * What the room needs of an editor's connection (connection.ts implements it). Declared here so
 * that the room does not import the connection, which imports the room.
 */
export interface RoomMember {
  readonly principal: Principal;
  /** Awareness client ids whose state this connection holds. */
  readonly awarenessClients: Set<number>;
  /** Ids the connection's own client announced. */
  readonly ownAwarenessClients: Set<number>;
  send(message: Uint8Array): void;
  close(code: number, reason: string): void;
}

export class Room<M extends RoomMember = RoomMember> {
  readonly connections = new Set<M>();
  readonly awareness: awarenessProtocol.Awareness;
  /** Which connection holds each awareness client id that has a state. */
  private readonly awarenessHolders = new Map<number, M>();
  private readonly offClose: () => void;
  private readonly offCommitted: () => void;
  private destroyed = false;

  constructor(
    readonly live: LiveJournal,
    private readonly onEmpty: (room: Room<M>) => void,
    private readonly peers?: RoomPeers,
  ) {
    this.awareness = new awarenessProtocol.Awareness(live.doc);
    this.awareness.setLocalState(null);
    this.awareness.on('update', this.onAwareness);
    peers?.query();
    this.offCommitted = live.onCommitted(this.onUpdate);
    // Deleted, reloaded after a storage error, or shutting down: tell every editor why.
    this.offClose = live.onClose((reason) => this.closeAll(CLOSE_CODE_FOR_UNLOAD[reason], UNLOAD_MESSAGE[reason]));
  }

  get journalId(): string {
    return this.live.id;
  }

  add(conn: M): void {
    this.connections.add(conn);
    this.live.holders++;
    this.live.touch();
  }

  remove(conn: M): void {
    if (!this.connections.delete(conn)) return;
    this.live.holders--;
    this.live.touch();
    if (conn.awarenessClients.size > 0 && !this.destroyed) {
      awarenessProtocol.removeAwarenessStates(this.awareness, [...conn.awarenessClients], null);
    }
    if (this.connections.size === 0) this.destroy();
  }

  closeAll(code: number, reason: string): void {
    for (const c of [...this.connections]) c.close(code, reason);
  }

  /**
   * sync_realtime_state false: a REST edit is saved but not pushed to the editors connected now;
   * they get it with their next sync exchange (reconnect or resync). See docs/realtime.md.
   */
  private readonly onUpdate = (update: Uint8Array, origin: unknown): void => {
    if ((origin instanceof RestOrigin || origin instanceof RemoteOrigin) && !origin.broadcast) return;
    if (this.connections.size === 0) return;
    const message = encodeUpdate(update);
    for (const c of this.connections) if (c !== origin) c.send(message);
  };

  /**
   * Connections only ever apply states for ids they may set (connection.ts screens each message),
   * so the origin of an added or updated state holds it from then on; a removed state (by its
   * holder, by a closing connection, or by y-protocols' 30 s timeout) is held by nobody.
   */
  private readonly onAwareness = (
    changes: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    const conn = this.connectionOf(origin);
    if (conn) {
      for (const id of changes.added) this.hold(id, conn);
      for (const id of changes.updated) this.hold(id, conn);
    }
    for (const id of changes.removed) this.release(id);
    const changed = [...new Set([...changes.added, ...changes.updated, ...changes.removed])];
    if (changed.length === 0) return;
    // Changes by editors here (or their removal when they leave) go to the other instances too.
    if (this.peers && (conn || origin === null)) this.peers.publish(awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed));
    if (this.connections.size === 0) return;
    const message = encodeAwareness(this.awareness, changed);
    for (const c of this.connections) c.send(message);
  };

  /** Awareness from editors on another instance. */
  applyRemoteAwareness(update: Uint8Array): void {
    if (this.destroyed) return;
    try {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, update, REMOTE_AWARENESS);
    } catch {
      // Another instance screened it already; a damaged message is dropped.
    }
  }

  /** Another instance asks: the states of this instance's editors. */
  publishLocalAwareness(): void {
    const ids = [...this.awarenessHolders.keys()].filter((id) => this.awareness.states.has(id));
    if (ids.length > 0) this.peers?.publish(awarenessProtocol.encodeAwarenessUpdate(this.awareness, ids));
  }

  private hold(id: number, conn: M): void {
    const previous = this.awarenessHolders.get(id);
    if (previous && previous !== conn) previous.awarenessClients.delete(id);
    this.awarenessHolders.set(id, conn);
    conn.awarenessClients.add(id);
  }

  private release(id: number): void {
    const holder = this.awarenessHolders.get(id);
    if (!holder) return;
    holder.awarenessClients.delete(id);
    this.awarenessHolders.delete(id);
  }

  awarenessHolder(id: number): M | undefined {
    return this.awarenessHolders.get(id);
  }

  /** What awareness-guard.ts needs to know about this room, seen from `conn`. */
  awarenessView(conn: M): RoomAwarenessView {
    return {
      clock: (id) => this.awareness.meta.get(id)?.clock,
      hasState: (id) => this.awareness.states.has(id),
      holder: (id) => {
        const h = this.awarenessHolders.get(id);
        if (!h) return undefined;
        return { self: h === conn, own: h.ownAwarenessClients.has(id), sameKey: h.principal.keyId === conn.principal.keyId };
      },
    };
  }

  /**
   * Forgets the clocks of client ids whose state was removed more than 30 s ago (y-protocols
   * keeps them forever). By then every client has dropped those states too, so no stale copy can
   * come back; this bounds what ids that come and go leave behind.
   */
  pruneAwareness(now = Date.now()): void {
    for (const [id, meta] of this.awareness.meta) {
      if (id !== this.awareness.clientID && !this.awareness.states.has(id) && now - meta.lastUpdated > AWARENESS_OUTDATED_MS) {
        this.awareness.meta.delete(id);
      }
    }
  }

  private connectionOf(origin: unknown): M | undefined {
    return this.connections.has(origin as M) ? (origin as M) : undefined;
  }

  /** Detaches from the journal; the journal stays loaded until the registry's idle sweep. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.offCommitted();
    this.awareness.off('update', this.onAwareness);
    this.awareness.destroy();
    this.offClose();
    for (const c of [...this.connections]) this.remove(c);
    this.onEmpty(this);
  }
}
