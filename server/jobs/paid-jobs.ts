/**
 * The lifecycle of what a key creates and pays for, shared by the features:
 * - OwnedResources (flashcard decks, and the two below): found by id for its key (404 for
 *   unknown and foreign ids alike), listed newest first, deleted in a transaction that pays for
 *   the deletion first;
 * - PaidJobs (practice sets, videos), made by a durable job: created with their credit
 *   reservation, row and job in one transaction; finished (the reservation settled or refunded,
 *   the row marked, the webhook event queued) atomically and once; a pending one's status read
 *   against its job; deleted with the job cancelled and what was not delivered refunded.
 * What differs stays in each domain: the rows' own columns, the work, the answers.
 *
 * Credits and webhooks sit above this layer: they are reached through the two small interfaces
 * below, which billing's CreditLedger and webhooks' WebhookOutbox implement.
 */
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { Queryable } from '../storage/engine.ts';
import type { JobResourceRow, JobResourceStore, OwnedRow, OwnedRowStore } from './resource-store.ts';
import type { JobRow } from './store.ts';
import type { JobContext, JobWorker } from './worker.ts';

/** Credit reservations (server/billing/credits.ts). */
export interface CreditHolds {
  reserve(orgId: string, micros: number, purpose: string, q: Queryable): Promise<{ id: string }>;
  reservation(id: string, q: Queryable): Promise<{ id: string; status: string; amount_micros: number } | undefined>;
  settle(id: string, costMicros: number, q: Queryable): Promise<{ cost_micros: number }>;
  refund(id: string, q: Queryable): Promise<unknown>;
}

/** Webhook events queued with the transaction of what they tell (server/webhooks/outbox.ts). */
export interface EventOutbox {
  enqueue(event: { orgId: string; url: string; type: string; data: Record<string, unknown> }, q: Queryable): Promise<unknown>;
}

/** Who asks: the key that owns what it creates, and its organization, which pays. */
export interface Owner {
  keyId: string;
  orgId: string;
}

/** Pays for a request inside the transaction of its effect (402 when the balance is short). */
export type Charge = (q: Queryable) => unknown;

/** A 404 of the contract (`{what} not found`), made by the domain's HTTP layer. */
export type NotFound = (what: string) => Error;

export class OwnedResources<Row extends OwnedRow> {
  constructor(
    readonly store: OwnedRowStore<Row>,
    /** What a 404 names: `Flashcard deck`, `Practice set`, `Video`. */
    readonly what: string,
    protected readonly notFound: NotFound,
  ) {}

  /** The row if this key created it; 404 otherwise. */
  async find(owner: Owner, id: string): Promise<Row> {
    const row = await this.store.findOwned(id, owner.keyId);
    if (!row) throw this.notFound(this.what);
    return row;
  }

  /** The key's rows, newest first, from before `pageToken` (the previous page's next_page_token), as items. */
  async list<T>(owner: Owner, pageToken: number | undefined, pageSize: number, item: (row: Row) => T): Promise<{ items: T[]; next?: number }> {
    const page = await this.store.page(owner.keyId, pageToken, pageSize);
    return { items: page.rows.map(item), next: page.next };
  }

  /**
   * Deletes a row of this key (404 otherwise) in one transaction that pays for the deletion
   * first (`charge`; 402 deletes nothing), after `before` (what hangs off the row) ran in it.
   */
  protected deleteOwned<T>(owner: Owner, id: string, charge: Charge | undefined, before: (row: Row, tx: Queryable) => Promise<T>): Promise<{ row: Row; out: T }> {
    return this.store.engine.transaction(async (tx) => {
      // Locked: a second deletion (or a job finishing it) waits, then finds it gone.
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.key_id !== owner.keyId) throw this.notFound(this.what);
      await charge?.(tx);
      const out = await before(row, tx);
      if (!(await this.store.delete(id, tx))) throw this.notFound(this.what);
      return { row, out };
    });
  }

  async delete(owner: Owner, id: string, charge?: Charge): Promise<Row> {
    return (await this.deleteOwned(owner, id, charge, async () => undefined)).row;
  }
}

