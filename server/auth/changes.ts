/**
 * How caches of stored data (resolved keys, balances and custom limits) learn of changes made by
 * ANOTHER process or instance: the admin command line, or a second server on the same PostgreSQL
 * database. SQLite's `PRAGMA data_version` has no PostgreSQL counterpart, so the changes that must
 * reach other caches quickly (key revocations, tier changes, custom limits, balances set or granted
 * by an admin) bump a stored change counter in the transaction that makes them, and each process
 * reads that counter at most every CHANGE_CHECK_MS: one indexed single-row read, shared by every
 * cache of the process, whatever the number of keys or organizations. A request that starts
 * CHANGE_CHECK_MS after such a change committed sees it (the check is awaited when due).
 *
 * The counter is the row 'caches' of `store_changes`. Changes that happen on every request (debits,
 * read charges) do not bump it: a hot row would serialize every instance; caches of balances
 * expire instead (BillingService).
 */
import type { Queryable } from '../storage/engine.ts';

/** Another process's changes reach this process's caches within this long. */
export const CHANGE_CHECK_MS = 20;

const READ_COUNTER = "SELECT version FROM store_changes WHERE name = 'caches'";
const BUMP_COUNTER = `INSERT INTO store_changes (name, version) VALUES ('caches', 1)
  ON CONFLICT (name) DO UPDATE SET version = store_changes.version + 1`;

/** Records a change other processes' caches must see; run it in the transaction of the change. */
export async function noteChange(q: Queryable): Promise<void> {
  await q.run(BUMP_COUNTER);
}

/** The stored change counter of one store, read at most every CHANGE_CHECK_MS. */
export class ChangeWatch {
  private version = -1;
  private checkedAt = -Infinity;
  private reading: Promise<number> | undefined;

  constructor(private readonly q: Queryable) {}

  /** The counter: a plain number while the last read is fresh (no await on the hot path). */
  current(): number | Promise<number> {
    const t = performance.now();
    if (t - this.checkedAt < CHANGE_CHECK_MS) return this.version;
    return (this.reading ??= this.read(t));
  }

  private async read(startedAt: number): Promise<number> {
    try {
      const row = await this.q.get<{ version: number }>(READ_COUNTER);
      this.version = row?.version ?? 0;
      // The time the read started: a change committed before then is in what it read.
      this.checkedAt = startedAt;
      return this.version;
    } finally {
      this.reading = undefined;
    }
  }
}

const watches = new WeakMap<Queryable, ChangeWatch>();

/** The one watch of a store in this process, shared by its caches. */
export function changeWatch(q: Queryable): ChangeWatch {
  let w = watches.get(q);
  if (!w) watches.set(q, (w = new ChangeWatch(q)));
  return w;
}
