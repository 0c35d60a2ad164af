/**
 * A small pool of worker threads for CPU-heavy work that must not hold the event loop (markdown
 * conversion, flashcard extraction, grading long answers). Each task runs under a time limit that
 * starts when a worker takes it (waiting in the queue does not count); a worker past its limit is
 * terminated and the task rejects with WorkerTimeoutError. Workers start on demand and are unref'd
 * while idle, so they never hold a shutdown.
 *
 * Organizations take turns: queued tasks wait in one queue per tenant (the organization the work
 * is for), served round-robin, so one tenant's backlog delays another tenant's task by at most
 * the task a worker is running now (one task's time limit), however many it queued.
 *
 * The pool knows no task: a domain declares each operation it sends (workerOperation: a name, the
 * types of its input and result, the error class it refuses with), and the worker entry
 * (server/worker.ts) maps each declaration to the function that runs it (WorkerTasks).
 */
import type { TransferListItem } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';

/**
 * An error a task throws on purpose (a limit, unusable input). Recognised in the worker by its
 * class, crossing the thread as a flagged reply, and thrown again on this side as the same class.
 */
export type RefusalClass = new (message: string) => Error;

/** An operation of the worker entry, typed by what it takes (I) and answers (O). */
export interface WorkerOperation<I, O> {
  readonly name: string;
  readonly refusal?: RefusalClass;
  /** Carries the types only; never set. */
  readonly types?: (input: I) => O;
}

export function workerOperation<I, O>(name: string, refusal?: RefusalClass): WorkerOperation<I, O> {
  return { name, ...(refusal ? { refusal } : {}) };
}

/** What a task answers: its result, and buffers of it that may move to the main thread instead of being copied. */
export interface TaskResult<O> {
  result: O;
  transfer?: readonly TransferListItem[];
}

/** A worker's message back: a result, a refusal (a RefusalClass's message) or a failure. */
export type WorkerReply = { result: unknown } | { refusal: string } | { error: string };

export interface PoolLimits {
  /** Time limit of a task: base plus a share per KiB of its input. */
  baseMs: number;
  perKibMs: number;
  /** Worker threads at most. */
  workers: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { baseMs: 2000, perKibMs: 25, workers: 2 };

/** A task ran past its time limit and its worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`the work did not finish within its time limit of ${(limitMs / 1000).toFixed(1)} s`);
  }
}

interface Task {
  tenant: string;
  op: WorkerOperation<unknown, unknown>;
  input: unknown;
  timeoutMs: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  /**
   * Queued tasks per tenant; the map's order is the order of turns: a tenant served goes to the
   * back (deleted and set again) while it has tasks left.
   */
  private readonly queues = new Map<string, Task[]>();
  private queuedCount = 0;

  constructor(
    /** The worker thread's entry (server/worker.mjs from source, dist/server/worker.mjs built): given by the composition, which knows where it stands. */
    private readonly entry: URL,
    readonly limits: PoolLimits = DEFAULT_POOL_LIMITS,
  ) {}

  /** The time limit for an input of `chars` characters. */
  timeLimitMs(chars: number): number {
    return Math.round(this.limits.baseMs + (this.limits.perKibMs * chars) / 1024);
  }

  /** Tasks waiting for a worker, all tenants together. */
  get queued(): number {
    return this.queuedCount;
  }

