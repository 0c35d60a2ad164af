/**
 * One editor's WebSocket. Handles the y-websocket messages in the order they arrive, each one
 * completely (persist, apply, broadcast) before the next, and closes only this connection on
 * bad input. Enforces the per-editor limits (docs/realtime.md, "Limits for editors"): message
 * and byte rates, held (dependency-missing) updates, awareness ids and sizes, and the schema
 * check of updates.
 */
import type { WebSocket } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { newBlockId } from '../../shared/ids.ts';
import type { Principal } from '../auth/keys.ts';
import type { Logger } from '../logger.ts';
import { decodeAwarenessUpdate, encodeAwarenessEntries, planAwareness, type AwarenessEntry } from './awareness-guard.ts';
import { CloseCode } from './close-codes.ts';
import { DEFAULT_EDITOR_LIMITS, LIFETIME_AWARENESS_CLIENTS_FACTOR, type EditorLimits } from './limits.ts';
import { dropPending, mayCompletePending, pendingStructs, pendingWeight, type Struct } from '../journals/pending.ts';
import { decodeClientMessage, encodeAwareness, encodeSyncStep1, encodeSyncStep2Header } from './protocol.ts';
import { MessageRateLimiter } from './rate-limit.ts';
import type { Room, RoomMember } from './room.ts';
import { checkUpdate } from './update-guard.ts';

/**
 * Bytes handed to the socket and not yet written to the kernel, above which the connection stops
 * handing more (backpressure): the rest waits in its own queue, bounded by WS_MAX_QUEUED_BYTES.
 */
const HIGH_WATER_BYTES = 1024 * 1024;

/** Shortest time between two sync answers to one connection (requests meanwhile are merged). */
const SYNC_ANSWER_INTERVAL_MS = 1000;

/** A message waiting to be written: its parts go out as the fragments of one WebSocket message. */
interface Outgoing {
  parts: Uint8Array[];
  bytes: number;
  /** Counted against WS_MAX_QUEUED_BYTES (everything but sync answers). */
  limited: boolean;
  /** Counted in the journal's memory estimate (everything but bytes shared by every joiner). */
  own: boolean;
  written?: () => void;
}
/** How long a refused connection's socket stays open for its close frame to go out. */
const REFUSE_GRACE_MS = 250;

/** Longest run of message handling in one turn of the event loop before the connection yields. */
const HANDLE_SLICE_MS = 10;

const utf8 = new TextDecoder();

/**
 * The organization's quotas on what its editors send (server/billing/quotas.ts): bytes per
 * minute, counted on every message, and stored bytes, checked before an update is applied.
 * Each answers a refusal (its message) or undefined, synchronously.
 */
export interface EditorMeter {
  receive(p: Principal, bytes: number): { message: string } | undefined;
  storageFull(p: Principal, incoming: number): { message: string } | undefined | Promise<unknown>;
}

export class Connection implements RoomMember {
  /** Awareness client ids this connection holds; their states are removed when it closes. */
  readonly awarenessClients = new Set<number>();
  /** Awareness client ids this connection announced as its own (awareness-guard.ts). */
  readonly ownAwarenessClients = new Set<number>();
  /** Every awareness client id this connection ever held. */
  private readonly claimedAwarenessClients = new Set<number>();
  /** The own ids came with the connection's opening message (the stock client's own state). */
  private ownAnnouncedOpening = false;
  /** Nothing but sync step 1 received yet. */
  private opening = true;
  /** Own ids held by another connection that is being pinged: the latest entry for each. */
  private readonly contested = new Map<number, AwarenessEntry>();
  private probe?: Promise<boolean>;
  private readonly rate: MessageRateLimiter;
  alive = true;
  private closed = false;
  /** Messages admitted but not yet handled (see drain). */
  private readonly inbox: Uint8Array[] = [];
  private draining = false;
  /** When handling began in the current callback of the event loop (drain). */
  private sliceStart?: number;
  /** Messages waiting for the socket to take them (backpressure), and their counted bytes. */
  private readonly outbox: Outgoing[] = [];
  private limitedBytes = 0;
  private ownBytes = 0;
  /** A sync answer is queued or being written; a sync step 1 meanwhile waits here (the latest one). */
  private answering = false;
  private deferredSync?: Uint8Array;

