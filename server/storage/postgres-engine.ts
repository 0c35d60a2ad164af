/**
 * The PostgreSQL engine (`DATABASE_URL=postgres://...`): a pg.Pool. A statement outside a
 * transaction runs on any pooled connection (autocommit); a transaction holds one connection from
 * BEGIN to COMMIT and is re-run as a whole, a few times, after a serialization failure or a
 * deadlock (SQLSTATE 40001, 40P01). `?` placeholders become $1..$n. Results look like the SQLite
 * engine's: int8 and integral numeric come back as JS numbers (refused past 2^53), booleans as
 * 1 / 0, bytea as Buffer. Migrations: postgres-migrations.ts, applied by `migratePostgres` under
 * an advisory lock so that instances starting together apply each one once.
 */
// pg's CommonJS file itself: its main entry is an ES module wrapper of this file under `import`
// and this file under `require`, so the compiled server (which require()s it) and the source run
// would load different entries.
import pg from 'pg/lib/index.js';
import {
  StorageUnavailableError,
  type Dialect,
  type Row,
  type StorageEngine,
  type Transaction,
  type TransactionOptions,
} from './engine.ts';
import { BoundedCache, callFromInside, runCommitHooks, FifoLock, guarded, runInFrame, StatementRunner, Tx, type BoundValue, type Executor } from './engine-internals.ts';
import { postgresMigrations } from './postgres-migrations.ts';

/** The table name and weights of textSearch.matches are spliced into SQL: plain values only. */
function checkTextSearch(table: string, weights: readonly number[]): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError(`text search table: ${JSON.stringify(table)} is not a plain lower-case identifier`);
  if (weights.length < 1 || weights.length > 4 || !weights.every((w) => Number.isFinite(w) && w >= 0) || !weights.some((w) => w > 0)) {
    throw new RangeError('text search weights: one to four finite, non-negative numbers, at least one above 0');
  }
}

const POSTGRES_DIALECT: Dialect = Object.freeze({
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  textSearch: Object.freeze({
    matches(table: string, weights: readonly number[]): string {
      checkTextSearch(table, weights);
      // ts_rank takes label weights {D, C, B, A} within [0, 1]; column i was labelled A + i. Its
      // normalization 1 divides by 1 + log(length), as bm25 discounts long documents. The query is
      // parsed once (the FROM item), so the SQL has a single parameter as on SQLite.
      const max = Math.max(...weights);
      const w = [0, 1, 2, 3].map((i) => ((weights[i] ?? 0) / max).toFixed(6));
      const labels = `{${w[3]}, ${w[2]}, ${w[1]}, ${w[0]}}`;
      return `SELECT t.rowid AS hit_rowid, -ts_rank(CAST('${labels}' AS real[]), t.document, q.query, 1) AS hit_rank FROM ${table} t, to_tsquery('english', ?) AS q(query) WHERE t.document @@ q.query`;
    },
    // tsquery: each word a quoted lexeme (quotes and backslashes doubled), OR-ed with |.
    anyWord: (words: readonly string[]): string => words.map((w) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | '),
  }),
});

// --- placeholders ------------------------------------------------------------------------------

/**
 * `?` -> `$1..$n`, leaving alone those inside '...' strings, "..." identifiers, -- and /* *\/
 * comments. Numbered (`?1`) and named parameters are not part of the portable subset.
 */
export function toPostgresPlaceholders(sql: string): { text: string; count: number } {
  let out = '';
  let last = 0;
  let count = 0;
  const len = sql.length;
  let i = 0;
  while (i < len) {
    const c = sql.charCodeAt(i);
    if (c === 39 /* ' */ || c === 34 /* " */) {
      i++;
      while (i < len) {
        if (sql.charCodeAt(i) === c) {
          if (sql.charCodeAt(i + 1) === c) {
            i += 2; // doubled quote: an escaped one
            continue;
          }
          break;
        }
        i++;
      }
      i++;
    } else if (c === 45 /* - */ && sql.charCodeAt(i + 1) === 45) {
      const nl = sql.indexOf('\n', i + 2);
      i = nl < 0 ? len : nl + 1;
    } else if (c === 47 /* / */ && sql.charCodeAt(i + 1) === 42 /* * */) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? len : end + 2;
    } else if (c === 63 /* ? */) {
      const next = sql.charCodeAt(i + 1);
      if (next >= 48 && next <= 57) throw new Error(`numbered parameters (?${sql[i + 1]}...) are not portable: use plain ? placeholders`);
      out += sql.slice(last, i) + '$' + ++count;
      i++;
      last = i;
    } else {
      i++;
    }
  }
  return { text: last === 0 ? sql : out + sql.slice(last), count };
}

