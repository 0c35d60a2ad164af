/**
 * SQL of videos: one row per video (who owns it, what was asked, the outline it renders once it
 * is built, where it stands, the result once finished). Progress is a column written (throttled)
 * while the job runs, so a status poll after a restart still sees how far the render came.
 */
import { JobResourceStore, type JobResourceRow } from '../jobs/resource-store.ts';
import { nowIso } from '../time.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import type { Outline } from './outline.ts';

/** A source the video narrates: a journal block or a block of the submitted text. */
export interface StoredSource {
  kind: 'journal' | 'text';
  /** Journal id (journal sources). */
  journal_id?: string;
  block_id: string;
  content: string;
}

/** The outline a render uses, stored once so a resumed job renders the same video. */
export interface StoredOutline {
  outline: Outline;
  /** Block id -> its text, for `sources`. */
  blocks: Record<string, string>;
  journal_id?: string;
}

export interface StoredResult {
  title: string;
  transcript: string;
  model: string;
  duration_seconds: number;
  narration_seconds: number;
  size_bytes: number;
  truncated: boolean;
  notes: string[];
  sources: StoredSource[];
  chapters: { heading: string; start: number; end: number; source_block_ids: string[] }[];
}

/** What the caller asked for, stored as JSON in `request`. */
export interface VideoRequest {
  source: 'journal' | 'text';
  journal_id?: string;
  text?: string;
  title?: string;
  voice: string;
  max_duration_seconds: number;
}

export interface VideoRow extends JobResourceRow {
  request: string;
  /** JSON of StoredOutline once the job has read its source; reused when the job resumes. */
  outline: string | null;
  status: string;
  completion_percentage: number;
  message: string | null;
  error: string | null;
  /** JSON of StoredResult when completed. */
  result: string | null;
  cost_micros: number | null;
  completed_at: string | null;
}

export class VideoStore extends JobResourceStore<VideoRow> {
  constructor(engine: StorageEngine) {
    super(engine, 'videos');
  }

  async insert(
    row: { id: string; key_id: string; org_id: string; request: VideoRequest; webhook_url: string | null; reservation_id: string | null },
    q: Queryable = this.engine,
  ): Promise<void> {
    const now = nowIso();
    await q.run(
      `INSERT INTO videos (id, key_id, org_id, request, status, completion_percentage, webhook_url, reservation_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
      [row.id, row.key_id, row.org_id, JSON.stringify(row.request), row.webhook_url, row.reservation_id, now, now],
    );
  }

  async saveOutline(id: string, outline: unknown): Promise<void> {
    await this.engine.run('UPDATE videos SET outline = ?, updated_at = ? WHERE id = ?', [JSON.stringify(outline), nowIso(), id]);
  }

  /** Never backwards: a resumed render starts its own count from 0 again. */
  async progress(id: string, pct: number): Promise<void> {
    await this.engine.run(
      `UPDATE videos SET completion_percentage = CASE WHEN completion_percentage > ? THEN completion_percentage ELSE ? END, updated_at = ?
        WHERE id = ? AND status = 'pending'`,
      [pct, pct, nowIso(), id],
    );
  }

  /** False when the video was no longer pending. */
  async complete(id: string, result: unknown, costMicros: number, message: string, q: Queryable = this.engine): Promise<boolean> {
    const now = nowIso();
    const r = await q.run(
      `UPDATE videos SET status = 'completed', completion_percentage = 100, result = ?, cost_micros = ?, message = ?,
              updated_at = ?, completed_at = ? WHERE id = ? AND status = 'pending'`,
      [JSON.stringify(result), costMicros, message, now, now, id],
    );
    return r.changes === 1;
  }

  async fail(id: string, error: string, message: string, q: Queryable = this.engine): Promise<boolean> {
    const now = nowIso();
    const r = await q.run(
      `UPDATE videos SET status = 'failed', cost_micros = 0, error = ?, message = ?, updated_at = ?, completed_at = ?
        WHERE id = ? AND status = 'pending'`,
      [error, message, now, now, id],
    );
    return r.changes === 1;
  }
}
