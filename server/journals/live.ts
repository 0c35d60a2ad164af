/**
 * A journal loaded in memory: one Y.Doc shared by every editor connection and by the REST edit
 * path, and the rule that nothing leaves the process before it is committed to the store.
 *
 * Changes are applied to the document at once (editors' updates, server fix-ups) and captured for
 * the group committer; listeners of `onCommitted` (the room's broadcast) hear of each only once
 * its transaction has committed, in order. Whatever shows the document (REST reads, exports, the
 * state sent to a connecting editor, compaction) runs as a *settled* task: in arrival order, once
 * every change applied before it is committed, and with later editor updates held back until it
 * is done — so nothing uncommitted is ever shown. REST edits are settled tasks too, and commit
 * their change in their own transaction with its charge and idempotency record.
 */
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { UnavailableError } from '../http/errors.ts';
import { actorOf, addTouches, blockIdsOf, touchedElements, type Touches } from './activity.ts';
import { BlockIndex } from './block-index.ts';
import type { GroupCommitter } from './group-commit.ts';
import { encodeStateAsUpdateWithoutPending } from './pending.ts';
import { loadsInSlices, prepareDoc, type PreparedDoc, type SlicedLoader } from './sliced-load.ts';
import type { JournalStore, StoredState } from './store.ts';

/**
 * Transaction origin of REST edits, so observers can tell them from editor updates. `broadcast`
 * carries the request's sync_realtime_state; editors' undo managers track only their own origin.
 */
export class RestOrigin {
  constructor(
    readonly broadcast: boolean,
    /** Who made the change (journal_activity): `api_key:<key id>`; `service` when unset. */
    readonly actor = 'service',
  ) {}
}

/**
 * Origin of changes the server makes on its own (ids for editor-made blocks). Like a broadcasting
 * REST edit: pushed to every editor, never tracked by an editor's undo manager.
 */
export class ServerOrigin extends RestOrigin {
  constructor(
    /** Top-level blocks the change is made for, by the actor who made them (ids for their new blocks). */
    readonly onBehalf?: Map<Y.XmlElement, string>,
  ) {
    super(true);
  }
}

/**
 * Origin of updates another instance committed (from the cluster bus or the update log).
 * `broadcast` false: a REST edit with sync_realtime_state false, not pushed to editors here either.
 */
export class RemoteOrigin {
  constructor(readonly broadcast: boolean) {}
}
const REMOTE = new RemoteOrigin(true);
const QUIET_REMOTE = new RemoteOrigin(false);

/**
 * Why a loaded journal stops serving: its holders are told (each reason closes editors with its
 * own code, server/realtime/close-codes.ts), and the next use loads it again from the store.
 */
export type UnloadReason = 'deleted' | 'storage-error' | 'shutdown' | 'idle' | 'memory-cap';

/** An unload reason in words, as holders are told it (an editor's close reason, a retry message). */
export const UNLOAD_MESSAGE: Record<UnloadReason, string> = {
  deleted: 'journal deleted',
  'storage-error': 'journal reloaded after a storage error',
  shutdown: 'server shutting down',
  idle: 'idle',
  'memory-cap': 'memory cap',
};

export type CloseListener = (reason: UnloadReason) => void;
export type CommittedListener = (update: Uint8Array, origin: unknown) => void;

/** Origin of updates written by another writer (instance), applied when catching up from the log. */
export const LOG_ORIGIN = Symbol('journal log');

/** Why a journal stopped serving: its registry unloads it and the next use reloads from the store. */
export interface JournalHooks {
  compactDue(live: LiveJournal): void;
  broken(live: LiveJournal, err: unknown): void;
  /** Updates made here were committed as revisions first.. (for the other instances). */
  committedHere?(live: LiveJournal, first: number, updates: readonly Uint8Array[], origin: unknown): void;
}

interface Ahead {
  update: Uint8Array;
  origin: unknown;
  /** Made here and already in the document; otherwise another instance's, to apply. */
  applied: boolean;
}

