/**
 * SQL of videos: one row per video (who owns it, what was asked, the outline it renders once it
 * is built, where it stands, the result once finished). Progress is a column written (throttled)
 * while the job runs, so a status poll after a restart still sees how far the render came.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';

export type VideoStatus = 'pending' | 'completed' | 'failed';

/** What the caller asked for, stored as JSON in `request`. */
export interface VideoRequest {
  source: 'journal' | 'text';
  journal_id?: string;
  text?: string;
  title?: string;
  voice: string;
  max_duration_seconds: number;
}

export interface VideoRow {
  id: string;
  key_id: string;
  org_id: string;
  request: string;
  /** JSON of StoredOutline once the job has read its source; reused when the job resumes. */
  outline: string | null;
  status: string;
  completion_percentage: number;
  message: string | null;
  error: string | null;
  /** JSON of StoredResult when completed. */
  result: string | null;
  webhook_url: string | null;
  reservation_id: string | null;
  cost_micros: number | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export class VideoStore {
  private readonly insertStmt: Statement;
  private readonly byId: Statement;
  private readonly ownedStmt: Statement;
  private readonly setJob: Statement;
  private readonly setOutline: Statement;
  private readonly progressStmt: Statement;
  private readonly completeStmt: Statement;
  private readonly failStmt: Statement;

  constructor(readonly db: DB) {
    this.insertStmt = db.prepare(
      `INSERT INTO videos (id, key_id, org_id, request, status, completion_percentage, webhook_url, reservation_id, created_at, updated_at)
       VALUES (@id, @key_id, @org_id, @request, 'pending', 0, @webhook_url, @reservation_id, @now, @now)`,
    );
    this.byId = db.prepare('SELECT * FROM videos WHERE id = ?');
    this.ownedStmt = db.prepare('SELECT * FROM videos WHERE id = ? AND key_id = ?');
    this.setJob = db.prepare('UPDATE videos SET job_id = ? WHERE id = ?');
    this.setOutline = db.prepare('UPDATE videos SET outline = ?, updated_at = ? WHERE id = ?');
    // Never backwards: a resumed render starts its own count from 0 again.
    this.progressStmt = db.prepare(
      `UPDATE videos SET completion_percentage = MAX(completion_percentage, ?), updated_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.completeStmt = db.prepare(
      `UPDATE videos SET status = 'completed', completion_percentage = 100, result = ?, cost_micros = ?, message = ?,
              updated_at = ?, completed_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.failStmt = db.prepare(
      `UPDATE videos SET status = 'failed', cost_micros = 0, error = ?, message = ?, updated_at = ?, completed_at = ?
        WHERE id = ? AND status = 'pending'`,
    );
  }

  insert(row: { id: string; key_id: string; org_id: string; request: VideoRequest; webhook_url: string | null; reservation_id: string | null }): void {
    this.insertStmt.run({ ...row, request: JSON.stringify(row.request), now: nowIso() });
  }

  get(id: string): VideoRow | undefined {
    return this.byId.get(id) as VideoRow | undefined;
  }

  /** The video if this key created it; undefined for unknown and foreign ids alike. */
  findOwned(id: string, keyId: string): VideoRow | undefined {
    return this.ownedStmt.get(id, keyId) as VideoRow | undefined;
  }

  attachJob(id: string, jobId: string): void {
    this.setJob.run(jobId, id);
  }

  saveOutline(id: string, outline: unknown): void {
    this.setOutline.run(JSON.stringify(outline), nowIso(), id);
  }

  progress(id: string, pct: number): void {
    this.progressStmt.run(pct, nowIso(), id);
  }

  /** False when the video was no longer pending. */
  complete(id: string, result: unknown, costMicros: number, message: string): boolean {
    const now = nowIso();
    return this.completeStmt.run(JSON.stringify(result), costMicros, message, now, now, id).changes === 1;
  }

  fail(id: string, error: string, message: string): boolean {
    const now = nowIso();
    return this.failStmt.run(error, message, now, now, id).changes === 1;
  }
}