/** Something stored for a resource cannot be read: its status is reported as `status_error`. */
export class UnreadableError extends Error {}

export interface PaidJobOptions<Row extends JobResourceRow> {
  store: JobResourceStore<Row>;
  what: string;
  notFound: NotFound;
  jobs: JobWorker;
  credits: CreditHolds;
  outbox: EventOutbox;
  logger: Logger;
  /** The job kind (`practice_set`), and the payload field and webhook data field of the id (`set_id`). */
  kind: string;
  idField: string;
  /** The purpose of its credit reservations, as its create endpoint declares it (`practice_set`). */
  reservation: string;
  /** The webhook events' prefix (`practice_set` for `practice_set.completed`). */
  event: string;
  /** The resource and its job in words, for status messages: `set` and `generation job`. */
  noun: string;
  jobName: string;
}

/** How a deletion went: whether a running job was stopped, what the resource cost, what went back. */
export interface Deletion<Row> {
  row: Row;
  cancelled: boolean;
  costMicros: number;
  refundedMicros: number;
}

export class PaidJobs<Row extends JobResourceRow> extends OwnedResources<Row> {
  declare readonly store: JobResourceStore<Row>;

  constructor(private readonly o: PaidJobOptions<Row>) {
    super(o.store, o.what, o.notFound);
  }

  /** Runs the domain's work for each job of this kind; `giveUp` records a job that will not run again. */
  register(run: (ctx: JobContext<Record<string, string>>, id: string) => Promise<void>, giveUp: (id: string, reason: string, tx: Queryable) => Promise<void>): void {
    this.o.jobs.register<Record<string, string>>(this.o.kind, {
      run: (ctx) => run(ctx, ctx.payload[this.o.idField]!),
      onGiveUp: async (_job, payload, reason, tx) => {
        const id = payload?.[this.o.idField];
        if (id) await giveUp(id, reason, tx);
      },
    });
  }

  /**
   * Reserves `micros`, records the row (`insert`, given the reservation) and queues its job, in
   * one transaction (402 changes nothing): `q`'s when given (the one that records an Idempotency-Key).
   */
  async create(owner: Owner, id: string, micros: number, insert: (reservationId: string, tx: Queryable) => Promise<void>, q: Queryable = this.store.engine): Promise<void> {
    await q.transaction(async (tx) => {
      const reservation = await this.o.credits.reserve(owner.orgId, micros, `${this.o.reservation} ${id}`, tx);
      await insert(reservation.id, tx);
      const job = await this.o.jobs.enqueue({ kind: this.o.kind, payload: { [this.o.idField]: id }, orgId: owner.orgId }, tx);
      await this.store.attachJob(id, job.id, tx);
    });
  }

