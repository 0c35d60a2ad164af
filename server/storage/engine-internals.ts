/**
 * What both engines share: parameter normalization, a FIFO lock, the detection of calls that would
 * deadlock (the engine or an outer transaction called from inside a transaction function), and the
 * transaction object itself (statements, nested transactions as savepoints, the rule that a failed
 * statement aborts the transaction). Not for domain code: it imports `engine.ts` only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  TransactionMisuseError,
  type Dialect,
  type Row,
  type RunResult,
  type SqlValue,
  type Transaction,
  type TransactionOptions,
} from './engine.ts';

/** Parameters as both drivers receive them. */
export type BoundValue = string | number | bigint | Buffer | null;

const NO_PARAMS: BoundValue[] = [];

/**
 * The same conversions and refusals on both engines: booleans become 1 / 0, undefined NULL,
 * Uint8Array a Buffer (BLOB / bytea); Dates, objects, non-finite numbers and strings holding NUL
 * (which PostgreSQL text cannot store) are refused with a TypeError.
 */
export function normalizeParams(params: readonly SqlValue[] | undefined): BoundValue[] {
  if (!params || params.length === 0) return NO_PARAMS;
  const out = new Array<BoundValue>(params.length);
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    switch (typeof v) {
      case 'string':
        if (v.includes('\0')) throw new TypeError(`SQL parameter ${i + 1}: text cannot contain NUL characters (PostgreSQL refuses them)`);
        out[i] = v;
        break;
      case 'number':
        if (!Number.isFinite(v)) throw new TypeError(`SQL parameter ${i + 1}: ${v} is not a finite number`);
        out[i] = v;
        break;
      case 'bigint':
        out[i] = v;
        break;
      case 'boolean':
        out[i] = v ? 1 : 0;
        break;
      case 'undefined':
        out[i] = null;
        break;
      case 'object':
        if (v === null) out[i] = null;
        else if (v instanceof Uint8Array) out[i] = Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
        else throw new TypeError(`SQL parameter ${i + 1}: only strings, numbers, bigints, booleans, Uint8Array/Buffer and null can be bound, not ${Object.prototype.toString.call(v)}`);
        break;
      default:
        throw new TypeError(`SQL parameter ${i + 1}: cannot bind a ${typeof v}`);
    }
  }
  return out;
}

/** A promise of `fn()`'s value (or of its promise), its throw becoming a rejection. */
export function attempt<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Mutual exclusion in arrival order. While it is idle nobody waits (a release hands it over). */
export class FifoLock {
  private held = false;
  private waiters: (() => void)[] = [];
  private head = 0;

  get idle(): boolean {
    return !this.held;
  }

  /** Takes the lock if nobody holds it; false otherwise (nothing is queued). */
  tryAcquire(): boolean {
    if (this.held) return false;
    this.held = true;
    return true;
  }

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    if (this.head < this.waiters.length) {
      const next = this.waiters[this.head]!;
      this.waiters[this.head++] = undefined as never;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters = this.waiters.slice(this.head);
        this.head = 0;
      }
      next(); // still held: handed over
    } else {
      this.waiters.length = 0;
      this.head = 0;
      this.held = false;
    }
  }

  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }
}

/** A map that forgets its oldest entry past `max` (statements, rewritten SQL). */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, value);
  }
}

// --- calls from inside a transaction function ---------------------------------------------------

interface Frame {
  /** The engine or transaction that opened the transaction and must not be called from inside it. */
  owner: object;
  tx: { readonly ended: boolean };
  parent: Frame | undefined;
}

const frames = new AsyncLocalStorage<Frame>();
/** Transaction functions running now (all engines of the process). */
let running = 0;

/**
 * Runs a transaction function so that calls to `owner` made from inside it can be recognized.
 * The storage is enabled only while a transaction function runs: an enabled AsyncLocalStorage
 * (Node 20) installs promise and async hooks that every promise and tick in the process pays for,
 * editors' updates included (7% of the CPU of an editor update, issue 33), and the hooks go off
 * again only when it is disabled. What a transaction function leaves running once it has settled
 * is not refused anyway (callFromInside), so it needs no frame.
 */