// --- results -----------------------------------------------------------------------------------

function toSafeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer ${text} is beyond JavaScript's safe integers (2^53); the storage layer returns integers as numbers`);
  return n;
}

function numericToNumber(text: string): number {
  // Integral results of SUM(bigint) and the like must stay exact; other numerics are floats, as SQLite's REAL.
  return /^-?\d+$/.test(text) ? toSafeNumber(text) : Number(text);
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const BOOL_OID = 16;

const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === undefined || format === 'text') {
      if (oid === INT8_OID) return toSafeNumber;
      if (oid === NUMERIC_OID) return numericToNumber;
      if (oid === BOOL_OID) return (v: string) => (v === 't' ? 1 : 0);
    }
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

// --- errors ------------------------------------------------------------------------------------

const LOST_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
const LOST_CONNECTION_MESSAGES = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Connection timeout|Client was closed/i;

function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Serialization failure or deadlock: the transaction was rolled back and may simply run again. */
export function isRetryablePostgresError(e: unknown): boolean {
  const code = sqlState(e);
  return code === '40001' || code === '40P01';
}

/** Maps connection trouble and server unavailability to StorageUnavailableError; other errors pass unchanged. */
export function mapPostgresError(e: unknown): unknown {
  if (e instanceof StorageUnavailableError) return e;
  const code = sqlState(e);
  if (code !== undefined) {
    // 08: connection exception; 57P01-57P03: admin / crash shutdown, cannot connect now.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || LOST_CONNECTION_CODES.has(code)) {
      return new StorageUnavailableError('unreachable', `PostgreSQL is unreachable: ${(e as Error).message || code}`, { cause: e });
    }
    // 53300 too many connections, 55P03 lock not available, 57014 statement timeout.
    if (code === '53300' || code === '55P03' || code === '57014') {
      return new StorageUnavailableError('busy', `PostgreSQL is busy: ${(e as Error).message}`, { cause: e });
    }
  }
  if (e instanceof AggregateError && e.errors.some((x) => mapPostgresError(x) instanceof StorageUnavailableError)) {
    return new StorageUnavailableError('unreachable', `PostgreSQL is unreachable: ${e.errors.map((x) => (x as Error).message).join('; ')}`, { cause: e });
  }
  if (e instanceof Error && code === undefined && LOST_CONNECTION_MESSAGES.test(e.message)) {
    return new StorageUnavailableError('unreachable', `PostgreSQL is unreachable: ${e.message}`, { cause: e });
  }
  return e;
}

// --- migrations --------------------------------------------------------------------------------

/** pg_advisory_xact_lock key of the migration runner (the bytes of 'Study'). */
export const MIGRATION_LOCK_KEY = 0x53_74_75_64_79;

/**
 * Applies the pending migrations of postgres-migrations.ts, one transaction each, each under the
 * transaction-level advisory lock: instances starting at once wait for each other, and each
 * migration is applied once. Returns how many this call applied. A database migrated further by
 * a newer version of the service is left as it is.
 */