interface Task {
  /** Runs only when everything applied before it is committed; nothing else runs meanwhile. */
  settled: boolean;
  run(): void | Promise<void>;
  fail(err: unknown): void;
}

/** The journal was unloaded (deleted, a storage error, shutdown) before a task of it could run. */
export class JournalUnloadedError extends UnavailableError {
  override readonly name = 'JournalUnloadedError';
}

export class LiveJournal {
  readonly doc: Y.Doc;
  readonly fragment: Y.XmlFragment;
  /** Last committed revision; everything up to it is applied here, nothing later is shown. */
  revision: number;
  lastUsed = Date.now();
  /** Editors (and other holders) keeping the journal loaded regardless of idleness. */
  holders = 0;
  /** Set when a commit failed or another writer raced ahead: stop serving, reload from the store. */
  broken = false;
  private closed = false;
  private logCount: number;
  private logBytes: number;
  /** Block id -> element, and the ids editors' blocks still need (block-index.ts). */
  readonly blocks: BlockIndex;
  /** Rough size of the encoded state (snapshot plus log), for the registry's memory cap. */
  stateBytes: number;
  private readonly closeListeners = new Set<CloseListener>();
  private readonly committedListeners = new Set<CommittedListener>();
  private markdownCache?: { revision: number; markdown: string };
  /**
   * The committed state encoded once per revision (without what Yjs holds as pending): the same
   * bytes answer every joiner with an empty state vector and become the compaction's snapshot.
   * `vector` and `upToDate` (the answer to a peer already at this revision) are made on demand.
   */
  private encoded?: { revision: number; state: Uint8Array; vector?: Uint8Array; upToDate?: Uint8Array };
  /** Bytes queued to editors' sockets and not yet written (realtime/connection.ts), for the memory estimate. */
  queuedBytes = 0;
  /** Applied, not yet committed, in order. */
  private uncommitted: { update: Uint8Array; origin: unknown; touches: Touches }[] = [];
  /** What each own update touched, by actor, until it is committed (captured ones included). */
  private readonly touchesByUpdate = new WeakMap<Uint8Array, Touches>();
  private readonly touchesByTransaction = new WeakMap<Y.Transaction, Touches>();
  private flushing = false;
  /** While a settled task applies changes itself, its updates are collected here instead. */
  private capture?: Uint8Array[];
  private readonly tasks: Task[] = [];
  private taskRunning = false;
  /**
   * Committed revisions past `revision` that cannot be counted yet because one before them is
   * missing here (another instance committed it): their own, waiting for the gap, and other
   * instances' ones, to apply in order. Filled from the bus and from the update log.
   */
  private readonly ahead = new Map<number, Ahead>();
  /** Own committed updates in `ahead`: the document holds them, so it is not settled. */
  private appliedAhead = 0;
  private fetching?: Promise<void>;

  static async load(
    id: string,
    seq: number,
    store: JournalStore,
    committer: GroupCommitter,
    limits: { compactAfterUpdates: number; compactAfterBytes: number },
    hooks: JournalHooks,
    /** Large stored states are loaded in slices (sliced-load.ts); without it, in one piece. */
    loader?: SlicedLoader,
  ): Promise<LiveJournal | undefined> {
    const state = await store.loadState(seq);
    if (!state) return undefined;
    const prepared = loadsInSlices(loader, state) ? await prepareDoc(loader, state, LOG_ORIGIN) : undefined;
    return new LiveJournal(id, seq, state, store, committer, limits, hooks, prepared);
  }

