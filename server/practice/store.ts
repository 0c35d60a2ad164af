/**
 * SQL of practice sets: one row per set (who owns it, what was asked, where it stands) and one
 * row per finished problem, written as each problem is made so progress survives a restart.
 */
import { JobResourceStore, type JobResourceRow } from '../jobs/resource-store.ts';
import { nowIso } from '../time.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import type { Difficulty, PracticeProblem, SetProblemType } from './types.ts';

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

export interface SetRow extends JobResourceRow {
  set_name: string | null;
  request: string;
  context: string | null;
  status: string;
  engine: string | null;
  total_problems: number;
  completed_problems: number;
  message: string | null;
  cost_micros: number | null;
}

export class PracticeStore extends JobResourceStore<SetRow> {
  constructor(engine: StorageEngine) {
    super(engine, 'practice_sets');
  }

  async insert(
    row: { id: string; key_id: string; org_id: string; set_name: string | null; request: SetRequest; webhook_url: string | null; reservation_id: string | null },
    q: Queryable = this.engine,
  ): Promise<void> {
    const now = nowIso();
    await q.run(
      `INSERT INTO practice_sets (id, key_id, org_id, set_name, request, status, total_problems, completed_problems,
                                  webhook_url, reservation_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, 0, ?, ?, ?, ?)`,
      [row.id, row.key_id, row.org_id, row.set_name, JSON.stringify(row.request), row.request.count, row.webhook_url, row.reservation_id, now, now],
    );
  }

  async saveContext(id: string, context: string[]): Promise<void> {
    await this.engine.run('UPDATE practice_sets SET context = ?, updated_at = ? WHERE id = ?', [JSON.stringify(context), nowIso(), id]);
  }

  /** Records the engine; a set without a caller-given name takes the engine's. */
  async saveEngine(id: string, engine: string, generatedName: string): Promise<void> {
    await this.engine.run('UPDATE practice_sets SET engine = ?, set_name = COALESCE(set_name, ?), updated_at = ? WHERE id = ?', [engine, generatedName, nowIso(), id]);
  }

  /**
   * Stores problem `idx` and the progress it makes, in one transaction; nothing when the set is no
   * longer pending (deleted while a worker on another instance was still generating it).
   */
  addProblem(id: string, idx: number, problem: PracticeProblem): Promise<void> {
    return this.engine.transaction(async (tx) => {
      if (!(await tx.get(`SELECT id FROM practice_sets WHERE id = ? AND status = 'pending'${tx.dialect.forUpdate}`, [id]))) return;
      await tx.run(
        `INSERT INTO practice_problems (set_id, idx, problem) VALUES (?, ?, ?)
         ON CONFLICT (set_id, idx) DO UPDATE SET problem = excluded.problem`,
        [id, idx, JSON.stringify(problem)],
      );
      await tx.run(`UPDATE practice_sets SET completed_problems = ?, updated_at = ? WHERE id = ? AND status = 'pending'`, [idx + 1, nowIso(), id]);
    });
  }

  /** Raw stored problems (JSON text), in order. */
  problems(id: string): Promise<{ idx: number; problem: string }[]> {
    return this.engine.all<{ idx: number; problem: string }>('SELECT idx, problem FROM practice_problems WHERE set_id = ? ORDER BY idx', [id]);
  }

  /** False when the set was no longer pending. */
  async complete(id: string, costMicros: number, message: string, q: Queryable = this.engine): Promise<boolean> {
    const r = await q.run(`UPDATE practice_sets SET status = 'completed', cost_micros = ?, message = ?, updated_at = ? WHERE id = ? AND status = 'pending'`, [
      costMicros,
      message,
      nowIso(),
      id,
    ]);
    return r.changes === 1;
  }

  async fail(id: string, message: string, engine: string | null, q: Queryable = this.engine): Promise<boolean> {
    const r = await q.run(
      `UPDATE practice_sets SET status = 'failed', cost_micros = 0, message = ?, engine = COALESCE(engine, ?), updated_at = ?
        WHERE id = ? AND status = 'pending'`,
      [message, engine, nowIso(), id],
    );
    return r.changes === 1;
  }

  /** Deletes the set and its problems; false when it was already gone. */
  override async delete(id: string, q: Queryable = this.engine): Promise<boolean> {
    return q.transaction(async (tx) => {
      await tx.run('DELETE FROM practice_problems WHERE set_id = ?', [id]);
      return super.delete(id, tx);
    });
  }
}
