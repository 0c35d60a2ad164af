/**
 * The SQLite engine: better-sqlite3 (one connection, synchronous) under the async StorageEngine
 * face. A statement outside a transaction runs synchronously, at once, when no transaction is
 * open; its promise is already settled when returned. A transaction holds the connection
 * exclusively from BEGIN to COMMIT, across the awaits of its function: meanwhile every other
 * statement and transaction of this engine waits its turn, in arrival order (a FIFO lock).
 * Migrations are those of `openDatabase` (server/storage/db.ts).
 */
import Database from 'better-sqlite3';
import { openDatabase, type DB } from './db.ts';
import { BACKSTOP_PAGES, WalCheckpointer } from './wal-checkpointer.ts';
import {
  StorageUnavailableError,
  type Dialect,
  type Row,
  type RunResult,
  type SqlValue,
  type StorageEngine,
  type SyncQueryable,
  type Transaction,
  type TransactionOptions,
} from './engine.ts';
import { attempt, BoundedCache, callFromInside, runCommitHooks, FifoLock, guarded, normalizeParams, runInFrame, StatementRunner, Tx, type BoundValue, type Executor } from './engine-internals.ts';

/** Control statements run often enough to keep prepared (every transaction's). */
const FIXED_CONTROL = new Set(['BEGIN', 'BEGIN IMMEDIATE', 'COMMIT']);

/** better-sqlite3 answers synchronously. */
interface SyncExecutor extends Executor {
  all(sql: string, params: BoundValue[]): Row[];
  get(sql: string, params: BoundValue[]): Row | undefined;
  run(sql: string, params: BoundValue[]): RunResult;
  control(sql: string): void;
}

/** The table name and weights of textSearch.matches are spliced into SQL: plain values only. */
function checkTextSearch(table: string, weights: readonly number[]): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError(`text search table: ${JSON.stringify(table)} is not a plain lower-case identifier`);
  if (weights.length < 1 || weights.length > 4 || !weights.every((w) => Number.isFinite(w) && w >= 0) || !weights.some((w) => w > 0)) {
    throw new RangeError('text search weights: one to four finite, non-negative numbers, at least one above 0');
  }
}

const SQLITE_DIALECT: Dialect = Object.freeze({
  forUpdate: '',
  forUpdateSkipLocked: '',
  textSearch: Object.freeze({
    // FTS5: MATCH and bm25 name the table itself (an alias would not do).
    matches(table: string, weights: readonly number[]): string {
      checkTextSearch(table, weights);
      return `SELECT rowid AS hit_rowid, bm25(${table}, ${weights.map((w) => w.toFixed(6)).join(', ')}) AS hit_rank FROM ${table} WHERE ${table} MATCH ?`;
    },
    // FTS5 strings: a quoted word is a plain token ("" for a quote inside); OR between them.
    anyWord: (words: readonly string[]): string => words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR '),
  }),
});

/** Opens (creating and migrating) the database file and wraps it. */
export function openSqliteEngine(file: string, opts: { synchronous?: 'normal' | 'full'; statementCacheSize?: number } = {}): SqliteEngine {
  return new SqliteEngine(openDatabase(file, { synchronous: opts.synchronous }), { statementCacheSize: opts.statementCacheSize });
}

/** Maps the errors that are the store's condition, not the statement's fault, to StorageUnavailableError. */
export function mapSqliteError(e: unknown): unknown {
  if (e instanceof Database.SqliteError) {
    const code = e.code;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return new StorageUnavailableError('busy', `SQLite database is locked by another connection (${code})`, { cause: e });
    }
    if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_FULL' || code.startsWith('SQLITE_READONLY')) {
      return new StorageUnavailableError('unreachable', `SQLite database cannot be used (${code}): ${e.message}`, { cause: e });
    }
  } else if (e instanceof TypeError && /database connection is not open/i.test(e.message)) {
    return new StorageUnavailableError('closed', 'the SQLite database is closed', { cause: e });
  }
  return e;
}

export class SqliteEngine extends StatementRunner implements StorageEngine {
  readonly kind = 'sqlite' as const;
  readonly dialect = SQLITE_DIALECT;
  private readonly lock = new FifoLock();
  private readonly statements: BoundedCache<string, Database.Statement>;
  protected readonly x: SyncExecutor;
  private closing = false;
  private savepoints = 0;

  /**
   * @param db an open, migrated database (openDatabase). The engine owns it from now on: while
   *   the domains still use `db` directly, their synchronous statements would run inside whatever
   *   async transaction is open on this one connection.
   */
  private readonly checkpointer?: WalCheckpointer;