  private constructor(
    readonly id: string,
    readonly seq: number,
    state: StoredState,
    private readonly store: JournalStore,
    private readonly committer: GroupCommitter,
    private readonly limits: { compactAfterUpdates: number; compactAfterBytes: number },
    private readonly hooks: JournalHooks,
    prepared?: PreparedDoc,
  ) {
    this.doc = prepared?.doc ?? new Y.Doc({ gc: true });
    this.revision = state.revision;
    this.logCount = state.updates.length;
    this.logBytes = state.updates.reduce((n, u) => n + u.byteLength, 0);
    this.stateBytes = this.logBytes + (state.snapshot?.byteLength ?? 0);
    this.fragment = this.doc.getXmlFragment(FRAGMENT_NAME);
    if (prepared) {
      // Loaded in slices: the worker's merge of the stored state is the encoded state of this revision.
      this.encoded = { revision: state.revision, state: prepared.encoded };
    } else {
      const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
      if (all.length > 0) Y.applyUpdate(this.doc, all.length === 1 ? all[0]! : Y.mergeUpdates(all), LOG_ORIGIN);
      // A journal loaded from its snapshot alone: the snapshot is the encoded state of this revision.
      if (state.snapshot && state.updates.length === 0) this.encoded = { revision: state.revision, state: state.snapshot };
    }
    // Read before the transaction's cleanup garbage-collects what it deleted (a removed block's id).
    this.doc.on('afterTransaction', (tr: Y.Transaction) => {
      if (tr.origin !== LOG_ORIGIN && !(tr.origin instanceof RemoteOrigin)) this.touchesByTransaction.set(tr, this.touchesOf(tr));
      // An editor's update taken as it came (applyEditorUpdate): Yjs checks for 'update' listeners
      // right after this event, and encodes the transaction's update only when there is one.
      if (this.asSent && this.asSent.origin === tr.origin && !this.asSent.tr) {
        this.asSent.tr = tr;
        this.updateListenerOff = true;
        this.doc.off('update', this.captureUpdate);
      }
    });
    this.doc.on('afterTransactionCleanup', (tr: Y.Transaction) => {
      const sent = this.asSent;
      if (sent?.tr !== tr) return;
      this.asSent = undefined;
      const cleanups = this.doc._transactionCleanups;
      if (cleanups[cleanups.length - 1] !== tr) {
        // Transactions made by its observers follow (formatting cleanup): they need the listener,
        // which Yjs asks for right after this event, so this one is captured as Yjs encodes it.
        this.restoreUpdateListener();
        return;
      }
      // The last of this round: the listener comes back once the round is over.
      if (!changedAnything(tr)) return;
      // Part of it left pending (a dependency missing): what was integrated instead, with the
      // document's delete set (rare; replaying deletions is idempotent).
      const held = this.doc.store.pendingStructs !== null || this.doc.store.pendingDs !== null;
      // A copy: the sent bytes may be a view of the socket's larger read buffer.
      const update = held ? encodeStateAsUpdateWithoutPending(this.doc, Y.encodeStateVector(tr.beforeState)) : sent.update.slice();
      this.captureUpdate(update, tr.origin, this.doc, tr);
    });
    this.doc.on('afterAllTransactions', () => this.restoreUpdateListener());
    this.doc.on('update', this.captureUpdate);
    // A sync_realtime_state:false edit is written under a client id of its own. Later changes
    // under the journal's usual client id (broadcast REST edits, server id fixes) then do not
    // depend on it by clock, so editors who were not sent it can still apply them at once.
    let mainClientId = this.doc.clientID;
    this.doc.on('beforeTransaction', (tr: Y.Transaction) => {
      if (!(tr.origin instanceof RestOrigin) || tr.origin.broadcast) return;
      mainClientId = this.doc.clientID;
      this.doc.clientID = globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
    });
    this.doc.on('afterTransaction', (tr: Y.Transaction) => {
      if (tr.origin instanceof RestOrigin && !tr.origin.broadcast) this.doc.clientID = mainClientId;
    });
    // Only structure changes made outside REST edits (REST keeps the index current itself) can
    // move or re-id blocks; text typing inside a block never does.
    this.blocks = new BlockIndex(this.fragment, prepared?.blocks);
    this.fragment.observeDeep((events, tr) => {
      if (tr.origin instanceof RestOrigin) return;
      // The instance that took a remote change in has given its blocks ids already.
      if (tr.origin instanceof RemoteOrigin) this.blocks.invalidate();
      else this.blocks.observe(events, actorOf(tr.origin));
    });
  }

