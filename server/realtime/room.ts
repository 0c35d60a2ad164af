/**
 * The editors of one loaded journal: the connections, their shared awareness, and the fan-out of
 * document updates. The room listens to the LiveJournal's Y.Doc after the journal's own
 * persistence listener, so everything it sends is already committed to SQLite.
 */
import * as awarenessProtocol from 'y-protocols/awareness';
import { RestOrigin, type LiveJournal } from '../journals/live.ts';
import type { RoomAwarenessView } from './awareness-guard.ts';
import { closeCodeForUnload } from './close-codes.ts';
import type { Connection } from './connection.ts';
import { encodeAwareness, encodeUpdate } from './protocol.ts';

/** y-protocols drops a state not renewed for this long; clients renew every 15 s. */
const AWARENESS_OUTDATED_MS = 30_000;

export class Room {
  readonly connections = new Set<Connection>();
  readonly awareness: awarenessProtocol.Awareness;
  /** Which connection holds each awareness client id that has a state. */
  private readonly awarenessHolders = new Map<number, Connection>();
  private readonly offClose: () => void;
  private destroyed = false;

  constructor(
    readonly live: LiveJournal,
    private readonly onEmpty: (room: Room) => void,
  ) {
    this.awareness = new awarenessProtocol.Awareness(live.doc);
    this.awareness.setLocalState(null);
    this.awareness.on('update', this.onAwareness);
    live.doc.on('update', this.onUpdate);
    // Deleted, reloaded after a storage error, or shutting down: tell every editor why.
    this.offClose = live.onClose((reason) => this.closeAll(closeCodeForUnload(reason), reason));
  }

  get journalId(): string {
    return this.live.id;
  }

  add(conn: Connection): void {
    this.connections.add(conn);
    this.live.holders++;
    this.live.touch();
  }

  remove(conn: Connection): void {
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
    if (origin instanceof RestOrigin && !origin.broadcast) return;
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
    if (changed.length === 0 || this.connections.size === 0) return;
    const message = encodeAwareness(this.awareness, changed);
    for (const c of this.connections) c.send(message);
  };

  private hold(id: number, conn: Connection): void {
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

  awarenessHolder(id: number): Connection | undefined {
    return this.awarenessHolders.get(id);
  }

  /** What awareness-guard.ts needs to know about this room, seen from `conn`. */
  awarenessView(conn: Connection): RoomAwarenessView {
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

  private connectionOf(origin: unknown): Connection | undefined {
    return this.connections.has(origin as Connection) ? (origin as Connection) : undefined;
  }

  /** Detaches from the journal; the journal stays loaded until the registry's idle sweep. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.live.doc.off('update', this.onUpdate);
    this.awareness.off('update', this.onAwareness);
    this.awareness.destroy();
    this.offClose();
    for (const c of [...this.connections]) this.remove(c);
    this.onEmpty(this);
  }
}