export async function migratePostgres(pool: pg.Pool): Promise<number> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapPostgresError(e);
  }
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  let applied = 0;
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
        );
        const { rows } = await client.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
        for (const r of rows) {
          const known = postgresMigrations[r.version - 1];
          if (known && known.name !== r.name) {
            throw new Error(`schema_migrations version ${r.version} is "${r.name}" in the database but "${known.name}" in this service: not the same migration list`);
          }
        }
        const current = rows.length ? rows[rows.length - 1]!.version : 0;
        if (current >= postgresMigrations.length) {
          await client.query('COMMIT');
          return applied;
        }
        const m = postgresMigrations[current]!;
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [current + 1, m.name, new Date().toISOString()]);
        await client.query('COMMIT');
        applied++;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      }
    }
  } catch (e) {
    throw mapPostgresError(e);
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

// --- the engine --------------------------------------------------------------------------------

export interface PostgresEngineOptions {
  url: string;
  /** Pooled connections (default 10). */
  poolSize?: number;
  /** Runs of a transaction function before a serialization failure or deadlock is given up (default 5). */
  maxAttempts?: number;
  /** How long to wait for a connection before StorageUnavailableError (default 10 000 ms). */
  connectionTimeoutMs?: number;
  /** Apply pending migrations when opening (default true). */
  migrate?: boolean;
  /** Told about errors of idle pooled connections (the pool replaces them). */
  onIdleError?: (err: Error) => void;
}

/** Creates the pool and applies pending migrations. */
export async function openPostgresEngine(opts: PostgresEngineOptions): Promise<PostgresEngine> {
  const engine = new PostgresEngine(opts);
  if (opts.migrate !== false) {
    try {
      await migratePostgres(engine.pool);
    } catch (e) {
      await engine.close().catch(() => {});
      throw e;
    }
  }
  return engine;
}

type Querier = Pick<pg.Pool, 'query'> | pg.PoolClient;

export class PostgresEngine extends StatementRunner implements StorageEngine {
  readonly kind = 'postgres' as const;
  readonly dialect = POSTGRES_DIALECT;
  /** For migrations and tests; domain code goes through the StorageEngine face. */
  readonly pool: pg.Pool;
  private readonly maxAttempts: number;
  private readonly placeholders = new BoundedCache<string, { text: string; count: number }>(1000);
  protected readonly x: Executor;
  private closing = false;
  private closed: Promise<void> | undefined;
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(opts: PostgresEngineOptions) {
    super();
    this.pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectionTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
      types: pgTypes,
    });
    // An idle connection that dies (server restart, network) is dropped by the pool; without a
    // listener the 'error' event would end the process.
    this.pool.on('error', (err) => opts.onIdleError?.(err));
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
    this.x = this.executor(this.pool, false);
  }

  private prepare(sql: string, params: BoundValue[]): pg.QueryConfig<BoundValue[]> {
    let p = this.placeholders.get(sql);
    if (!p) {
      p = toPostgresPlaceholders(sql);
      this.placeholders.set(sql, p);
    }
    if (p.count !== params.length) {
      // The words of better-sqlite3, so both engines say the same.
      throw new RangeError(p.count < params.length ? 'Too many parameter values were provided' : 'Too few parameter values were provided');
    }
    return { text: p.text, values: params };
  }

  /**
   * Statements through the pool, or through one transaction's connection. A connection runs one
   * statement at a time: statements a transaction function sends without awaiting are queued
   * here, in order (node-postgres's own queue is deprecated).
   */
  private executor(q: Querier, oneConnection: boolean): Executor {
    const one = oneConnection ? new FifoLock() : undefined;
    const send = <R extends pg.QueryResultRow>(config: string | pg.QueryConfig<BoundValue[]>): Promise<pg.QueryResult<R>> =>
      one ? one.run(() => q.query<R>(config as pg.QueryConfig<BoundValue[]>)) : q.query<R>(config as pg.QueryConfig<BoundValue[]>);
    const query = async (sql: string, params: BoundValue[]): Promise<pg.QueryResult<Row>> => {
      const config = this.prepare(sql, params);
      try {
        return await send<Row>(config);
      } catch (e) {
        throw mapPostgresError(e);
      }
    };
    return {
      all: async (sql, params) => (await query(sql, params)).rows,
      get: async (sql, params) => (await query(sql, params)).rows[0],
      run: async (sql, params) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
      control: async (sql) => {
        try {
          await send(sql);
        } catch (e) {
          throw mapPostgresError(e);
        }
      },
    };
  }

  private refusal(): Error | undefined {
    if (this.closing) return new StorageUnavailableError('closed', 'the storage engine is closed');
    return callFromInside(this, 'the storage engine');
  }

  /** Counts the work in flight, for close(). */
  private tracked<T>(work: () => Promise<T>): Promise<T> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    this.inflight++;
    const done = () => {
      if (--this.inflight === 0) for (const w of this.idleWaiters.splice(0)) w();
    };
    let p: Promise<T>;
    try {
      p = work();
    } catch (e) {
      done();
      return Promise.reject(e);
    }
    p.then(done, done);
    return p;
  }

  /** An autocommit statement; re-run after a deadlock (it had no effect). */
  protected statement<T>(exec: () => T | Promise<T>): Promise<T> {
    return this.tracked(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await exec();
        } catch (e) {
          if (!isRetryablePostgresError(e)) throw e;
          if (attempt >= this.maxAttempts) throw this.conflicted(e);
          await backoff(attempt);
        }
      }
    });
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    return this.tracked(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.attemptTransaction(fn, !!opts.immediate);
        } catch (e) {
          if (!isRetryablePostgresError(e)) throw e;
          if (attempt >= this.maxAttempts) throw this.conflicted(e);
          await backoff(attempt);
        }
      }
    });
  }

  private conflicted(e: unknown): StorageUnavailableError {
    return new StorageUnavailableError('busy', `PostgreSQL transaction kept conflicting with concurrent ones (${this.maxAttempts} attempts): ${(e as Error).message}`, { cause: e });
  }

  private async attemptTransaction<T>(fn: (tx: Transaction) => Promise<T>, immediate: boolean): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw mapPostgresError(e);
    }
    // A checked-out client has no pool listener: a connection lost between statements must not
    // become an uncaught 'error' event. The next statement fails and maps to unavailable.
    let lost: Error | undefined;
    const onError = (err: Error) => (lost = err);
    client.on('error', onError);
    let savepoints = 0;
    const x = this.executor(client, true);
    // Statements reach the connection in call order (the executor's queue): a leftover sent
    // before ROLLBACK runs, harmlessly, inside the transaction; one sent after is refused.
    const session = { open: true };
    const tx = new Tx(guarded(x, session), this.dialect, immediate, () => `sp${++savepoints}`);
    let rollbackFailed: Error | undefined;
    try {
      await x.control(immediate ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN');
      const result = await runInFrame(this, tx, () => fn(tx));
      await tx.end();
      session.open = false;
      await x.control('COMMIT');
      runCommitHooks(tx.commitHooks);
      return result;
    } catch (e) {
      session.open = false;
      tx.abandon();
      if (!lost) {
        try {
          await x.control('ROLLBACK');
        } catch (re) {
          rollbackFailed = re as Error;
        }
      }
      // A conflict that doomed the transaction is retried even if the function turned it into another error.
      throw mapPostgresError(isRetryablePostgresError(tx.failure) ? tx.failure : tx.rootCause(e));
    } finally {
      client.removeListener('error', onError);
      client.release(lost ?? rollbackFailed);
    }
  }

  /** Refuses new work, waits for the statements and transactions under way, then ends the pool. */
  close(): Promise<void> {
    this.closing = true;
    this.closed ??= (async () => {
      if (this.inflight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      await this.pool.end();
    })();
    return this.closed;
  }
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(200, 10 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