  // --- commit -----------------------------------------------------------------------------------

  /** An editor's update being applied as it came (applyEditorUpdate), and its transaction. */
  private asSent?: { update: Uint8Array; origin: object; tr?: Y.Transaction };

  /**
   * Applies an editor's update. A small one that brings only new structs to a document holding
   * nothing pending is committed and broadcast as the editor sent it: the transaction's own
   * encoding would be the same changes, and making it was about a tenth of what an update
   * allocated (issue 33). Otherwise as Yjs encodes the transaction.
   */
  applyEditorUpdate(update: Uint8Array, structs: readonly { id: Y.ID }[], origin: object): void {
    const store = this.doc.store;
    const asSent =
      update.byteLength <= AS_SENT_MAX_BYTES &&
      store.pendingStructs === null &&
      store.pendingDs === null &&
      // Ours is the only 'update' listener (a Hocuspocus connection's own needs Yjs's encoding).
      (this.doc as unknown as { _observers: Map<string, Set<unknown>> })._observers.get('update')?.size === 1 &&
      structs.every((s) => s.id.clock >= Y.getState(store, s.id.client));
    if (asSent) this.asSent = { update, origin };
    try {
      Y.applyUpdate(this.doc, update, origin);
    } finally {
      // Whatever happened (a throw halfway), the listener is back.
      this.asSent = undefined;
      this.restoreUpdateListener();
    }
  }

  /** Set while the 'update' listener is off for an update taken as sent. */
  private updateListenerOff = false;

  private restoreUpdateListener(): void {
    if (!this.updateListenerOff) return;
    this.updateListenerOff = false;
    this.doc.on('update', this.captureUpdate);
  }

  private readonly captureUpdate = (update: Uint8Array, origin: unknown, _doc: Y.Doc, tr: Y.Transaction): void => {
    if (origin === LOG_ORIGIN || origin instanceof RemoteOrigin) return; // already stored
    const touches = this.touchesByTransaction.get(tr) ?? new Map();
    if (this.capture) {
      this.capture.push(update);
      this.touchesByUpdate.set(update, touches);
      return;
    }
    this.uncommitted.push({ update, origin, touches });
    this.flush();
  };

  /** The blocks a local transaction touched, by actor (the blocks' makers for id fixes). */
  private touchesOf(tr: Y.Transaction): Touches {
    const touches: Touches = new Map();
    const actor = actorOf(tr.origin);
    const onBehalf = tr.origin instanceof ServerOrigin ? tr.origin.onBehalf : undefined;
    for (const el of touchedElements(tr, this.fragment)) {
      const ids = blockIdsOf(el, tr);
      if (ids.length) addTouches(touches, onBehalf?.get(el) ?? actor, ids);
    }
    return touches;
  }

  /** What captured `updates` touched, by actor, for the store's activity record. */
  touchesFor(updates: readonly Uint8Array[]): (Touches | undefined)[] {
    return updates.map((u) => this.touchesByUpdate.get(u));
  }

  /** Whether everything applied is committed. */
  get settled(): boolean {
    return this.uncommitted.length === 0 && !this.flushing && this.appliedAhead === 0;
  }

  /** Hands what is applied and uncommitted to the group committer; one batch in flight at a time. */
  private flush(): void {
    if (this.flushing || this.uncommitted.length === 0 || this.broken) return;
    this.flushing = true;
    const batch = this.uncommitted;
    this.uncommitted = [];
    this.committer.append(
      this.seq,
      batch.map((u) => u.update),
      batch.map((u) => u.touches),
    ).then(
      (last) => {
        this.flushing = false;
        if (last === undefined) {
          this.fail(new JournalUnloadedError('journal deleted'));
          return this.pump();
        }
        this.committed(batch, last);
        this.flush();
        this.pump();
      },
      (err) => {
        this.flushing = false;
        this.fail(err);
        this.pump();
      },
    );
  }

