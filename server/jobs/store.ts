/**
 * SQL of the durable job queue. A job is a row: a `kind` naming its handler, a JSON payload, a
 * state, and a lease. A worker claims a runnable job by taking its lease for a while and renews it
 * (heartbeat) as long as the job runs; a job whose lease ran out (its process died) is runnable
 * again, so a crash delays a job but never loses it.
 */
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobRow {
  id: string;
  kind: string;
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewJob {
  kind: string;
  payload: unknown;
  /** Claims allowed before the job is given up (a claim that crashed counts). */
  maxAttempts?: number;
  /** Epoch ms before which the job is not run. */
  runAt?: number;
}

export class JobStore {
  private readonly insert: Statement;
  private readonly byId: Statement;
  private readonly claimStmt: Statement;
  private readonly renew: Statement;
  private readonly finishStmt: Statement;
  private readonly releaseStmt: Statement;
  private readonly retryStmt: Statement;

  constructor(readonly db: DB) {
    this.insert = db.prepare(
      `INSERT INTO jobs (id, kind, payload, state, attempts, max_attempts, run_at, created_at, updated_at)
       VALUES (?, ?, ?, 'queued', 0, ?, ?, ?, ?)`,
    );
    this.byId = db.prepare('SELECT * FROM jobs WHERE id = ?');
    // One statement: picks the oldest runnable job of a known kind and leases it, atomically.
    this.claimStmt = db.prepare(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = @owner,
              lease_expires_at = @now + @lease, updated_at = @iso
        WHERE id = (SELECT id FROM jobs
                     WHERE ((state = 'queued' AND run_at <= @now) OR (state = 'running' AND lease_expires_at < @now))
                       AND kind IN (SELECT value FROM json_each(@kinds))
                     ORDER BY run_at, created_at LIMIT 1)
       RETURNING *`,
    );
    this.renew = db.prepare(
      `UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE id = ? AND lease_owner = ? AND state = 'running'`,
    );
    this.finishStmt = db.prepare(
      `UPDATE jobs SET state = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ?`,
    );
    // An interruption by our own shutdown does not count as an attempt.
    this.releaseStmt = db.prepare(
      `UPDATE jobs SET state = 'queued', attempts = MAX(attempts - 1, 0), lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ? AND state = 'running'`,
    );
    this.retryStmt = db.prepare(
      `UPDATE jobs SET state = 'queued', run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ?`,
    );
  }

  /** Adds a job; call inside the transaction that records the work it belongs to. */
  enqueue(job: NewJob, defaultMaxAttempts: number): JobRow {
    const id = randomUUID();
    const iso = nowIso();
    this.insert.run(id, job.kind, JSON.stringify(job.payload ?? null), job.maxAttempts ?? defaultMaxAttempts, job.runAt ?? Date.now(), iso, iso);
    return this.get(id)!;
  }

  get(id: string): JobRow | undefined {
    return this.byId.get(id) as JobRow | undefined;
  }

  claim(owner: string, kinds: readonly string[], leaseMs: number, now = Date.now()): JobRow | undefined {
    return this.claimStmt.get({ owner, now, lease: leaseMs, iso: nowIso(), kinds: JSON.stringify(kinds) }) as JobRow | undefined;
  }

  /** Extends the lease; false when this owner no longer holds the job. */
  heartbeat(id: string, owner: string, leaseMs: number): boolean {
    return this.renew.run(Date.now() + leaseMs, nowIso(), id, owner).changes === 1;
  }

  finish(id: string, owner: string, state: 'done' | 'failed', error: string | null = null): boolean {
    return this.finishStmt.run(state, error, nowIso(), id, owner).changes === 1;
  }

  release(id: string, owner: string): boolean {
    return this.releaseStmt.run(nowIso(), id, owner).changes === 1;
  }

  retryAt(id: string, owner: string, runAt: number, error: string): boolean {
    return this.retryStmt.run(runAt, error, nowIso(), id, owner).changes === 1;
  }
}
