/**
 * SQL shared by the resources a key creates and lists. `OwnedRowStore`: rows owned by a key, found
 * by id, listed newest first with an integer keyset cursor on `seq` (filled by the engine on
 * insert), like the journal list (stable under concurrent inserts and deletes), locked while it
 * is finished or deleted, and deleted; flashcard decks use it as it is. `JobResourceStore` adds
 * what a resource made by a durable job has (practice sets, videos): its job. The table-specific
 * parts (what is asked, what is produced) stay in each domain's store; the lifecycle they share
 * is paid-jobs.ts.
 *
 * Ownership is by key: a key reaches only what it created, so an unknown id, another key's and
 * another organization's are the same `undefined` (404 above).
 */
import type { Queryable, StorageEngine } from '../storage/engine.ts';

/** Columns every listed resource row has. */
export interface OwnedRow {
  id: string;
  key_id: string;
  org_id: string;
  /** Insertion order, the list cursor. */
  seq: number;
  created_at: string;
}

export interface Page<Row> {
  rows: Row[];
  /** `seq` of the last row when a further page exists: the next `page_token`. */
  next?: number;
}

export class OwnedRowStore<Row extends OwnedRow> {
  constructor(
    readonly engine: StorageEngine,
    /** A constant of the subclass, never user input. */
    protected readonly table: string,
  ) {}

  get(id: string, q: Queryable = this.engine): Promise<Row | undefined> {
    return q.get<Row>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
  }

  /** The row if this key created it; undefined for unknown and foreign ids alike. */
  findOwned(id: string, keyId: string, q: Queryable = this.engine): Promise<Row | undefined> {
    return q.get<Row>(`SELECT * FROM ${this.table} WHERE id = ? AND key_id = ?`, [id, keyId]);
  }

  /** The key's rows newest first, `size` of them from before the cursor `before` (exclusive; none: from the newest). */
  async page(keyId: string, before: number | undefined, size: number): Promise<Page<Row>> {
    const rows = await this.engine.all<Row>(`SELECT * FROM ${this.table} WHERE key_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, [
      keyId,
      before ?? Number.MAX_SAFE_INTEGER,
      size + 1,
    ]);
    const more = rows.length > size;
    const page = more ? rows.slice(0, size) : rows;
    return { rows: page, ...(more ? { next: Number(page[page.length - 1]!.seq) } : {}) };
  }

  /** The row locked until `tx` ends: finishing or deleting it twice (two workers, two requests) is serialized. */
  getForUpdate(id: string, tx: Queryable): Promise<Row | undefined> {
    return tx.get<Row>(`SELECT * FROM ${this.table} WHERE id = ?${tx.dialect.forUpdate}`, [id]);
  }

  /** Deletes the row; false when it was already gone. Subclasses delete what hangs off it first. */
  async delete(id: string, q: Queryable = this.engine): Promise<boolean> {
    return (await q.run(`DELETE FROM ${this.table} WHERE id = ?`, [id])).changes > 0;
  }
}

/** Columns every job-backed resource row has. */
export interface JobResourceRow extends OwnedRow {
  status: string;
  webhook_url: string | null;
  reservation_id: string | null;
  job_id: string | null;
  /** What it cost, once its reservation is settled. */
  cost_micros: number | null;
  updated_at: string;
}

export class JobResourceStore<Row extends JobResourceRow> extends OwnedRowStore<Row> {
  async attachJob(id: string, jobId: string, q: Queryable = this.engine): Promise<void> {
    await q.run(`UPDATE ${this.table} SET job_id = ? WHERE id = ?`, [jobId, id]);
  }
}
