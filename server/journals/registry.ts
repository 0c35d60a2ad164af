/**
 * Which journals are loaded. One LiveJournal per journal id, loaded on first use (concurrent first
 * uses share one load) and unloaded (after compaction) once it has no holders and has not been
 * used for the idle period, or at once when its storage failed.
 */
import type { Logger } from '../logger.ts';
import type { GroupCommitter } from './group-commit.ts';
import { LiveJournal, RestOrigin, type UnloadReason } from './live.ts';
import type { SlicedLoader } from './sliced-load.ts';
import type { JournalRow, JournalStore } from './store.ts';

export interface RegistryOptions {
  compactAfterUpdates: number;
  compactAfterBytes: number;
  idleMs: number;
  /** Estimated heap above which idle journals are unloaded, least recently used first (0 = none). */
  memoryCapBytes?: number;
  /** Loads large journals in slices, a log merged in a worker (sliced-load.ts); without it, in one piece. */
  loader?: SlicedLoader;
}

/**
 * What the registry tells an extension, as Hocuspocus tells its extensions. The one the service
 * has is cross-instance sync (server/cluster/sync.ts); the registry knows it only by these hooks.
 */
export interface RegistryExtension {
  /** A journal was loaded here; it is served once this resolves. False: it is gone from the store. */
  afterLoad(live: LiveJournal): Promise<boolean>;
  /** Updates made here were committed as revisions from `first`; `quiet`: not pushed to editors. */
  afterCommit(live: LiveJournal, first: number, updates: readonly Uint8Array[], quiet: boolean): void;
  /** The journal left this process's memory (the next use loads it again). */
  afterUnload(journalId: string): void;
  /** The journal was deleted here (committed). */
  afterDelete(journalId: string): void;
  /** Shutdown, once every journal is unloaded. */
  destroy(): Promise<void>;
}

/**
 * Heap a loaded journal is estimated to take: Yjs holds about 17 bytes of heap per byte of
 * encoded state (measured on paragraph-heavy journals), plus a fixed cost per document, plus
 * what it holds for updates whose dependencies are missing (measured ~9 bytes of heap and
 * buffers per held byte, which Yjs re-merges as more arrive), plus its state encoded once per
 * revision (shared by joiners and compaction) and what is queued to its editors' sockets.
 */
export function estimatedHeapBytes(j: LiveJournal): number {
  return 20 * j.stateBytes + 10 * j.pendingBytes + j.encodedBytes + j.queuedBytes + 16 * 1024;
}

export class JournalRegistry {
  private readonly live = new Map<string, LiveJournal>();
  private readonly loading = new Map<string, Promise<LiveJournal | undefined>>();
  private readonly compactQueue = new Set<LiveJournal>();
  private compactScheduled = false;
  private sweepTimer?: NodeJS.Timeout;
  private readonly unloading = new Set<Promise<void>>();
  private extension?: RegistryExtension;

  constructor(
    private readonly store: JournalStore,
    private readonly committer: GroupCommitter,
    private readonly opts: RegistryOptions,
    private readonly logger: Logger,
  ) {
    if (opts.idleMs > 0) {
      this.sweepTimer = setInterval(() => void this.sweepIdle(), Math.max(1000, Math.min(opts.idleMs, 10_000)));
      this.sweepTimer.unref();
    }
  }

  /** Hooks the extension in, before the first journal loads. */
  use(extension: RegistryExtension): void {
    this.extension = extension;
  }

  /** The loaded journal for this row, loading it from the store when needed; undefined when it no longer exists. */
  async open(row: JournalRow): Promise<LiveJournal | undefined> {
    for (;;) {
      const j = this.live.get(row.id);
      if (j && !j.broken) {
        j.touch();
        return j;
      }
      if (j) this.unload(j, 'storage-error', false);
      let pending = this.loading.get(row.id);
      if (!pending) {
        pending = this.load(row);
        this.loading.set(row.id, pending);
        void pending.finally(() => this.loading.delete(row.id)).catch(() => {});
      }
      const loaded = await pending;
      if (!loaded || !loaded.broken) {
        loaded?.touch();
        return loaded;
      }
    }
  }

