/**
 * Which journals are loaded. One LiveJournal per journal id, created on first use and unloaded
 * (after compaction) once it has no holders and has not been used for the idle period.
 */
import type { Logger } from '../logger.ts';
import { LiveJournal } from './live.ts';
import type { JournalRow, JournalStore } from './store.ts';

export interface RegistryOptions {
  compactAfterUpdates: number;
  compactAfterBytes: number;
  idleMs: number;
  /** Estimated heap above which idle journals are unloaded, least recently used first (0 = none). */
  memoryCapBytes?: number;
}

/**
 * Heap a loaded journal is estimated to take: Yjs holds about 17 bytes of heap per byte of
 * encoded state (measured on paragraph-heavy journals), plus a fixed cost per document, plus
 * what it holds for updates whose dependencies are missing (measured ~9 bytes of heap and
 * buffers per held byte, which Yjs re-merges as more arrive).
 */
export function estimatedHeapBytes(j: LiveJournal): number {
  return 20 * j.stateBytes + 10 * j.pendingBytes + 16 * 1024;
}

export class JournalRegistry {
  private readonly live = new Map<string, LiveJournal>();
  private readonly compactQueue = new Set<LiveJournal>();
  private compactScheduled = false;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly store: JournalStore,
    private readonly opts: RegistryOptions,
    private readonly logger: Logger,
  ) {
    if (opts.idleMs > 0) {
      this.sweepTimer = setInterval(() => this.sweepIdle(), Math.max(1000, Math.min(opts.idleMs, 10_000)));
      this.sweepTimer.unref();
    }
  }

  /** The loaded journal for this row, loading it from SQLite when needed. */
  open(row: JournalRow): LiveJournal {
    let j = this.live.get(row.id);
    if (j?.broken) {
      this.unload(j, 'journal reloaded after a storage error', false);
      j = undefined;
    }
    if (!j) {
      j = new LiveJournal(row.id, row.seq, this.store, this.opts, (due) => this.scheduleCompaction(due));
      this.live.set(row.id, j);
      j.touch();
      this.enforceMemoryCap(j);
    }
    j.touch();
    return j;
  }

  get(id: string): LiveJournal | undefined {
    return this.live.get(id);
  }

  get size(): number {
    return this.live.size;
  }

  loaded(): IterableIterator<LiveJournal> {
    return this.live.values();
  }

  /** Unloads without compacting: used when the journal is being deleted. */
  evict(id: string, reason: string): void {
    const j = this.live.get(id);
    if (j) this.unload(j, reason, false);
  }

  /** Compacts and unloads every journal (graceful shutdown). */
  closeAll(reason: string): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const j of [...this.live.values()]) this.unload(j, reason, true);
  }

  sweepIdle(now = Date.now()): void {
    for (const j of [...this.live.values()]) {
      if (j.holders === 0 && now - j.lastUsed >= this.opts.idleMs) this.unload(j, 'idle', true);
    }
    this.enforceMemoryCap();
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
      this.unload(j, 'memory cap', true);
    }
  }

  private unload(j: LiveJournal, reason: string, compact: boolean): void {
    if (compact) {
      try {
        j.compact();
      } catch (err) {
        this.logger.error({ err, journal_id: j.id }, 'compaction failed; the update log is kept');
      }
    }
    this.live.delete(j.id);
    this.compactQueue.delete(j);
    j.close(reason);
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
        if (this.live.get(due.id) !== due) continue;
        try {
          due.compact();
        } catch (err) {
          this.logger.error({ err, journal_id: due.id }, 'compaction failed; the update log is kept');
        }
      }
    });
  }
}