  constructor(
    readonly db: DB,
    opts: { statementCacheSize?: number } = {},
  ) {
    super();
    // Checkpoints off the event loop (wal-checkpointer.ts); an in-memory database has no log.
    if (!db.memory) {
      db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      this.checkpointer = new WalCheckpointer(db.name);
    }
    this.statements = new BoundedCache(opts.statementCacheSize ?? 1000);
    const stmt = (sql: string): Database.Statement => {
      let s = this.statements.get(sql);
      if (!s) {
        s = db.prepare(sql);
        this.statements.set(sql, s);
      }
      return s;
    };
    // Synchronous; errors mapped. A statement without result columns run by all/get yields nothing.
    this.x = {
      all(sql: string, params: BoundValue[]): Row[] {
        try {
          const s = stmt(sql);
          if (s.reader) return s.all(...params) as Row[];
          s.run(...params);
          return [];
        } catch (e) {
          throw mapSqliteError(e);
        }
      },
      get(sql: string, params: BoundValue[]): Row | undefined {
        try {
          const s = stmt(sql);
          if (s.reader) return s.get(...params) as Row | undefined;
          s.run(...params);
          return undefined;
        } catch (e) {
          throw mapSqliteError(e);
        }
      },
      run(sql: string, params: BoundValue[]): RunResult {
        try {
          return { changes: stmt(sql).run(...params).changes };
        } catch (e) {
          throw mapSqliteError(e);
        }
      },
      control(sql: string): void {
        try {
          // BEGIN and COMMIT, once per transaction: prepared once rather than parsed by exec each
          // time. Savepoints (a name each) and ROLLBACK go through exec.
          const fixed = FIXED_CONTROL.has(sql) ? stmt(sql) : undefined;
          if (fixed) fixed.run();
          else db.exec(sql);
        } catch (e) {
          throw mapSqliteError(e);
        }
      },
    };
  }

  private refusal(what: string): Error | undefined {
    if (this.closing) return new StorageUnavailableError('closed', 'the storage engine is closed');
    return callFromInside(this, what);
  }

  protected statement<T>(exec: () => T | Promise<T>): Promise<T> {
    const refused = this.refusal('the storage engine');
    if (refused) return Promise.reject(refused);
    // Fast path: nothing open, nobody waiting — run now, synchronously.
    if (this.lock.idle) return attempt(exec);
    return this.lock.run(exec);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    const refused = this.refusal('the storage engine');
    if (refused) return Promise.reject(refused);
    return this.lock.run(async () => {
      const immediate = !!opts.immediate;
      this.x.control(immediate ? 'BEGIN IMMEDIATE' : 'BEGIN');
      const session = { open: true };
      const tx = new Tx(guarded(this.x, session), this.dialect, immediate, () => `sp${++this.savepoints}`);
      try {
        const result = await runInFrame(this, tx, () => fn(tx));
        await tx.end();
        session.open = false;
        this.x.control('COMMIT');
        runCommitHooks(tx.commitHooks);
        return result;
      } catch (e) {
        session.open = false;
        tx.abandon();
        if (this.db.inTransaction) {
          try {
            this.db.exec('ROLLBACK');
          } catch {
            // nothing more to undo
          }
        }
        throw mapSqliteError(tx.rootCause(e));
      }
    });
  }

  transactionSync<T>(fn: (q: SyncQueryable) => T): Promise<T> {
    const refused = this.refusal('the storage engine');
    if (refused) return Promise.reject(refused);
    if (!this.lock.tryAcquire()) return this.lock.run(() => this.inTransaction(fn));
    try {
      return Promise.resolve(this.inTransaction(fn));
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.lock.release();
    }
  }

  /** BEGIN, `fn`, COMMIT, all synchronous; ROLLBACK when anything throws. Called holding the lock. */
  private inTransaction<T>(fn: (q: SyncQueryable) => T): T {
    const x = this.x;
    x.control('BEGIN');
    try {
      const result = fn({
        get: <R>(sql: string, params?: readonly SqlValue[]) => x.get(sql, normalizeParams(params)) as R | undefined,
        run: (sql: string, params?: readonly SqlValue[]) => x.run(sql, normalizeParams(params)),
      });
      x.control('COMMIT');
      return result;
    } catch (e) {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // nothing more to undo
        }
      }
      throw mapSqliteError(e);
    }
  }

  /** Lets the statements and transactions already asked for finish, then closes the database. */
  close(): Promise<void> {
    if (this.closing) return this.lock.run(() => {});
    this.closing = true;
    return this.lock.run(async () => {
      await this.checkpointer?.close();
      if (this.db.open) this.db.close();
    });
  }
}