  private async load(row: JournalRow): Promise<LiveJournal | undefined> {
    const j = await LiveJournal.load(row.id, row.seq, this.store, this.committer, this.opts, {
      compactDue: (due) => this.scheduleCompaction(due),
      broken: (broken, err) => {
        this.logger.error({ err, journal_id: broken.id }, 'committing journal updates failed; reloading the journal from the store');
        if (this.live.get(broken.id) === broken) this.unload(broken, 'storage-error', false);
      },
      committedHere: (here, first, updates, origin) => {
        this.extension?.afterCommit(here, first, updates, origin instanceof RestOrigin && !origin.broadcast);
      },
    }, this.opts.loader);
    if (!j) return undefined;
    if (this.extension && !(await this.extension.afterLoad(j))) {
      j.close('deleted');
      return undefined;
    }
    this.live.set(row.id, j);
    j.touch();
    this.enforceMemoryCap(j);
    return j;
  }

  get(id: string): LiveJournal | undefined {
    const j = this.live.get(id);
    return j && !j.broken ? j : undefined;
  }

  get size(): number {
    return this.live.size;
  }

  loaded(): IterableIterator<LiveJournal> {
    return this.live.values();
  }

  /** Unloads without compacting: used when the journal is being deleted. */
  evict(id: string, reason: UnloadReason): void {
    const j = this.live.get(id);
    if (j) this.unload(j, reason, false);
  }

  /** The journal was deleted (committed): closes its editors here and on the other instances. */
  deleted(id: string): void {
    this.evict(id, 'deleted');
    this.extension?.afterDelete(id);
  }

  /** Commits what is applied, compacts and unloads every journal (graceful shutdown), then the extension. */
  async closeAll(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const j of [...this.live.values()]) this.unload(j, 'shutdown', true);
    await Promise.all([...this.loading.values()].map((p) => p.catch(() => undefined)));
    for (const j of [...this.live.values()]) this.unload(j, 'shutdown', true);
    await Promise.all([...this.unloading]);
    await this.extension?.destroy();
  }

  /** Unloads journals idle since `idleMs`; resolves when they are compacted and freed. */
  async sweepIdle(now = Date.now()): Promise<void> {
    const unloads: Promise<void>[] = [];
    for (const j of [...this.live.values()]) {
      if (j.holders === 0 && now - j.lastUsed >= this.opts.idleMs) unloads.push(this.unload(j, 'idle', true));
    }
    this.enforceMemoryCap();
    await Promise.all(unloads);
  }

  /**
   * Unloads idle journals (no holders), least recently used first, until the estimate is under
   * the cap. Journals with editors are never unloaded for memory; `keep` was just opened.
   */
  enforceMemoryCap(keep?: LiveJournal): void {
    const cap = this.opts.memoryCapBytes ?? 0;
    if (cap <= 0) return;
    let total = 0;
    for (const j of this.live.values()) total += estimatedHeapBytes(j);
    if (total <= cap) return;
    const idle = [...this.live.values()].filter((j) => j.holders === 0 && j !== keep).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const j of idle) {
      if (total <= cap) break;
      total -= estimatedHeapBytes(j);
      this.unload(j, 'memory-cap', true);
    }
  }

  /**
   * Takes the journal out of the registry at once (the next use loads it afresh), then, when
   * compacting, lets what is applied commit and compacts before freeing it.
   */
  private unload(j: LiveJournal, reason: UnloadReason, compact: boolean): Promise<void> {
    if (this.live.get(j.id) === j) this.live.delete(j.id);
    if (!this.live.has(j.id) && !this.loading.has(j.id)) this.extension?.afterUnload(j.id);
    this.compactQueue.delete(j);
    if (!compact || j.broken) {
      j.close(reason);
      return Promise.resolve();
    }
    const done = (async () => {
      try {
        await j.drain();
        // Folding the log rewrites the whole state: only when the log is worth it (the same rule
        // as while loaded), or every unload of a large journal would rewrite it for a few edits.
        if (j.compactionWorthIt()) await j.compact();
      } catch (err) {
        this.logger.error({ err, journal_id: j.id }, 'compaction failed; the update log is kept');
      } finally {
        j.close(reason);
      }
    })();
    this.unloading.add(done);
    void done.finally(() => this.unloading.delete(done));
    return done;
  }

  /** Compaction runs after the current request, never inside the edit that triggered it. */
  private scheduleCompaction(j: LiveJournal): void {
    this.compactQueue.add(j);
    if (this.compactScheduled) return;
    this.compactScheduled = true;
    setImmediate(() => {
      this.compactScheduled = false;
      for (const due of [...this.compactQueue]) {
        this.compactQueue.delete(due);
        // Still due: a compaction that ran meanwhile folded what made it due.
        if (this.live.get(due.id) !== due || !due.compactionDueNow()) continue;
        due.compact().catch((err) => this.logger.error({ err, journal_id: due.id }, 'compaction failed; the update log is kept'));
      }
    });
  }
}