  constructor(
    readonly ws: WebSocket,
    readonly room: Room<Connection>,
    readonly principal: Principal,
    private readonly logger: Logger,
    private readonly limits: EditorLimits = DEFAULT_EDITOR_LIMITS,
    private readonly meter?: EditorMeter,
    /** An editor token of scope `read`: updates with changes are refused (readOnlyUpdate). */
    readonly readOnly = false,
  ) {
    this.rate = new MessageRateLimiter(limits);
  }

  /** The actor of this editor's changes (journal_activity): the key its editor token was minted with. */
  get actor(): string {
    return `editor:${this.principal.keyId}`;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Server half of the opening handshake: our state vector, then everyone's awareness. */
  start(): void {
    this.send(encodeSyncStep1(this.room.live.doc));
    const states = this.room.awareness.getStates();
    if (states.size > 0) this.send(encodeAwareness(this.room.awareness, [...states.keys()]));
  }

  /**
   * Queues a message (an update, awareness). When what is queued and unwritten would pass
   * WS_MAX_QUEUED_BYTES, the peer is too slow to follow the journal: closed with 1013.
   */
  send(message: Uint8Array): void {
    this.enqueue({ parts: [message], bytes: message.byteLength, limited: true, own: true });
  }

  /**
   * Answers a sync step 1 (journal's `stateFor`): at most one answer per connection is queued or
   * being written; requests meanwhile are merged into one answer (the latest state vector), sent
   * once this one is written and at least SYNC_ANSWER_INTERVAL_MS after it. A shared answer (the state every joiner gets) is never copied: its
   * header and the shared bytes go out as two fragments of one message.
   */
  answerSync(stateVector: Uint8Array): void {
    if (this.closed) return;
    if (this.answering) {
      this.deferredSync = stateVector;
      return;
    }
    this.answering = true;
    const started = performance.now();
    const { live } = this.room;
    live
      .settledTask(() => {
        const { update, shared } = live.stateFor(stateVector);
        this.enqueue({
          parts: [encodeSyncStep2Header(update.byteLength), update],
          bytes: update.byteLength,
          limited: false,
          own: !shared,
          written: () => {
            // The next answer (requests merged meanwhile) no sooner than SYNC_ANSWER_INTERVAL_MS
            // after this one: a peer gets at most one copy of the state per interval.
            const wait = started + SYNC_ANSWER_INTERVAL_MS - performance.now();
            const next = () => {
              this.answering = false;
              const sv = this.deferredSync;
              this.deferredSync = undefined;
              if (sv) this.answerSync(sv);
            };
            if (wait > 0 && this.deferredSync) setTimeout(next, wait).unref();
            else next();
          },
        });
      })
      .catch(() => {
        // Unloaded meanwhile (the room closes this connection), or the encoding failed: the next
        // request is answered afresh.
        this.answering = false;
      });
  }

  private enqueue(o: Outgoing): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    // A message larger than the limit still goes to a peer that has taken everything before it.
    if (o.limited && this.limitedBytes > 0 && this.limitedBytes + o.bytes > this.limits.maxQueuedBytes) {
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, queued_bytes: this.limitedBytes, limit: this.limits.maxQueuedBytes }, 'realtime connection too slow');
      this.refuse(CloseCode.TRY_AGAIN_LATER, 'connection too slow; reconnect to resync');
      return;
    }
    this.count(o, 1);
    this.outbox.push(o);
    this.pump();
  }

  private count(o: Outgoing, sign: 1 | -1): void {
    if (o.limited) this.limitedBytes += sign * o.bytes;
    if (o.own) {
      this.ownBytes += sign * o.bytes;
      this.room.live.queuedBytes += sign * o.bytes;
    }
  }

  /** Hands queued messages to the socket while it holds less than HIGH_WATER_BYTES unwritten. */
  private pump(): void {
    while (this.outbox.length > 0 && !this.closed && this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      const o = this.outbox.shift()!;
      const last = o.parts.length - 1;
      o.parts.forEach((part, i) => {
        if (i < last) this.ws.send(part, { binary: true, fin: false });
        else
          this.ws.send(part, { binary: true, fin: true }, () => {
            // Written to the kernel (or the socket is gone): its bytes are no longer held here.
            if (!this.dropped) this.count(o, -1);
            o.written?.();
            this.pump();
          });
      });
    }
  }

  /** Set once the queue is dropped (the connection closed): write callbacks count nothing. */
  private dropped = false;

  /** Forgets what is queued and gives its bytes back to the journal's estimate. */
  private dropQueue(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.outbox.length = 0;
    this.room.live.queuedBytes -= this.ownBytes;
    this.ownBytes = 0;
    this.limitedBytes = 0;
    this.deferredSync = undefined;
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.dropQueue();
    this.room.remove(this);
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, clampReason(reason));
  }

  /**
   * Closes for breaking a limit, and stops reading: what the peer has sent meanwhile (a flood,
   * typically) is never parsed. The peer gets the close frame; the socket is dropped after a short
   * grace, since its close reply is not read either.
   */
  refuse(code: number, reason: string): void {
    if (this.closed) return;
    this.close(code, reason);
    this.ws.pause();
    setTimeout(() => {
      if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate();
    }, REFUSE_GRACE_MS).unref();
  }

  /** Drops the socket at once (a peer that does not answer pings). */
  terminate(): void {
    if (!this.closed) {
      this.closed = true;
      this.room.remove(this);
    }
    this.dropQueue();
    this.ws.terminate();
  }

  /** The socket is gone (closed by either side or terminated). */
  released(): void {
    this.closed = true;
    this.dropQueue();
    this.room.remove(this);
  }

  /** Pings the peer: true when it answers within `timeoutMs`. Concurrent calls share one ping. */
  probeAlive(timeoutMs: number): Promise<boolean> {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return Promise.resolve(false);
    if (!this.probe) {
      const probe = new Promise<boolean>((resolve) => {
        const done = (alive: boolean) => {
          clearTimeout(timer);
          this.ws.off('pong', onPong);
          this.ws.off('close', onClose);
          resolve(alive);
        };
        const onPong = () => done(true);
        const onClose = () => done(false);
        const timer = setTimeout(() => done(false), timeoutMs);
        timer.unref();
        this.ws.on('pong', onPong);
        this.ws.on('close', onClose);
        try {
          this.ws.ping();
        } catch {
          done(false);
        }
      });
      this.probe = probe;
      void probe.then(() => {
        if (this.probe === probe) this.probe = undefined;
      });
    }
    return this.probe;
  }

  /**
   * Takes a message off the socket. Rates are admitted at once; handling is queued, because one
   * socket read can carry hundreds of frames and handling them all in one turn of the event loop
   * would stall every other request (docs/security.md: no stall past 250 ms).
   */
  handle(data: Uint8Array, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) {
      this.close(CloseCode.UNSUPPORTED_DATA, 'text frames are not supported; send binary y-protocols messages');
      return;
    }
    const over = this.rate.admit(data.byteLength);
    if (over !== 'ok') {
      const { maxMessagesPerSecond, maxBytesPerSecond } = this.limits;
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, limit: over }, 'realtime connection over its rate limit');
      this.refuse(
        CloseCode.RATE_LIMITED,
        over === 'messages'
          ? `rate limit: more than ${maxMessagesPerSecond} messages per second; reconnect later`
          : `rate limit: more than ${maxBytesPerSecond} bytes per second; reconnect later`,
      );
      return;
    }
    const quota = this.meter?.receive(this.principal, data.byteLength);
    if (quota) {
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, limit: 'org-realtime-bytes' }, 'organization over its realtime bytes per minute');
      this.refuse(CloseCode.ORG_REALTIME_QUOTA, quota.message);
      return;
    }
    this.inbox.push(data);
    if (!this.draining) this.drain();
  }

  /**
   * Handles queued messages in order for up to HANDLE_SLICE_MS, then yields to the event loop with
   * the socket paused (back-pressure on the sender) and goes on in the next turn. The slice is
   * counted over one callback of the event loop, not one call: ws hands every message of a socket
   * read to `handle` in one go, each of which would otherwise start a slice of its own.
   */
  private drain(): void {
    if (this.sliceStart === undefined) {
      this.sliceStart = performance.now();
      queueMicrotask(() => (this.sliceStart = undefined)); // runs once the current callback returns
    }
    const start = this.sliceStart;
    while (this.inbox.length > 0 && !this.closed) {
      if (performance.now() - start > HANDLE_SLICE_MS) {
        this.draining = true;
        this.ws.pause();
        setImmediate(() => {
          if (this.closed) return;
          this.ws.resume();
          this.drain();
        });
        return;
      }
      this.process(this.inbox.shift()!);
    }
    this.draining = false;
    if (this.closed) this.inbox.length = 0;
  }

  private process(data: Uint8Array): void {
    let message;
    try {
      message = decodeClientMessage(data, this.limits);
    } catch (err) {
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, err: (err as Error).message }, 'malformed realtime message');
      this.close(CloseCode.MALFORMED, 'malformed message');
      return;
    }
    const { live, awareness } = this.room;
    switch (message.kind) {
      case 'sync-step1':
        // Only committed state is sent; the answer waits for what is applied to commit.
        this.answerSync(message.stateVector);
        return;
      case 'update-too-large':
        this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, items: message.items, limit: this.limits.maxUpdateItems }, 'realtime update refused: too many items');
        this.refuse(CloseCode.UPDATE_TOO_LARGE, `update over ${this.limits.maxUpdateItems} items (WS_MAX_UPDATE_ITEMS)`);
        return;
      case 'update-subdocs':
        this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId }, 'realtime update refused: subdocuments');
        this.refuse(CloseCode.UPDATE_REFUSED, 'update refused: subdocuments are not allowed');
        return;
      case 'update': {
        this.opening = false;
        // A promise: the first measure of the organization's storage is under way (the upgrade started it).
        const full = this.meter?.storageFull(this.principal, message.update.byteLength);
        if (full && !(full instanceof Promise)) {
          this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, limit: 'org-stored-bytes' }, 'organization over its storage quota');
          this.refuse(CloseCode.STORAGE_QUOTA, full.message);
          return;
        }
        if (this.readOnly) live.intake(() => this.readOnlyUpdate(!this.closed && !Y.snapshotContainsUpdate(Y.snapshot(live.doc), message.update)));
        else live.intake(() => this.applyUpdate(message.update, message.structs));
        return;
      }
      case 'awareness': {
        let entries: AwarenessEntry[];
        try {
          entries = decodeAwarenessUpdate(message.update);
        } catch {
          this.close(CloseCode.MALFORMED, 'malformed awareness message');
          return;
        }
        this.applyAwareness(entries);
        return;
      }
      case 'query-awareness':
        this.send(encodeAwareness(awareness, [...awareness.getStates().keys()]));
        return;
      default:
        return; // auth (2) and future message types: ignored, as the y-websocket server does
    }
  }

  /**
   * An update from a read-only connection, never applied: one that brings changes (`news`) is
   * refused (4405); one that brings nothing (the sync step 2 a client answers the server's step 1
   * with) is ignored.
   */
  protected readOnlyUpdate(news: boolean): void {
    if (!news || this.closed) return;
    this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId }, 'realtime update from a read-only connection refused');
    this.refuse(CloseCode.READ_ONLY, 'read-only connection: updates are refused');
  }

  /**
   * An update of this connection was applied (nothing of it refused): its `structs`, some of which
   * Yjs may hold for missing dependencies, and whether it added held deletions. For protocols that
   * acknowledge updates (hocuspocus/).
   */
  protected updateApplied(_structs: readonly Struct[], _deletesHeld: boolean): void {}

  /**
   * Applies an editor's update to the journal, which commits it (group commit) before the room
   * broadcasts it; nothing is sent if the commit fails (the journal reloads, editors reconnect).
   * Before that, the update is checked against the schema (with the structs Yjs holds as pending
   * when it may complete them); after it, what Yjs holds as pending is checked against the cap.
   */
  private applyUpdate(update: Uint8Array, structs: Struct[]): void {
    if (this.closed) return;
    const { live } = this.room;
    const doc = live.doc;
    const log = () => ({ journal_id: live.id, key_id: this.principal.keyId });
    let refusal;
    try {
      refusal = checkUpdate(doc, structs, mayCompletePending(doc, structs) ? pendingStructs(doc) : []);
    } catch (err) {
      this.logger.warn({ ...log(), err: (err as Error).message }, 'realtime update could not be checked');
      this.close(CloseCode.MALFORMED, 'malformed message');
      return;
    }
    if (refusal?.inPending) {
      // Held structs (sent earlier by someone) that this update would complete: never applied.
      this.logger.warn({ ...log(), reason: refusal.reason }, 'held realtime updates refused; dropped them');
      dropPending(doc, 'structs');
    } else if (refusal) {
      this.logger.warn({ ...log(), reason: refusal.reason }, 'realtime update refused');
      if (refusal.malformed) this.close(CloseCode.MALFORMED, 'malformed message');
      else this.refuse(CloseCode.UPDATE_REFUSED, `update refused: ${refusal.reason}`);
      return;
    }
    const deletesBefore = doc.store.pendingDs?.byteLength ?? 0;
    try {
      live.applyEditorUpdate(update, structs, this);
      live.assignBlockIds(newBlockId);
      live.touch();
    } catch (err) {
      this.logger.warn({ journal_id: live.id, err: (err as Error).message }, 'realtime update could not be applied');
      this.close(CloseCode.MALFORMED, 'update could not be applied');
      return;
    }
    const held = pendingWeight(doc);
    if (held > this.limits.maxPendingBytes) {
      dropPending(doc);
      this.logger.warn({ ...log(), pending_bytes: held, limit: this.limits.maxPendingBytes }, 'too many realtime updates waiting for missing dependencies; dropped them');
      this.refuse(CloseCode.PENDING_LIMIT, 'too many updates waiting for missing dependencies; reconnect to resync');
      return;
    }
    this.updateApplied(structs, (doc.store.pendingDs?.byteLength ?? 0) > deletesBefore);
  }

  /** Screens an awareness message (awareness-guard.ts) and applies what it allows. */
  private applyAwareness(entries: readonly AwarenessEntry[]): void {
    const opening = this.opening;
    this.opening = false;
    const plan = planAwareness(
      entries,
      this.room.awarenessView(this),
      { opening, own: this.ownAwarenessClients, held: this.awarenessClients, claimed: this.claimedAwarenessClients },
      {
        maxClients: this.limits.maxAwarenessClients,
        maxStateBytes: this.limits.maxAwarenessStateBytes,
        maxLifetimeClients: this.limits.maxAwarenessClients * LIFETIME_AWARENESS_CLIENTS_FACTOR,
      },
    );
    if (plan.refuse) {
      this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, reason: plan.refuse.reason }, 'realtime awareness refused');
      this.refuse(plan.refuse.code === 'too-large' ? CloseCode.AWARENESS_TOO_LARGE : CloseCode.AWARENESS_FORBIDDEN, plan.refuse.reason);
      return;
    }
    if (plan.announced) {
      for (const id of plan.announced.ids) this.ownAwarenessClients.add(id);
      if (plan.announced.opening) this.ownAnnouncedOpening = true;
    }
    if (plan.apply.length > 0) {
      for (const e of plan.apply) {
        try {
          JSON.parse(utf8.decode(e.state));
        } catch {
          this.close(CloseCode.MALFORMED, 'malformed awareness message');
          return;
        }
      }
      for (const id of plan.claims) this.claimedAwarenessClients.add(id);
      awarenessProtocol.applyAwarenessUpdate(this.room.awareness, encodeAwarenessEntries(plan.apply), this);
    }
    for (const e of plan.contests) this.contest(e);
  }

  /**
   * One of our own ids is held by a connection that announced it too. Either that connection is
   * dead and not noticed yet (this client reconnected): it does not answer a ping, is dropped, and
   * our latest entry is applied. Or it answers: the id belongs to a live editor, and when we
   * claimed it in our opening announcement we are refused.
   */
  private contest(entry: AwarenessEntry): void {
    const id = entry.clientId;
    const holder = this.room.awarenessHolder(id);
    if (!holder || holder === this) return;
    const pending = this.contested.has(id);
    this.contested.set(id, entry);
    if (pending) return;
    const strong = this.ownAnnouncedOpening;
    void holder.probeAlive(this.limits.awarenessProbeMs).then((alive) => {
      const latest = this.contested.get(id);
      this.contested.delete(id);
      if (this.closed) return;
      if (this.room.awarenessHolder(id) === holder && !holder.isClosed) {
        if (alive) {
          if (strong) {
            this.logger.warn({ journal_id: this.room.journalId, key_id: this.principal.keyId, client_id: id }, 'realtime awareness refused: id of a live editor');
            this.refuse(CloseCode.AWARENESS_FORBIDDEN, `awareness client id ${id} belongs to another editor`);
          }
          return;
        }
        this.logger.info({ journal_id: this.room.journalId, client_id: id }, 'editor holding a reclaimed awareness id did not answer a ping; dropped it');
        holder.terminate();
      }
      if (latest) this.applyAwareness([latest]);
    });
  }
}

/** RFC 6455 allows 123 bytes of close reason; ws throws beyond. */
function clampReason(reason: string): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let r = reason;
  while (Buffer.byteLength(r) > 120) r = r.slice(0, -1);
  return `${r}...`;
}
