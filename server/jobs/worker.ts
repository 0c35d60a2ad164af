/**
 * The in-process job worker: runs queued jobs of the kinds registered with it, at most
 * `concurrency` at once, each under a lease it renews on a timer. Handlers are async and yield
 * to the event loop between steps, so the API stays responsive while jobs run.
 *
 * Outcomes: a handler that returns marks the job done; one that throws `RetryLater` is queued
 * again after its delay (while attempts remain); any other error, or a job claimed more often than
 * `max_attempts` (it crashed the process each time), gives the job up and calls the handler's
 * `onGiveUp` so its domain can record the failure. On shutdown running jobs are aborted (their
 * signal fires) and put back in the queue without counting the attempt.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Pump } from './pump.ts';
import type { Logger } from '../logger.ts';
import { JobStore, type JobRow, type NewJob } from './store.ts';

export interface JobContext<P> {
  job: JobRow;
  payload: P;
  /** 1 on the first run; higher after a retry or a crash. */
  attempt: number;
  /** Fires on shutdown or when the lease was lost; stop at the next step and rethrow. */
  signal: AbortSignal;
}

export interface JobHandler<P = unknown> {
  run(ctx: JobContext<P>): Promise<void>;
  /** The job will not run again; record the failure in the domain. Runs in the transaction that fails the job. */
  onGiveUp?(job: JobRow, payload: P, reason: string): void;
}

/** Thrown by a handler for a transient failure: run again after `delayMs`. */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  maxAttempts: number;
}

class Shutdown extends Error {}
class LeaseLost extends Error {}

export class JobWorker {
  readonly store: JobStore;
  /** Identifies this process's leases. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler<any>>();
  // Polling finds work whose retry time came or whose lease expired (a crashed process).
  private readonly pump: Pump;
  private readonly active: Pump['active'];

  constructor(
    store: JobStore,
    private readonly opts: WorkerOptions,
    private readonly logger: Logger,
  ) {
    this.store = store;
    this.pump = new Pump(() => this.fill(), opts.pollMs);
    this.active = this.pump.active;
  }

  register<P>(kind: string, handler: JobHandler<P>): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is already registered`);
    this.handlers.set(kind, handler);
  }

  /** Queues a job. Call inside the transaction that records its work; the worker looks at once. */
  enqueue(job: NewJob): JobRow {
    const row = this.store.enqueue(job, this.opts.maxAttempts);
    this.kick();
    return row;
  }

  /** Jobs running in this process now. */
  get running(): number {
    return this.active.size;
  }

  start(): void {
    this.pump.start();
  }

  kick(): void {
    this.pump.kick();
  }

  private fill(): void {
    const kinds = [...this.handlers.keys()];
    while (this.active.size < this.opts.concurrency) {
      let job: JobRow | undefined;
      try {
        job = this.store.claim(this.owner, kinds, this.opts.leaseMs);
      } catch (err) {
        this.logger.error({ err }, 'job claim failed');
        return;
      }
      if (!job) return;
      this.launch(job);
    }
  }

  private launch(job: JobRow): void {
    const handler = this.handlers.get(job.kind)!;
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch {
      this.giveUp(job, handler, undefined, 'the job payload is not valid JSON');
      return;
    }
    if (job.attempts > job.max_attempts) {
      this.giveUp(job, handler, payload, `the job was interrupted ${job.max_attempts} times (the process stopped while running it)`);
      return;
    }
    const controller = new AbortController();
    const beat = setInterval(() => {
      try {
        if (!this.store.heartbeat(job.id, this.owner, this.opts.leaseMs)) controller.abort(new LeaseLost('lease lost'));
      } catch (err) {
        this.logger.warn({ err, job_id: job.id }, 'job heartbeat failed');
      }
    }, Math.max(50, Math.floor(this.opts.leaseMs / 3)));
    beat.unref();
    const done = (async () => {
      try {
        await handler.run({ job, payload, attempt: job.attempts, signal: controller.signal });
        this.store.finish(job.id, this.owner, 'done');
      } catch (err) {
        const reason = controller.signal.reason;
        if (controller.signal.aborted && reason instanceof Shutdown) {
          this.store.release(job.id, this.owner);
        } else if (controller.signal.aborted && reason instanceof LeaseLost) {
          this.logger.warn({ job_id: job.id, kind: job.kind }, 'job lease lost; another worker owns it now');
        } else if (err instanceof RetryLater && job.attempts < job.max_attempts) {
          this.store.retryAt(job.id, this.owner, Date.now() + err.delayMs, err.message);
        } else {
          this.logger.error({ err, job_id: job.id, kind: job.kind }, 'job failed');
          this.giveUp(job, handler, payload, err instanceof Error ? err.message : String(err));
        }
      } finally {
        clearInterval(beat);
        this.active.delete(job.id);
        this.kick();
      }
    })();
    this.active.set(job.id, { controller, done });
  }

  private giveUp(job: JobRow, handler: JobHandler<any>, payload: unknown, reason: string): void {
    try {
      this.store.db.transaction(() => {
        if (this.store.finish(job.id, this.owner, 'failed', reason)) handler.onGiveUp?.(job, payload, reason);
      })();
    } catch (err) {
      this.logger.error({ err, job_id: job.id }, 'recording a failed job failed');
    }
  }

  /** Stops claiming, aborts running jobs and waits until each has stopped and been put back. */
  async stop(): Promise<void> {
    await this.pump.stop(new Shutdown('shutting down'));
  }
}