export async function runInFrame<T>(owner: object, tx: { readonly ended: boolean }, fn: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await frames.run({ owner, tx, parent: frames.getStore() }, fn);
  } finally {
    if (--running === 0) frames.disable();
  }
}

/**
 * The error to reject a call to `scope` with when it is made from inside a transaction function
 * that `scope` is running (on SQLite it would wait for that very transaction: a deadlock; on
 * PostgreSQL it would run on another connection, outside the transaction, and could wait for its
 * locks), or undefined. Work that outlives its transaction (a timer set inside) is not refused.
 */
export function callFromInside(scope: object, what: string): TransactionMisuseError | undefined {
  for (let f = frames.getStore(); f; f = f.parent) {
    if (f.owner === scope && !f.tx.ended) {
      return new TransactionMisuseError(
        `${what} was called from inside one of its own transaction functions: use the transaction object passed to that function (tx.all / tx.get / tx.run / tx.transaction)`,
      );
    }
  }
  return undefined;
}

// --- the transaction object --------------------------------------------------------------------

/** How a transaction reaches its connection; SQLite answers synchronously, PostgreSQL with promises. */
export interface Executor {
  all(sql: string, params: BoundValue[]): Row[] | Promise<Row[]>;
  get(sql: string, params: BoundValue[]): Row | undefined | Promise<Row | undefined>;
  run(sql: string, params: BoundValue[]): RunResult | Promise<RunResult>;
  /** BEGIN, SAVEPOINT and the like; errors already mapped. */
  control(sql: string): void | Promise<void>;
}

/** Whether the outermost transaction is still open; shared by it and its nested transactions. */
export interface Session {
  open: boolean;
}

/**
 * The executor a transaction's statements go through: once the outermost transaction has ended
 * (committed, rolled back, its connection released), whatever is left running (a nested
 * transaction the function did not await) is refused instead of running outside any transaction.
 */
export function guarded(x: Executor, session: Session): Executor {
  const check = () => {
    if (!session.open) throw new TransactionMisuseError('a statement after its transaction had ended: a transaction object is valid only until its function settles');
  };
  return {
    all(sql, params) {
      check();
      return x.all(sql, params);
    },
    get(sql, params) {
      check();
      return x.get(sql, params);
    },
    run(sql, params) {
      check();
      return x.run(sql, params);
    },
    control(sql) {
      check();
      return x.control(sql);
    },
  };
}

/** A statement refused because an earlier statement of the same transaction failed. */
export class AbortedTransactionError extends TransactionMisuseError {
  constructor(readonly failure: unknown) {
    super(
      `statement refused: an earlier statement of this transaction failed (${failure instanceof Error ? failure.message : String(failure)}), so the transaction will be rolled back; to go on after an expected failure, run the statement in a nested tx.transaction()`,
      { cause: failure },
    );
  }
}

/**
 * all / get / run, the same on every engine and transaction: parameters normalized, then run
 * through the class's own `statement` (its locking, retries and refusals) on its executor.
 */
export abstract class StatementRunner {
  protected abstract readonly x: Executor;
  protected abstract statement<T>(exec: () => T | Promise<T>): Promise<T>;

  all<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.statement(() => this.x.all(sql, normalizeParams(params))) as Promise<T[]>;
  }

  get<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.statement(() => this.x.get(sql, normalizeParams(params))) as Promise<T | undefined>;
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.statement(() => this.x.run(sql, normalizeParams(params)));
  }

  /** Outside a transaction there is nothing to wait for. */
  afterCommit(fn: () => void): void {
    runCommitHooks([fn]);
  }
}