  /**
   * Records a commit of `batch` (made here) as revisions ending at `last`. They are counted, and
   * heard by the listeners, in revision order: when another instance committed revisions just
   * before them, those are applied first (from the bus or the log).
   */
  private committed(batch: readonly { update: Uint8Array; origin: unknown }[], last: number): void {
    const first = last - batch.length + 1;
    this.hooks.committedHere?.(
      this,
      first,
      batch.map((b) => b.update),
      batch[0]?.origin,
    );
    batch.forEach(({ update, origin }, i) => {
      const revision = first + i;
      if (revision <= this.revision || this.ahead.has(revision)) return;
      this.ahead.set(revision, { update, origin, applied: true });
      this.appliedAhead++;
    });
    this.advance();
  }

  /** Committed updates of another instance, revisions from `first` (the bus). */
  receiveRemote(first: number, updates: readonly Uint8Array[], broadcast = true): void {
    if (this.closed || this.broken) return;
    const origin = broadcast ? REMOTE : QUIET_REMOTE;
    updates.forEach((update, i) => {
      const revision = first + i;
      if (revision > this.revision && !this.ahead.has(revision)) this.ahead.set(revision, { update, origin, applied: false });
    });
    this.advance();
  }

  /**
   * Brings the document up to the stored revision `upTo` (known from the store: a REST read's row,
   * the periodic re-sync), reading what is missing from the update log.
   */
  async syncTo(upTo: number): Promise<void> {
    if (upTo <= this.revision || this.closed || this.broken) return;
    await this.drain(); // own commits in flight may be what is missing
    while (upTo > this.revision && !this.closed && !this.broken) await this.fetchMissing(upTo);
  }

  /** Counts, applies and tells the listeners about what is next in revision order. */
  private advance(): void {
    let counted = false;
    for (let next = this.ahead.get(this.revision + 1); next; next = this.ahead.get(this.revision + 1)) {
      this.ahead.delete(this.revision + 1);
      if (next.applied) this.appliedAhead--;
      else Y.applyUpdate(this.doc, next.update, next.origin);
      this.revision++;
      this.logCount++;
      this.logBytes += next.update.byteLength;
      this.stateBytes += next.update.byteLength;
      counted = true;
      for (const l of [...this.committedListeners]) l(next.update, next.origin);
    }
    if (this.ahead.size > 0 && !this.flushing) void this.fetchMissing(Math.max(...this.ahead.keys()));
    if (counted && compactionDue(this.logCount, this.logBytes, this.stateBytes - this.logBytes, this.limits)) this.hooks.compactDue(this);
    if (this.settled) this.pump();
  }