  /**
   * Settles the reservation at `price(row)`, marks the row completed (`mark`, given the settled
   * cost) and queues its webhook, atomically. The row is locked first: a worker that lost its
   * lease and the one that took over cannot both finish it.
   */
  completed(id: string, price: (row: Row) => number, mark: (row: Row, costMicros: number, tx: Queryable) => Promise<unknown>): Promise<void> {
    return this.store.engine.transaction(async (tx) => {
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.status !== 'pending') return;
      const cost = row.reservation_id ? (await this.o.credits.settle(row.reservation_id, price(row), tx)).cost_micros : 0;
      await mark(row, cost, tx);
      await this.notify(row, 'completed', {}, tx);
    });
  }

  /**
   * Refunds the reservation, marks the row failed (`mark`) and queues its webhook with `data`,
   * atomically (within `q` when given: the transaction that gives the job up).
   */
  failed(id: string, mark: (row: Row, tx: Queryable) => Promise<unknown>, data: Record<string, unknown>, q: Queryable = this.store.engine): Promise<void> {
    return q.transaction(async (tx) => {
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.status !== 'pending') return;
      if (row.reservation_id && (await this.o.credits.reservation(row.reservation_id, tx))?.status === 'held') await this.o.credits.refund(row.reservation_id, tx);
      await mark(row, tx);
      await this.notify(row, 'failed', data, tx);
    });
  }

  private async notify(row: Row, status: 'completed' | 'failed', data: Record<string, unknown>, tx: Queryable): Promise<void> {
    if (!row.webhook_url) return;
    await this.o.outbox.enqueue({ orgId: row.org_id, url: row.webhook_url, type: `${this.o.event}.${status}`, data: { [this.o.idField]: row.id, status, ...data } }, tx);
  }

  /**
   * The status of a row of this key (404 otherwise) as `view` makes it; when something stored
   * for it cannot be read, `unreadable(row, reason)` says so instead (and the log says why).
   */
  async status<V>(owner: Owner, id: string, view: (row: Row) => Promise<V>, unreadable: (row: Row, reason: string) => V): Promise<V> {
    const row = await this.find(owner, id);
    try {
      return await view(row);
    } catch (err) {
      if (!(err instanceof UnreadableError) && !(err instanceof SyntaxError) && !(err instanceof z.ZodError)) throw err;
      const reason = err instanceof UnreadableError ? err.message : 'its stored record is unreadable';
      this.o.logger.error({ [this.o.idField]: id, reason }, `${this.what.toLowerCase()} status cannot be determined`);
      return unreadable(row, reason);
    }
  }

  /**
   * The job of a pending row, for its status: or the row as it is now, when the job ended and
   * finished it meanwhile (two reads, not one snapshot). A job missing, or ended with the row
   * still pending, is UnreadableError.
   */
  async pendingJob(row: Row): Promise<{ job: JobRow } | { now: Row }> {
    const what = this.o.noun;
    const job = row.job_id ? await this.o.jobs.store.get(row.job_id) : undefined;
    if (!job) throw new UnreadableError(`the ${what} is pending but its ${this.o.jobName} is missing`);
    if (job.state === 'done' || job.state === 'failed') {
      const now = await this.store.get(row.id);
      if (now && now.status !== 'pending') return { now };
      throw new UnreadableError(`the ${what} is pending but its ${this.o.jobName} has ${job.state === 'done' ? 'ended' : 'failed'}`);
    }
    return { job };
  }

  /**
   * Deletes a row of this key (404 otherwise), paid first (`charge`; 402 deletes nothing). A
   * pending one has its job cancelled and its reservation settled at `partial(row)` when given
   * (what was delivered), refunded in full otherwise. No webhook event is sent for a deletion.
   * Resolves once a run of its job in this process has stopped.
   */
  async cancelAndDelete(owner: Owner, id: string, charge: Charge | undefined, partial?: (row: Row) => number): Promise<Deletion<Row>> {
    let jobId: string | undefined;
    const { row, out } = await this.deleteOwned(owner, id, charge, async (row, tx) => {
      let cancelled = false;
      let costMicros = row.status === 'pending' ? 0 : (row.cost_micros ?? 0);
      let refundedMicros = 0;
      if (row.status === 'pending') {
        if (row.job_id && (await this.o.jobs.cancel(row.job_id, `the ${this.what.toLowerCase()} was deleted`, tx))) {
          cancelled = true;
          jobId = row.job_id;
        }
        const held = row.reservation_id ? await this.o.credits.reservation(row.reservation_id, tx) : undefined;
        if (held?.status === 'held') {
          if (partial) {
            // What was delivered is counted with the row, locked: nothing can be added meanwhile.
            costMicros = (await this.o.credits.settle(held.id, partial(row), tx)).cost_micros;
            refundedMicros = held.amount_micros - costMicros;
          } else {
            await this.o.credits.refund(held.id, tx);
            refundedMicros = held.amount_micros;
          }
        }
      }
      return { cancelled, costMicros, refundedMicros };
    });
    // A run in this process has been told to stop: answer once it has.
    if (jobId) await this.o.jobs.stopped(jobId);
    return { row, ...out };
  }
}
