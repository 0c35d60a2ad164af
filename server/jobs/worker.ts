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
 *
 * Instances sharing one database each run a worker on the same queue: a claim takes a job for
 * exactly one of them (store.ts), and a job of an instance that died is taken over by another
 * once its lease has expired. Handlers must therefore tolerate running again after a crash.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Pump } from './pump.ts';
import type { Logger } from '../logger.ts';
import type { Queryable, Transaction } from '../storage/engine.ts';
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
  /**
   * The job will not run again; record the failure in the domain, with `tx`: the transaction that
   * fails the job (it may run again on PostgreSQL, so no effect outside it but `tx.afterCommit`).
   */
  onGiveUp?(job: JobRow, payload: P, reason: string, tx: Transaction): Promise<void> | void;
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
class Cancelled extends Error {}

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

  /**
   * Queues a job; pass the transaction that records its work. This worker looks at once after
   * the commit; other instances find it at their next poll.
   */
  async enqueue(job: NewJob, q: Queryable = this.store.engine): Promise<JobRow> {
    const row = await this.store.enqueue(job, this.opts.maxAttempts, q);
    q.afterCommit(() => this.kick());
    return row;
  }

  /**
   * Cancels a job that has not ended (its resource is being deleted): marked failed in `q`, the
   * caller's transaction, with no `onGiveUp` (the caller settles its resource itself). Once `q`
   * commits, a run in this process is aborted; `stopped()` of the result resolves when it has
   * ended. A run on another instance stops at its next heartbeat, which finds the lease gone.
   */
  async cancel(id: string, reason: string, q: Queryable = this.store.engine): Promise<{ wasRunning: boolean } | undefined> {
    const before = await this.store.cancel(id, reason, q);
    if (!before) return undefined;
    q.afterCommit(() => this.active.get(id)?.controller.abort(new Cancelled(reason)));
    return { wasRunning: before.state === 'running' };
  }

  /** Resolves when this process's run of job `id` (if any) has ended. */
  async stopped(id: string): Promise<void> {
    await this.active.get(id)?.done;
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

  private async fill(): Promise<void> {
    const kinds = [...this.handlers.keys()];
    while (this.pump.running && this.active.size < this.opts.concurrency) {
      const room = this.opts.concurrency - this.active.size;
      let jobs: JobRow[];
      try {
        jobs = await this.store.claim(this.owner, kinds, this.opts.leaseMs, room);
      } catch (err) {
        this.logger.error({ err }, 'job claim failed');
        return;
      }
      if (!this.pump.running) {
        // Stopped while claiming: put them back, uncounted, instead of starting them.
        await Promise.allSettled(jobs.map((j) => this.store.release(j.id, this.owner)));
        return;
      }
      for (const job of jobs) this.launch(job);
      if (jobs.length < room) return;
    }
  }

  private launch(job: JobRow): void {
    const controller = new AbortController();
    let beat: NodeJS.Timeout | undefined;
    const done = (async () => {
      const handler = this.handlers.get(job.kind)!;
      let payload: unknown;
      try {
        payload = JSON.parse(job.payload);
      } catch {
        await this.giveUp(job, handler, undefined, 'the job payload is not valid JSON');
        return;
      }
      if (job.attempts > job.max_attempts) {
        await this.giveUp(job, handler, payload, `the job was interrupted ${job.max_attempts} times (the process stopped while running it)`);
        return;
      }
      let beating = false;
      beat = setInterval(() => {
        if (beating) return;
        beating = true;
        this.store
          .heartbeat(job.id, this.owner, this.opts.leaseMs)
          .then(
            (held) => {
              if (!held) controller.abort(new LeaseLost('lease lost'));
            },
            (err) => this.logger.warn({ err, job_id: job.id }, 'job heartbeat failed'),
          )
          .finally(() => (beating = false));
      }, Math.max(50, Math.floor(this.opts.leaseMs / 3)));
      beat.unref();
      try {
        await handler.run({ job, payload, attempt: job.attempts, signal: controller.signal });
        await this.store.finish(job.id, this.owner, 'done');
      } catch (err) {
        const reason = controller.signal.reason;
        if (controller.signal.aborted && reason instanceof Shutdown) {
          await this.store.release(job.id, this.owner);
        } else if (controller.signal.aborted && reason instanceof Cancelled) {
          this.logger.info({ job_id: job.id, kind: job.kind }, 'job cancelled');
        } else if (controller.signal.aborted && reason instanceof LeaseLost) {
          this.logger.warn({ job_id: job.id, kind: job.kind }, 'job lease lost; another worker owns it now');
        } else if (err instanceof RetryLater && job.attempts < job.max_attempts) {
          await this.store.retryAt(job.id, this.owner, Date.now() + err.delayMs, err.message);
        } else {
          this.logger.error({ err, job_id: job.id, kind: job.kind }, 'job failed');
          await this.giveUp(job, handler, payload, err instanceof Error ? err.message : String(err));
        }
      }
    })()
      .catch((err) => {
        // The store could not record the outcome: the lease runs out and the job runs again.
        this.logger.error({ err, job_id: job.id, kind: job.kind }, 'recording the outcome of a job failed');
      })
      .finally(() => {
        clearInterval(beat);
        this.active.delete(job.id);
        this.kick();
      });
    this.active.set(job.id, { controller, done });
  }

  private async giveUp(job: JobRow, handler: JobHandler<any>, payload: unknown, reason: string): Promise<void> {
    try {
      await this.store.engine.transaction(async (tx) => {
        if (await this.store.finish(job.id, this.owner, 'failed', reason, tx)) await handler.onGiveUp?.(job, payload, reason, tx);
      });
    } catch (err) {
      this.logger.error({ err, job_id: job.id }, 'recording a failed job failed');
    }
  }

  /** Stops claiming, aborts running jobs and waits until each has stopped and been put back. */
  async stop(): Promise<void> {
    await this.pump.stop(new Shutdown('shutting down'));
  }
}