  /**
   * Reads committed revisions (revision, upTo] from the store. When another instance compacted
   * them into its snapshot, the snapshot is applied (merging a full state is idempotent).
   */
  private fetchMissing(upTo: number): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const from = this.revision;
        const { snapshot, updates } = await this.store.stateAfter(this.seq, from, upTo);
        if (this.closed || this.broken) return;
        if (snapshot && snapshot.revision > this.revision) {
          Y.applyUpdate(this.doc, snapshot.data, REMOTE);
          for (const r of [...this.ahead.keys()]) {
            if (r > snapshot.revision) continue;
            if (this.ahead.get(r)!.applied) this.appliedAhead--;
            this.ahead.delete(r);
          }
          this.revision = snapshot.revision;
          for (const l of [...this.committedListeners]) l(snapshot.data, REMOTE);
        }
        for (const u of updates) {
          if (u.revision > this.revision && !this.ahead.has(u.revision)) this.ahead.set(u.revision, { update: u.data, origin: u.quiet ? QUIET_REMOTE : REMOTE, applied: false });
        }
        if (updates.length === 0 && !snapshot && this.ahead.size > 0 && !this.ahead.has(this.revision + 1)) {
          // The log has nothing between: the journal was deleted, or this instance's state is off.
          throw new JournalUnloadedError('committed revisions are missing from the update log');
        }
      } catch (err) {
        this.fail(err);
      } finally {
        this.fetching = undefined;
      }
      this.advance();
    })();
    return this.fetching;
  }

  private fail(err: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.hooks.broken(this, err);
  }

  /** Listens to committed changes, in commit order (the room's broadcast). */
  onCommitted(listener: CommittedListener): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  // --- tasks ------------------------------------------------------------------------------------

  /**
   * Applies an editor's change (`apply` calls Y.applyUpdate): now, unless a settled task is
   * waiting or running, in which case it runs after that task, in arrival order.
   */
  intake(apply: () => void): void {
    if (this.closed) return;
    if (this.tasks.length === 0 && !this.taskRunning) {
      apply();
      return;
    }
    this.tasks.push({ settled: false, run: apply, fail: () => {} });
  }

  /**
   * Runs `fn` on the committed document: once everything applied before is committed, with later
   * editor updates held back until it settles. For reads and for REST edits (which commit their
   * own change inside `fn`, see `commitOwn`).
   */
  settledTask<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.closed || this.broken) return Promise.reject(new JournalUnloadedError('journal unloaded; retry'));
    if (this.tasks.length === 0 && !this.taskRunning && this.settled) {
      // Fast path: nothing to wait for.
      let out: T | Promise<T>;
      try {
        out = fn();
      } catch (e) {
        return Promise.reject(e);
      }
      if (!(out instanceof Promise)) return Promise.resolve(out);
      this.taskRunning = true;
      return out.finally(() => {
        this.taskRunning = false;
        this.pump();
      });
    }
    return new Promise<T>((resolve, reject) => {
      this.tasks.push({
        settled: true,
        run: () => {
          let out: T | Promise<T>;
          try {
            out = fn();
          } catch (e) {
            reject(e);
            return;
          }
          if (!(out instanceof Promise)) return resolve(out);
          return out.then(resolve, reject);
        },
        fail: reject,
      });
      this.pump();
    });
  }

  private pump(): void {
    if (this.broken) return this.failTasks(new JournalUnloadedError('journal unloaded after a storage error; retry'));
    while (!this.taskRunning && this.tasks.length > 0 && !this.closed) {
      const task = this.tasks[0]!;
      if (task.settled && !this.settled) {
        this.flush();
        return; // the flush's completion pumps again
      }
      this.tasks.shift();
      const out = task.run();
      if (out instanceof Promise) {
        this.taskRunning = true;
        void out.finally(() => {
          this.taskRunning = false;
          this.pump();
        });
      }
    }
  }

  private failTasks(err: unknown): void {
    for (const t of this.tasks.splice(0)) t.fail(err);
  }

  /**
   * Inside a settled task: runs `change` (which changes the document) and returns the updates it
   * made, which are NOT handed to the group committer — the task writes them itself (with its
   * charge and idempotency record) and then calls `commitOwn`.
   */
  captureChanges(change: () => void): Uint8Array[] {
    const captured: Uint8Array[] = [];
    this.capture = captured;
    try {
      change();
    } finally {
      this.capture = undefined;
    }
    return captured;
  }

  /** The task's own transaction committed `updates` ending at revision `last`. */
  commitOwn(updates: readonly Uint8Array[], origin: unknown, last: number): void {
    this.committed(
      updates.map((update) => ({ update, origin })),
      last,
    );
  }

  /** The task changed the document but its transaction failed: the document is no longer the stored state. */
  abandonOwn(err: unknown): void {
    this.fail(err);
  }

  touch(): void {
    this.lastUsed = Date.now();
  }

  /**
   * Bytes of editor updates Yjs holds because their dependencies have not arrived (structs and
   * deletions, doc.store.pendingStructs / pendingDs). Never persisted nor broadcast; capped per
   * journal by the realtime endpoint (WS_MAX_PENDING_BYTES).
   */
  get pendingBytes(): number {
    const { pendingStructs, pendingDs } = this.doc.store;
    return (pendingStructs?.update.byteLength ?? 0) + (pendingDs?.byteLength ?? 0);
  }

  /**
   * Inside a settled task: the committed state as one update, encoded once per revision and
   * shared by whoever needs it at that revision (joiners, compaction).
   */
  encodedState(): Uint8Array {
    if (this.encoded?.revision !== this.revision) this.encoded = { revision: this.revision, state: encodeStateAsUpdateWithoutPending(this.doc) };
    return this.encoded.state;
  }

  /**
   * Inside a settled task: what a peer at `stateVector` lacks. `shared`: the bytes are the ones
   * every peer with an empty state vector, or one equal to this revision's, gets (encoded once per
   * revision); otherwise they were encoded for this peer (its diff).
   */
  stateFor(stateVector: Uint8Array): { update: Uint8Array; shared: boolean } {
    if (isEmptyStateVector(stateVector)) return { update: this.encodedState(), shared: true };
    this.encodedState();
    const enc = this.encoded!;
    enc.vector ??= Y.encodeStateVector(this.doc);
    if (sameBytes(enc.vector, stateVector)) {
      enc.upToDate ??= encodeStateAsUpdateWithoutPending(this.doc, stateVector);
      return { update: enc.upToDate, shared: true };
    }
    return { update: encodeStateAsUpdateWithoutPending(this.doc, stateVector), shared: false };
  }

  /** Bytes of the cached encodings (counted in the registry's memory estimate). */
  get encodedBytes(): number {
    const e = this.encoded;
    return e ? e.state.byteLength + (e.vector?.byteLength ?? 0) + (e.upToDate?.byteLength ?? 0) : 0;
  }

  /** Waits until everything applied so far is committed (or the journal failed). */
  drain(): Promise<void> {
    return this.settledTask(() => {});
  }

  /**
   * Whether folding the log now keeps the bound of compactionDue (the log at least
   * COMPACT_LOG_RATIO times the snapshot, or past the cap on updates a load applies), whatever
   * the thresholds: what an unloading journal asks.
   */
  /** Whether compactionDue holds now (a compaction scheduled meanwhile may have made it false). */
  compactionDueNow(): boolean {
    return this.logCount > 0 && compactionDue(this.logCount, this.logBytes, this.stateBytes - this.logBytes, this.limits);
  }

  compactionWorthIt(): boolean {
    if (this.logCount === 0) return false;
    if (this.logCount >= COMPACT_LOG_CAP_FACTOR * this.limits.compactAfterUpdates) return true;
    return this.logBytes >= COMPACT_LOG_RATIO * (this.stateBytes - this.logBytes);
  }

  /**
   * Folds the update log into one snapshot of the committed state. The snapshot is taken at a
   * settled moment; editors go on meanwhile, their later updates stay in the log. Updates held
   * for missing dependencies stay in memory only.
   */
  async compact(): Promise<void> {
    // One at a time: a second call while one runs is answered by it.
    if (this.compacting) return this.compacting;
    this.compacting = this.compactOnce().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private compacting?: Promise<void>;

  private async compactOnce(): Promise<void> {
    if (this.logCount === 0 || this.broken || this.closed) return;
    // Without what Yjs holds for missing dependencies: that was never committed, and a snapshot is
    // what this and every other instance load.
    const { snapshot, revision, count, bytes } = await this.settledTask(() => ({ snapshot: this.encodedState(), revision: this.revision, count: this.logCount, bytes: this.logBytes }));
    await this.store.compact(this.seq, snapshot, revision);
    // Updates committed while compacting stay in the log, and count towards the next compaction
    // (counted as all of the log, they made the next one due early: a snapshot per few updates
    // once commits and compactions overlap).
    this.logCount = Math.max(0, this.logCount - count);
    this.logBytes = this.logCount === 0 ? 0 : Math.max(0, this.logBytes - bytes);
    this.stateBytes = snapshot.byteLength + this.logBytes;
  }

  /**
   * Gives a fresh id, in one server transaction, to every block that editors added without an id
   * or with an id another block already has (the existing block keeps its id). Returns how many
   * blocks were re-id'd (block-index.ts).
   */
  assignBlockIds(newId: () => string): number {
    return this.blocks.assignIds(newId, (fix, onBehalf) => this.doc.transact(fix, new ServerOrigin(onBehalf)));
  }

  cachedMarkdown(): string | undefined {
    return this.markdownCache?.revision === this.revision ? this.markdownCache.markdown : undefined;
  }

  cacheMarkdown(revision: number, markdown: string): void {
    this.markdownCache = { revision, markdown };
  }

  onClose(listener: CloseListener): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Unloads: tells holders why, then frees the document. Compaction is the caller's choice. */
  close(reason: UnloadReason): void {
    if (this.closed) return;
    this.closed = true;
    this.failTasks(new JournalUnloadedError(`journal unloaded (${UNLOAD_MESSAGE[reason]}); retry`));
    for (const l of [...this.closeListeners]) l(reason);
    this.closeListeners.clear();
    this.committedListeners.clear();
    this.doc.off('update', this.captureUpdate);
    this.doc.destroy();
    this.encoded = undefined;
  }
}

