/**
 * Group commit of journal updates: every append asked for while a transaction is in flight goes
 * into the next one, whatever the journal. Under load one transaction (one fsync on SQLite FULL
 * or PostgreSQL) carries many updates, instead of one per keystroke. When idle, an append starts
 * without any timer wait. On SQLite (`waitForTurn`) in the event loop's check phase (setImmediate),
 * right after the messages read in this turn are handled, so the updates of every socket that was
 * ready together share one transaction: SQLite's transaction is synchronous, so nothing would
 * ever join one in flight, and each editor update paid a COMMIT of its own (issue 33). Otherwise
 * in a microtask, so appends made in the same task share it. On an engine with synchronous
 * statements (`transactionSync`, SQLite) the whole transaction runs in one go, without a promise
 * per statement.
 */
import type { StorageEngine } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import type { Touches } from './activity.ts';
import type { JournalStore } from './store.ts';

interface Append {
  seq: number;
  updates: readonly Uint8Array[];
  /** What each update touched, by actor (journal_activity). */
  touches?: readonly (Touches | undefined)[];
  resolve(lastRevision: number | undefined): void;
  reject(err: unknown): void;
}

export class GroupCommitter {
  private queue: Append[] = [];
  private active = false;
  /** Transactions and updates committed, for the bench and tests. */
  readonly stats = { transactions: 0, updates: 0 };
  /** Told the duration of each committed transaction and its update count (GET /metrics). */
  onCommit?: (seconds: number, updates: number) => void;

  constructor(
    private readonly engine: StorageEngine,
    private readonly store: JournalStore,
    /**
     * Start an idle committer's transaction at the end of the event-loop turn (setImmediate)
     * rather than in a microtask. For an engine whose transactions run synchronously (SQLite),
     * where nothing else could ever join a transaction in flight; an engine that waits on the
     * network (PostgreSQL) groups what arrives while a transaction is in flight already.
     */
    private readonly waitForTurn = false,
  ) {}

  /**
   * Commits `updates` after everything appended before, with the journal's next revisions.
   * Resolves with the last revision written, or undefined when the journal no longer exists;
   * rejects when the transaction failed (nothing of it was written).
   */
  append(seq: number, updates: readonly Uint8Array[], touches?: readonly (Touches | undefined)[]): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ seq, updates, touches, resolve, reject });
      if (!this.active) {
        this.active = true;
        if (this.waitForTurn) setImmediate(() => void this.drain());
        else queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      // Journals in seq order: two instances' batches lock journal rows in the same order.
      const bySeq = new Map<number, Append[]>();
      if (batch.length > 1) batch.sort((x, y) => x.seq - y.seq); // stable: appends of one journal keep their order
      for (const a of batch) {
        const list = bySeq.get(a.seq);
        if (list) list.push(a);
        else bySeq.set(a.seq, [a]);
      }
      let last: Map<number, number | undefined>;
      const started = performance.now();
      try {
        // One list per journal: a single append's own arrays, or the appends' joined in order.
        const journals = [...bySeq].map(([seq, appends]) => {
          const one = appends.length === 1 ? appends[0]! : undefined;
          const updates = one ? one.updates : appends.flatMap((a) => a.updates);
          const touches = one ? one.touches : appends.flatMap((a) => a.touches ?? a.updates.map(() => undefined));
          return { seq, updates, touches };
        });
        const at = nowIso();
        last = this.engine.transactionSync
          ? await this.engine.transactionSync((q) => new Map(journals.map((j) => [j.seq, this.store.appendUpdatesSync(q, j.seq, j.updates, j.touches, at)])))
          : await this.engine.transaction(async (tx) => {
              const out = new Map<number, number | undefined>();
              for (const j of journals) out.set(j.seq, await this.store.appendUpdates(tx, j.seq, j.updates, false, j.touches, at));
              return out;
            });
      } catch (err) {
        for (const a of batch) a.reject(err);
        continue;
      }
      this.stats.transactions++;
      this.onCommit?.((performance.now() - started) / 1000, batch.reduce((n, a) => n + a.updates.length, 0));
      for (const [seq, appends] of bySeq) {
        const end = last.get(seq);
        // Each append's own last revision: the journal's revisions were taken in append order.
        let before = end === undefined ? 0 : end - appends.reduce((n, a) => n + a.updates.length, 0);
        for (const a of appends) {
          this.stats.updates += a.updates.length;
          before += a.updates.length;
          a.resolve(end === undefined ? undefined : before);
        }
      }
    }
    this.active = false;
  }
}