/** Runs every callback; one that throws becomes a process warning and does not stop the rest. */
export function runCommitHooks(hooks: readonly (() => void)[]): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch (e) {
      process.emitWarning(`an afterCommit callback threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, 'StorageWarning');
    }
  }
}

/**
 * One transaction (or one savepoint inside it). Statements run at once while no nested
 * transaction is open on it, and wait their turn otherwise. The first failing statement aborts it
 * (as PostgreSQL does, and SQLite is made to): later statements are refused, and it rolls back
 * with that error even if the function caught it. Nested transactions are savepoints.
 */
export class Tx extends StatementRunner implements Transaction {
  private readonly lock = new FifoLock();
  private readonly pending = new Set<Promise<unknown>>();
  private done = false;
  /** afterCommit callbacks, run by the engine after the outermost COMMIT (nested ones pass theirs up on release). */
  readonly commitHooks: (() => void)[] = [];
  /** The first failed statement's error. */
  failure: unknown = undefined;

  constructor(
    protected readonly x: Executor,
    readonly dialect: Dialect,
    readonly immediate: boolean,
    private readonly savepointName: () => string,
  ) {
    super();
  }

  get ended(): boolean {
    return this.done;
  }

  override afterCommit(fn: () => void): void {
    if (this.done) throw new TransactionMisuseError('afterCommit after its transaction function had settled');
    this.commitHooks.push(fn);
  }

  private refusal(what: string): Error | undefined {
    if (this.done) return new TransactionMisuseError(`${what} after its transaction function had settled: a transaction object is valid only until then`);
    if (this.failure !== undefined) return new AbortedTransactionError(this.failure);
    return callFromInside(this, what);
  }

  protected statement<T>(exec: () => T | Promise<T>): Promise<T> {
    const refused = this.refusal('a statement on a transaction');
    if (refused) return Promise.reject(refused);
    const p = this.lock.idle ? attempt(exec) : this.lock.run(() => this.refusalOr(exec));
    return this.track(p);
  }

  private refusalOr<T>(exec: () => T | Promise<T>): T | Promise<T> {
    // Waited behind a nested transaction: this one may have failed or ended meanwhile.
    if (this.failure !== undefined) throw new AbortedTransactionError(this.failure);
    return exec();
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    return p.then(
      (v) => {
        this.pending.delete(p);
        return v;
      },
      (e) => {
        this.pending.delete(p);
        if (this.failure === undefined && !(e instanceof AbortedTransactionError)) this.failure = e;
        throw e;
      },
    );
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    const refused = this.refusal('a nested transaction');
    if (refused) return Promise.reject(refused);
    if (opts?.immediate && !this.immediate) {
      return Promise.reject(new TransactionMisuseError('only the outermost transaction can be immediate: open the outer transaction with { immediate: true }'));
    }
    return this.lock.run(async () => {
      if (this.failure !== undefined) throw new AbortedTransactionError(this.failure);
      const name = this.savepointName();
      await this.x.control(`SAVEPOINT ${name}`);
      const child = new Tx(this.x, this.dialect, this.immediate, this.savepointName);
      try {
        const result = await runInFrame(this, child, () => fn(child));
        await child.end();
        await this.x.control(`RELEASE SAVEPOINT ${name}`);
        this.commitHooks.push(...child.commitHooks);
        return result;
      } catch (e) {
        child.abandon();
        try {
          await this.x.control(`ROLLBACK TO SAVEPOINT ${name}`);
          await this.x.control(`RELEASE SAVEPOINT ${name}`);
        } catch {
          // The whole transaction is gone (a lost connection, SQLite's automatic rollback): the
          // error below says why, and the outer transaction fails on its next statement or commit.
        }
        throw child.rootCause(e);
      }
    });
  }

  /** After the function resolved: waits for its statements and nested transactions, then ends; throws the failure if any. */
  async end(): Promise<void> {
    while (this.pending.size > 0 || !this.lock.idle) {
      await Promise.allSettled([...this.pending]);
      await this.lock.run(() => {});
    }
    this.done = true;
    if (this.failure !== undefined) throw this.failure;
  }

  /** After the function rejected. */
  abandon(): void {
    this.done = true;
  }

  /** What to report when the function rejected with `e`: the failed statement's error, not the refusal it caused. */
  rootCause(e: unknown): unknown {
    return e instanceof AbortedTransactionError && this.failure !== undefined ? this.failure : e;
  }
}