/** Editor updates up to this size may be committed as sent (applyEditorUpdate): keystrokes, not resyncs. */
const AS_SENT_MAX_BYTES = 512;

/** Whether a transaction changed the document (what Yjs asks before encoding its update). */
function changedAnything(tr: Y.Transaction): boolean {
  if (tr.deleteSet.clients.size > 0) return true;
  for (const [client, clock] of tr.afterState) if (tr.beforeState.get(client) !== clock) return true;
  return false;
}

/** A state vector that names no client (what a fresh Y.Doc sends: the single byte 0). */
function isEmptyStateVector(sv: Uint8Array): boolean {
  return sv.byteLength === 0 || (sv.byteLength === 1 && sv[0] === 0);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A compaction writes the whole state again, so it is due only once the log holds COMPACT_LOG_RATIO
 * times the snapshot's bytes (and the COMPACT_AFTER_* thresholds are passed). A compaction then
 * writes S' <= S + L <= (1 + 1 / COMPACT_LOG_RATIO) L bytes for the L bytes of updates it folds,
 * so the snapshots written while a journal grows add up to at most 1.5 times the bytes its
 * updates brought (which the log wrote once): every byte an editor sends is written at most 2.5
 * times by the service, twice that through a write-ahead log (bench/tenants.ts measures it).
 * Before, a compaction every COMPACT_AFTER_BYTES rewrote the growing snapshot: a journal of S
 * bytes written in updates cost S² / (2 COMPACT_AFTER_BYTES) bytes of snapshots. Past
 * COMPACT_LOG_CAP_FACTOR times COMPACT_AFTER_UPDATES updates a compaction is due whatever their
 * size, which bounds the updates a load applies one by one.
 */
export const COMPACT_LOG_RATIO = 2;
export const COMPACT_LOG_CAP_FACTOR = 20;

export function compactionDue(
  logCount: number,
  logBytes: number,
  snapshotBytes: number,
  limits: { compactAfterUpdates: number; compactAfterBytes: number },
): boolean {
  if (logCount >= COMPACT_LOG_CAP_FACTOR * limits.compactAfterUpdates) return true;
  if (logBytes < COMPACT_LOG_RATIO * snapshotBytes) return false;
  return logCount >= limits.compactAfterUpdates || logBytes >= limits.compactAfterBytes;
}
