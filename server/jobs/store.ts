/**
 * SQL of the durable job queue. A job is a row: a `kind` naming its handler, a JSON payload, a
 * state, and a lease. A worker claims a runnable job by taking its lease for a while and renews it
 * (heartbeat) as long as the job runs; a job whose lease ran out (its process died) is runnable
 * again, so a crash delays a job but never loses it.
 *
 * Several processes (instances on one PostgreSQL database) may claim from the same table: a claim
 * is one statement whose update takes only rows still runnable (a row another claim took
 * meanwhile is running under a live lease, and PostgreSQL re-checks the condition on the row it
 * waited for; on SQLite the statement holds the write lock), so a job is taken by exactly one.
 *
 * Organizations take turns: a claim ranks the runnable jobs within each organization (oldest
 * first) and takes the first of every organization before the second of any, so one
 * organization's backlog delays another's job by at most the jobs running when it was queued.
 * Every later write is conditional on the lease owner, so a worker that lost its lease cannot
 * touch the job any more. Lease times are epoch ms of the instances' clocks, which must agree
 * (NTP) to well within a lease.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import { nowIso } from '../time.ts';

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
  /** The organization the job works for: organizations take turns (claim). */
  orgId?: string;
}

export class JobStore {
  constructor(readonly engine: StorageEngine) {}

  /** Adds a job; pass the transaction that records the work it belongs to. */
  async enqueue(job: NewJob, defaultMaxAttempts: number, q: Queryable = this.engine): Promise<JobRow> {
    const iso = nowIso();
    const row = await q.get<JobRow>(
      `INSERT INTO jobs (id, kind, payload, state, attempts, max_attempts, run_at, created_at, updated_at, org_id)
       VALUES (?, ?, ?, 'queued', 0, ?, ?, ?, ?, ?) RETURNING *`,
      [randomUUID(), job.kind, JSON.stringify(job.payload ?? null), job.maxAttempts ?? defaultMaxAttempts, job.runAt ?? Date.now(), iso, iso, job.orgId ?? ''],
    );
    return row!;
  }

  get(id: string, q: Queryable = this.engine): Promise<JobRow | undefined> {
    return q.get<JobRow>('SELECT * FROM jobs WHERE id = ?', [id]);
  }

  /**
   * Leases up to `limit` runnable jobs of the given kinds (queued and due, or running with an
   * expired lease) to `owner`, organizations in turns (each one's oldest first); [] when none.
   * One statement: the update takes only rows still runnable, so no job is claimed twice (a row
   * another instance's claim took meanwhile runs under a fresh lease). The CTE is MATERIALIZED so
   * that PostgreSQL runs it once (a subquery under IN could be re-scanned).
   */
  async claim(owner: string, kinds: readonly string[], leaseMs: number, limit = 1, now = Date.now()): Promise<JobRow[]> {
    if (kinds.length === 0 || limit < 1) return [];
    const runnable = `((state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_expires_at < ?))`;
    const rows = await this.engine.all<JobRow>(
      `WITH picked AS MATERIALIZED (
         SELECT id FROM (
           SELECT id, run_at, created_at, ROW_NUMBER() OVER (PARTITION BY org_id ORDER BY run_at, created_at, id) AS turn
             FROM jobs WHERE ${runnable} AND kind IN (${kinds.map(() => '?').join(', ')})) due
          ORDER BY turn, run_at, created_at LIMIT ?)
       UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_expires_at = ?, updated_at = ?
        WHERE id IN (SELECT id FROM picked) AND ${runnable}
       RETURNING *`,
      [now, now, ...kinds, limit, owner, now + leaseMs, nowIso(), now, now],
    );
    // RETURNING has no order: oldest first, as picked.
    return rows.sort((a, b) => a.run_at - b.run_at || (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  /** Extends the lease; false when this owner no longer holds the job. */
  async heartbeat(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const r = await this.engine.run(`UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE id = ? AND lease_owner = ? AND state = 'running'`, [
      Date.now() + leaseMs,
      nowIso(),
      id,
      owner,
    ]);
    return r.changes === 1;
  }

  async finish(id: string, owner: string, state: 'done' | 'failed', error: string | null = null, q: Queryable = this.engine): Promise<boolean> {
    const r = await q.run(
      `UPDATE jobs SET state = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ?`,
      [state, error, nowIso(), id, owner],
    );
    return r.changes === 1;
  }

  /** Puts the job back at once: an interruption by our own shutdown does not count as an attempt. */
  async release(id: string, owner: string): Promise<boolean> {
    const r = await this.engine.run(
      `UPDATE jobs SET state = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
              lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ? AND state = 'running'`,
      [nowIso(), id, owner],
    );
    return r.changes === 1;
  }

  /**
   * Ends a job that has not ended, as `failed` with `reason`, whoever holds it: its lease owner's
   * next write (heartbeat, finish) then finds no lease and stops. Pass the transaction that
   * removes the work it was doing. Returns the row as it was, or undefined when it had ended.
   */
  async cancel(id: string, reason: string, q: Queryable = this.engine): Promise<JobRow | undefined> {
    const before = await q.get<JobRow>(`SELECT * FROM jobs WHERE id = ? AND state IN ('queued', 'running')${q.dialect.forUpdate}`, [id]);
    if (!before) return undefined;
    await q.run(`UPDATE jobs SET state = 'failed', last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`, [reason, nowIso(), id]);
    return before;
  }

  async retryAt(id: string, owner: string, runAt: number, error: string): Promise<boolean> {
    const r = await this.engine.run(
      `UPDATE jobs SET state = 'queued', run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
        WHERE id = ? AND lease_owner = ?`,
      [runAt, error, nowIso(), id, owner],
    );
    return r.changes === 1;
  }
}
