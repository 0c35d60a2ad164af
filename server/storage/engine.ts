/**
 * The storage interface: one face, two engines (docs/storage.md). SQLite (embedded, the default)
 * and PostgreSQL (`DATABASE_URL=postgres://...`) both implement `StorageEngine`; domain code asks
 * for rows through these async functions and an async transaction helper, with SQL written once in
 * the portable subset both engines accept, `?` placeholders included. It never sees a dialect,
 * a connection or which engine runs, apart from `Dialect` (two lock clauses, full-text search).
 */

export type EngineKind = 'sqlite' | 'postgres';

/**
 * A bound parameter. Booleans are bound as 1 / 0 on both engines (booleans are stored as 0/1
 * integers, so rows look the same); `undefined` is bound as NULL; Uint8Array and Buffer are BLOB
 * (SQLite) / bytea (PostgreSQL). Anything else (Date, objects) is refused, on both engines alike.
 */
export type SqlValue = string | number | bigint | boolean | Uint8Array | null | undefined;

export type Row = Record<string, unknown>;

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  changes: number;
}

export interface TransactionOptions {
  /**
   * The transaction reads, then writes on the strength of what it read, and must behave as if no
   * other writer ran in between — across processes and instances, not only in this process.
   * SQLite: `BEGIN IMMEDIATE` (the write lock is taken at BEGIN). PostgreSQL: `ISOLATION LEVEL
   * SERIALIZABLE`; a serialization failure re-runs the whole function. Only the outermost
   * transaction can ask for it: a nested transaction asking for it inside one that did not is
   * refused with TransactionMisuseError.
   */
  immediate?: boolean;
}

/**
 * The only engine-specific SQL domain code may use: lock clauses appended to a SELECT (empty on
 * SQLite, where the one writer connection already serializes every transaction of the process),
 * and full-text search, which differs by nature.
 */
export interface Dialect {
  /** ' FOR UPDATE' on PostgreSQL: lock the selected rows until the transaction ends, waiting for them. */
  readonly forUpdate: string;
  /** ' FOR UPDATE SKIP LOCKED' on PostgreSQL: lock the selected rows, skipping those another transaction holds (queues). */
  readonly forUpdateSkipLocked: string;
  /** Full-text search, whose SQL differs by nature between the engines. */
  readonly textSearch: TextSearchDialect;
}

/**
 * Full-text search over a table the migrations made for it: an FTS5 table on SQLite; on
 * PostgreSQL a table with `rowid` and a generated `document` tsvector (English) whose source
 * columns are weighted A, B, C, D in their order. Rows are written with ordinary portable SQL
 * (`INSERT INTO t (rowid, ...)`, `DELETE FROM t WHERE rowid = ?`); only matching and ranking
 * are engine-specific.
 */
export interface TextSearchDialect {
  /**
   * A SELECT, to use as a subquery, of `hit_rowid` and `hit_rank` (ascending: best match first)
   * of the rows of `table` that match the query bound to its one `?` (made by `anyWord`).
   * `weights` weigh the table's searched columns in order (relative; at most four, at least
   * one above 0). SQLite: bm25 with these column weights; PostgreSQL: ts_rank over the weight
   * labels, length-normalized.
   */
  matches(table: string, weights: readonly number[]): string;
  /**
   * The query to bind for rows holding any of `words`, each taken as one plain word (quoted: no
   * operator of the query language gets through), stemmed as the index stems it.
   */
  anyWord(words: readonly string[]): string;
}

export interface Queryable {
  readonly dialect: Dialect;
  /** Every row. A statement that returns no rows (no RETURNING) runs and yields []. */
  all<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /**
   * Runs `fn` in a transaction: committed when its promise resolves, rolled back (and the error
   * rethrown) when it rejects. Called on the engine it opens a transaction; called on a
   * transaction it opens a nested one (a savepoint) that rolls back alone. Inside `fn`, use `tx`
   * only: calling the engine (or an outer transaction) from inside `fn` rejects with
   * TransactionMisuseError instead of deadlocking. On PostgreSQL `fn` can run more than once
   * (retries after serialization failures and deadlocks): keep effects outside the database
   * until it has resolved.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` once the outermost transaction has committed: the place for in-memory effects of a
   * transaction (caches, counters, notifications), which must not happen when it rolls back or is
   * re-run. Dropped when the transaction (or the nested one it was asked in) rolls back. Called on
   * the engine, outside any transaction, it runs `fn` at once (each statement commits itself).
   * `fn` should not throw; if it does, the error is reported as a process warning and the other
   * callbacks still run (the data is committed either way).
   */
  afterCommit(fn: () => void): void;
}

/** The `tx` given to a transaction function. Valid until that function's promise settles. */
export type Transaction = Queryable;

/** Statements answered at once, inside `transactionSync`: the same SQL and parameters as Queryable's. */
export interface SyncQueryable {
  get<T = Row>(sql: string, params?: readonly SqlValue[]): T | undefined;
  run(sql: string, params?: readonly SqlValue[]): RunResult;
}

export interface StorageEngine extends Queryable {
  /** For wiring, logs and tests; domain code does not branch on it. */
  readonly kind: EngineKind;
  /**
   * Only on an engine whose statements run synchronously (SQLite): runs `fn` in one transaction
   * without a promise or an async hook per statement (BEGIN, `fn`, COMMIT in one go when the
   * connection is free; otherwise when its turn comes, in arrival order with everything else).
   * Committed when `fn` returns, rolled back (and rejected) when it throws. For hot paths (the
   * group commit of editor updates, issue 33). `fn` must use only `q`.
   */
  transactionSync?<T>(fn: (q: SyncQueryable) => T): Promise<T>;
  /** Waits for the work already started, then closes; later calls reject with StorageUnavailableError ('closed'). */
  close(): Promise<void>;
}

/**
 * The store cannot serve the request now, for a reason that is not the request's fault: a lost or
 * refused connection, a lock held too long, a transaction that kept conflicting, or an engine that
 * is closing. Meant to become a 503 (with Retry-After) at the HTTP layer. When it is thrown by a
 * COMMIT, whether the transaction committed is unknown.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(
    readonly reason: 'unreachable' | 'busy' | 'closed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A programming error in the use of transactions (the engine would otherwise deadlock or misbehave). */
export class TransactionMisuseError extends Error {
  override readonly name = 'TransactionMisuseError';
}
