/**
 * SQL of practice sets: one row per set (who owns it, what was asked, where it stands) and one
 * row per finished problem, written as each problem is made so progress survives a restart.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';
import type { Difficulty, PracticeProblem, SetProblemType } from './types.ts';

export type SetStatus = 'pending' | 'completed' | 'failed';
export type EngineChoice = 'offline' | 'llm';

/** What the caller asked for, stored as JSON in `request`. */
export interface SetRequest {
  description: string;
  count: number;
  problem_type: SetProblemType;
  difficulty: Difficulty;
  search_for_problems: boolean;
  engine: EngineChoice;
  /** Makes offline generation repeatable, so a resumed job continues the same set. */
  seed: number;
}

export interface SetRow {
  id: string;
  key_id: string;
  org_id: string;
  set_name: string | null;
  request: string;
  context: string | null;
  status: string;
  engine: string | null;
  total_problems: number;
  completed_problems: number;
  message: string | null;
  webhook_url: string | null;
  reservation_id: string | null;
  cost_micros: number | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
}

export class PracticeStore {
  private readonly insertStmt: Statement;
  private readonly byId: Statement;
  private readonly ownedStmt: Statement;
  private readonly setJob: Statement;
  private readonly setContext: Statement;
  private readonly setEngine: Statement;
  private readonly addProblemStmt: Statement;
  private readonly progress: Statement;
  private readonly problemsStmt: Statement;
  private readonly completeStmt: Statement;
  private readonly failStmt: Statement;

  constructor(readonly db: DB) {
    this.insertStmt = db.prepare(
      `INSERT INTO practice_sets (id, key_id, org_id, set_name, request, status, total_problems, completed_problems,
                                  webhook_url, reservation_id, created_at, updated_at)
       VALUES (@id, @key_id, @org_id, @set_name, @request, 'pending', @total, 0, @webhook_url, @reservation_id, @now, @now)`,
    );
    this.byId = db.prepare('SELECT * FROM practice_sets WHERE id = ?');
    this.ownedStmt = db.prepare('SELECT * FROM practice_sets WHERE id = ? AND key_id = ?');
    this.setJob = db.prepare('UPDATE practice_sets SET job_id = ? WHERE id = ?');
    this.setContext = db.prepare('UPDATE practice_sets SET context = ?, updated_at = ? WHERE id = ?');
    this.setEngine = db.prepare('UPDATE practice_sets SET engine = ?, set_name = COALESCE(set_name, ?), updated_at = ? WHERE id = ?');
    this.addProblemStmt = db.prepare('INSERT OR REPLACE INTO practice_problems (set_id, idx, problem) VALUES (?, ?, ?)');
    this.progress = db.prepare(
      `UPDATE practice_sets SET completed_problems = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.problemsStmt = db.prepare('SELECT idx, problem FROM practice_problems WHERE set_id = ? ORDER BY idx');
    this.completeStmt = db.prepare(
      `UPDATE practice_sets SET status = 'completed', cost_micros = ?, message = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.failStmt = db.prepare(
      `UPDATE practice_sets SET status = 'failed', cost_micros = 0, message = ?, engine = COALESCE(engine, ?), updated_at = ?
        WHERE id = ? AND status = 'pending'`,
    );
  }

  insert(row: { id: string; key_id: string; org_id: string; set_name: string | null; request: SetRequest; webhook_url: string | null; reservation_id: string | null }): void {
    this.insertStmt.run({
      ...row,
      request: JSON.stringify(row.request),
      total: row.request.count,
      now: nowIso(),
    });
  }

  get(id: string): SetRow | undefined {
    return this.byId.get(id) as SetRow | undefined;
  }

  /** The set if this key created it; undefined for unknown and foreign ids alike. */
  findOwned(id: string, keyId: string): SetRow | undefined {
    return this.ownedStmt.get(id, keyId) as SetRow | undefined;
  }

  attachJob(id: string, jobId: string): void {
    this.setJob.run(jobId, id);
  }

  saveContext(id: string, context: string[]): void {
    this.setContext.run(JSON.stringify(context), nowIso(), id);
  }

  /** Records the engine; a set without a caller-given name takes the engine's. */
  saveEngine(id: string, engine: string, generatedName: string): void {
    this.setEngine.run(engine, generatedName, nowIso(), id);
  }

  /** Stores problem `idx` and the progress it makes, in one transaction. */
  addProblem(id: string, idx: number, problem: PracticeProblem): void {
    this.db.transaction(() => {
      this.addProblemStmt.run(id, idx, JSON.stringify(problem));
      this.progress.run(idx + 1, nowIso(), id);
    })();
  }

  /** Raw stored problems (JSON text), in order. */
  problems(id: string): { idx: number; problem: string }[] {
    return this.problemsStmt.all(id) as { idx: number; problem: string }[];
  }

  /** False when the set was no longer pending. */
  complete(id: string, costMicros: number, message: string): boolean {
    return this.completeStmt.run(costMicros, message, nowIso(), id).changes === 1;
  }

  fail(id: string, message: string, engine: string | null): boolean {
    return this.failStmt.run(message, engine, nowIso(), id).changes === 1;
  }
}
