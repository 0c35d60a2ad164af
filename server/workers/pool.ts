/**
 * A small pool of worker threads for CPU-heavy work that must not hold the event loop (markdown
 * conversion, flashcard extraction, grading long answers). Each task runs under a time limit that
 * starts when a worker takes it (waiting in the queue does not count); a worker past its limit is
 * terminated and the task rejects with WorkerTimeoutError. Workers start on demand and are unref'd while idle, so
 * they never hold a shutdown. Tasks are named by the operations the worker entry (server/worker.ts) knows.
 */
import { Worker } from 'node:worker_threads';

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

/** The task's own refusal (e.g. MarkdownLimitError in the worker): `kind` names the error class. */
export class WorkerRefusal extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

interface Task {
  op: string;
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
type Reply = { result?: unknown; refusal?: { kind: string; message: string }; error?: string };

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];

  constructor(
    /** The worker thread's entry (server/worker.mjs from source, dist/server/worker.mjs built): given by the composition, which knows where it stands. */
    private readonly entry: URL,
    readonly limits: PoolLimits = DEFAULT_POOL_LIMITS,
  ) {}

  /** The time limit for an input of `chars` characters. */
  timeLimitMs(chars: number): number {
    return Math.round(this.limits.baseMs + (this.limits.perKibMs * chars) / 1024);
  }

  /** Runs `op` in a worker; `timeoutMs` 0 means no limit. */
  run<T>(op: string, input: unknown, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, input, timeoutMs, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Terminates every worker (shutdown); queued tasks fail. */
  async close(): Promise<void> {
    const err = new Error('worker pool stopped: the server is shutting down');
    for (const t of this.queue.splice(0)) t.reject(err);
    await Promise.all([...this.slots].map((s) => this.retire(s, err)));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => s.ready && !s.task);
      if (!slot) {
        if (this.slots.size < this.limits.workers && ![...this.slots].some((s) => !s.ready)) this.spawn();
        return;
      }
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      if (task.timeoutMs > 0) {
        slot.timer = setTimeout(() => void this.retire(slot, new WorkerTimeoutError(task.timeoutMs)), task.timeoutMs);
      }
      slot.worker.postMessage({ op: task.op, input: task.input });
    }
  }

  private spawn(): void {
    // A larger young generation: conversions allocate many short-lived objects, and with the
    // default size the scavenger took about a third of an import's time.
    const worker = new Worker(this.entry, { resourceLimits: { maxYoungGenerationSizeMb: 96 } });
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (msg: Reply | 'ready') => {
      if (msg === 'ready') {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const task = this.finish(slot);
      if (!task) return;
      if (msg.refusal) task.reject(new WorkerRefusal(msg.refusal.kind, msg.refusal.message));
      else if (msg.error !== undefined) task.reject(new Error(msg.error));
      else task.resolve(msg.result);
      this.dispatch();
    });
    const failed = (err: Error) => {
      // A dead worker fails what it held; the next task starts a new one.
      this.slots.delete(slot);
      this.finish(slot)?.reject(err);
      // One that never started would fail again: fail what waits instead of respawning forever.
      if (!slot.ready) for (const t of this.queue.splice(0)) t.reject(err);
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