  /**
   * Runs `op` in a worker; `timeoutMs` 0 means no limit. Rejects with the operation's refusal class
   * when the task refuses. `tenant` (an organization id) is whose turn the task waits for.
   */
  run<I, O>(op: WorkerOperation<I, O>, input: I, timeoutMs: number, tenant = ''): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const task: Task = { tenant, op: op as WorkerOperation<unknown, unknown>, input, timeoutMs, resolve: resolve as (v: unknown) => void, reject };
      const queue = this.queues.get(tenant);
      if (queue) queue.push(task);
      else this.queues.set(tenant, [task]);
      this.queuedCount++;
      this.dispatch();
    });
  }

  /**
   * Runs `op` in a worker thread of its own (default heap limits, not counted in the pool's
   * workers), terminated as soon as it answers, so that all of its heap goes back to the system
   * at once instead of staying with a pooled worker: for rare tasks that allocate a lot (a cold
   * load's merge of snapshot and log, server/journals/sliced-load.ts). `entry`: a leaner worker
   * entry than the pool's when the task needs few modules.
   */
  runAlone<I, O>(op: WorkerOperation<I, O>, input: I, timeoutMs: number, entry = this.entry): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const worker = new Worker(entry);
      this.alone.add(worker);
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.alone.delete(worker);
        void worker.terminate();
        fn();
      };
      const timer = timeoutMs > 0 ? setTimeout(() => settle(() => reject(new WorkerTimeoutError(timeoutMs))), timeoutMs) : undefined;
      worker.on('message', (msg: WorkerReply | 'ready') => {
        if (msg === 'ready') {
          worker.postMessage({ op: op.name, input });
          return;
        }
        if ('result' in msg) settle(() => resolve(msg.result as O));
        else if ('refusal' in msg) settle(() => reject(new (op.refusal ?? Error)(msg.refusal)));
        else settle(() => reject(new Error(msg.error)));
      });
      worker.on('error', (err) => settle(() => reject(err)));
      worker.on('exit', (code) => settle(() => reject(new Error(`worker exited with code ${code}`))));
    });
  }

  private readonly alone = new Set<Worker>();

  /** Terminates every worker (shutdown); queued tasks fail. */
  async close(): Promise<void> {
    const err = new Error('worker pool stopped: the server is shutting down');
    this.failQueued(err);
    await Promise.all([...this.slots].map((s) => this.retire(s, err)));
    await Promise.all([...this.alone].map((w) => w.terminate()));
  }

  private failQueued(err: Error): void {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.queuedCount = 0;
    for (const t of all) t.reject(err);
  }

  /** The next task: the oldest of the tenant whose turn it is; that tenant then goes to the back. */
  private take(): Task | undefined {
    const first = this.queues.entries().next();
    if (first.done) return undefined;
    const [tenant, queue] = first.value;
    const task = queue.shift()!;
    this.queues.delete(tenant);
    if (queue.length > 0) this.queues.set(tenant, queue);
    this.queuedCount--;
    return task;
  }

  private dispatch(): void {
    while (this.queuedCount > 0) {
      const slot = [...this.slots].find((s) => s.ready && !s.task);
      if (!slot) {
        if (this.slots.size < this.limits.workers && ![...this.slots].some((s) => !s.ready)) this.spawn();
        return;
      }
      const task = this.take()!;
      slot.task = task;
      slot.worker.ref();
      if (task.timeoutMs > 0) {
        slot.timer = setTimeout(() => void this.retire(slot, new WorkerTimeoutError(task.timeoutMs)), task.timeoutMs);
      }
      slot.worker.postMessage({ op: task.op.name, input: task.input });
    }
  }

  private spawn(): void {
    // A larger young generation: conversions allocate many short-lived objects, and with the
    // default size the scavenger took about a third of an import's time.
    const worker = new Worker(this.entry, { resourceLimits: { maxYoungGenerationSizeMb: 96 } });
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (msg: WorkerReply | 'ready') => {
      if (msg === 'ready') {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const task = this.finish(slot);
      if (!task) return;
      if ('result' in msg) task.resolve(msg.result);
      else if ('refusal' in msg) task.reject(new (task.op.refusal ?? Error)(msg.refusal));
      else task.reject(new Error(msg.error));
      this.dispatch();
    });
    const failed = (err: Error) => {
      // A dead worker fails what it held; the next task starts a new one.
      this.slots.delete(slot);
      this.finish(slot)?.reject(err);
      // One that never started would fail again: fail what waits instead of respawning forever.
      if (!slot.ready) this.failQueued(err);
      this.dispatch();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`worker exited with code ${code}`)));
  }

  /** Detaches the slot's task (and its timer); the worker is idle again. */
  private finish(slot: Slot): Task | undefined {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    return task;
  }

  private async retire(slot: Slot, err: Error): Promise<void> {
    this.slots.delete(slot);
    this.finish(slot)?.reject(err);
    await slot.worker.terminate();
    this.dispatch();
  }
}

/**
 * The worker entry's table: each declared operation with the function that runs it (type-checked
 * against the declaration), and what a message of the pool gets back.
 */
export class WorkerTasks {
  private readonly tasks = new Map<string, { op: WorkerOperation<unknown, unknown>; run: (input: unknown) => TaskResult<unknown> | Promise<TaskResult<unknown>> }>();

  add<I, O>(op: WorkerOperation<I, O>, run: (input: I) => TaskResult<O> | Promise<TaskResult<O>>): this {
    this.tasks.set(op.name, { op: op as WorkerOperation<unknown, unknown>, run: run as (input: unknown) => TaskResult<unknown> });
    return this;
  }

  /** Runs the task `name` names; a throw of its refusal class is a refusal, any other a failure. */
  async run(name: string, input: unknown): Promise<{ reply: WorkerReply; transfer?: readonly TransferListItem[] }> {
    const task = this.tasks.get(name);
    try {
      if (!task) throw new Error(`unknown worker operation ${name}`);
      const { result, transfer } = await task.run(input);
      return { reply: { result }, transfer };
    } catch (err) {
      if (task?.op.refusal && err instanceof task.op.refusal) return { reply: { refusal: err.message } };
      return { reply: { error: err instanceof Error ? err.message : String(err) } };
    }
  }
}
