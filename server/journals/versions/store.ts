/**
 * Stored versions of journals (docs/versions.md). A version is a Yjs update: the first of a journal,
 * and every BASE_EVERY-th after it, the whole state (a base); the others only what changed since the
 * version before (`Y.encodeStateAsUpdate(doc, previous state vector)`), so a small edit's version
 * costs O(edit) bytes. A version is read back by applying its base and the deltas after it in order.
 */
import * as Y from 'yjs';
import type { Tier } from '../../auth/keys.ts';
import type { Queryable, StorageEngine } from '../../storage/engine.ts';

/** A base (the whole state) after this many deltas bounds the work of reading a version back. */
export const BASE_EVERY = 50;

export type VersionKind = 'named' | 'auto' | 'restore';

export interface VersionRow {
  seq: number;
  id: string;
  journal_seq: number;
  name: string | null;
  kind: VersionKind;
  created_at: string;
  created_by: string;
  /** The journal's revision the version holds. */
  revision: number;
  block_count: number;
  bytes: number;
  base: number;
  state_vector: Uint8Array;
}

const META = 'seq, id, journal_seq, name, kind, created_at, created_by, revision, block_count, bytes, base, state_vector';

export class VersionStore {
  constructor(private readonly engine: StorageEngine) {}

  /** The newest version of the journal, and how many deltas follow its base. */
  async latest(journalSeq: number, q: Queryable = this.engine): Promise<{ row: VersionRow; sinceBase: number } | undefined> {
    const row = await q.get<VersionRow>(`SELECT ${META} FROM journal_versions WHERE journal_seq = ? ORDER BY seq DESC LIMIT 1`, [journalSeq]);
    if (!row) return undefined;
    const base = await q.get<{ seq: number }>('SELECT MAX(seq) AS seq FROM journal_versions WHERE journal_seq = ? AND base = 1', [journalSeq]);
    const since = await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal_versions WHERE journal_seq = ? AND seq > ?', [journalSeq, base?.seq ?? 0]);
    return { row, sinceBase: Number(since?.n ?? 0) };
  }

  insert(q: Queryable, v: Omit<VersionRow, 'seq'> & { data: Uint8Array }): Promise<VersionRow> {
    return q.get<VersionRow>(
      `INSERT INTO journal_versions (id, journal_seq, name, kind, created_at, created_by, revision, block_count, bytes, base, state_vector, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${META}`,
      [v.id, v.journal_seq, v.name, v.kind, v.created_at, v.created_by, v.revision, v.block_count, v.bytes, v.base, v.state_vector, v.data],
    ) as Promise<VersionRow>;
  }

  /** The version before version `seq` of the journal, if any. */
  previous(journalSeq: number, seq: number): Promise<VersionRow | undefined> {
    return this.engine.get<VersionRow>(`SELECT ${META} FROM journal_versions WHERE journal_seq = ? AND seq < ? ORDER BY seq DESC LIMIT 1`, [journalSeq, seq]);
  }

  find(journalSeq: number, id: string): Promise<VersionRow | undefined> {
    return this.engine.get<VersionRow>(`SELECT ${META} FROM journal_versions WHERE journal_seq = ? AND id = ?`, [journalSeq, id]);
  }

  /** Newest first; `before` is an exclusive keyset cursor on `seq`. */
  page(journalSeq: number, before: number, limit: number): Promise<VersionRow[]> {
    return this.engine.all<VersionRow>(`SELECT ${META} FROM journal_versions WHERE journal_seq = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, [journalSeq, before, limit]);
  }

  /**
   * Journals edited since their last version (or since they were made) whose last change is older
   * than `quietBefore` but newer than `since`: those a checkpoint is due for. Trashed ones are left.
   */
  quietJournals(quietBefore: string, since: string, limit: number): Promise<{ seq: number; id: string }[]> {
    return this.engine.all<{ seq: number; id: string }>(
      `SELECT j.seq AS seq, j.id AS id FROM journals j
        WHERE j.trashed_at IS NULL AND j.updated_at < ? AND j.updated_at > ?
          AND j.revision > COALESCE((SELECT MAX(v.revision) FROM journal_versions v WHERE v.journal_seq = j.seq), 1)
        ORDER BY j.updated_at LIMIT ?`,
      [quietBefore, since, limit],
    );
  }

  /** Journals after `afterJournal` with automatic versions older than `before` (candidates for thinning), with their tier. */
  journalsToThin(before: string, afterJournal: number, limit: number): Promise<{ journal_seq: number; tier: Tier }[]> {
    return this.engine.all<{ journal_seq: number; tier: Tier }>(
      `SELECT DISTINCT v.journal_seq AS journal_seq, o.tier AS tier FROM journal_versions v
         JOIN journals j ON j.seq = v.journal_seq JOIN organizations o ON o.id = j.org_id
        WHERE v.kind = 'auto' AND v.created_at < ? AND v.journal_seq > ? ORDER BY v.journal_seq LIMIT ?`,
      [before, afterJournal, limit],
    );
  }

  /**
   * Drops versions of a journal (ascending seqs), keeping every other one readable: the version
   * after a dropped one takes its changes (the two deltas merged, or a base when the dropped one
   * was a base), so its chain still starts at a base.
   */
  drop(journalSeq: number, seqs: readonly number[]): Promise<void> {
    return this.engine.transaction(async (tx) => {
      for (const seq of seqs) {
        const gone = await tx.get<{ base: number; data: Uint8Array }>('SELECT base, data FROM journal_versions WHERE journal_seq = ? AND seq = ?', [journalSeq, seq]);
        if (!gone) continue;
        const next = await tx.get<{ seq: number; base: number; data: Uint8Array }>(
          'SELECT seq, base, data FROM journal_versions WHERE journal_seq = ? AND seq > ? ORDER BY seq LIMIT 1',
          [journalSeq, seq],
        );
        if (!next) continue; // never the newest
        if (Number(next.base) !== 1) {
          const merged = Y.mergeUpdates([gone.data, next.data]);
          await tx.run('UPDATE journal_versions SET data = ?, bytes = ?, base = ? WHERE seq = ?', [merged, merged.byteLength, Number(gone.base), next.seq]);
        }
        await tx.run('DELETE FROM journal_versions WHERE seq = ?', [seq]);
      }
    });
  }

  /** Kind and time of every version of a journal. */
  retained(journalSeq: number): Promise<{ seq: number; kind: string; created_at: string }[]> {
    return this.engine.all('SELECT seq, kind, created_at FROM journal_versions WHERE journal_seq = ?', [journalSeq]);
  }

  /** The updates that rebuild version `seq`: its base and every delta after it, in order. */
  async chain(journalSeq: number, seq: number): Promise<Uint8Array[]> {
    const base = await this.engine.get<{ seq: number }>('SELECT MAX(seq) AS seq FROM journal_versions WHERE journal_seq = ? AND base = 1 AND seq <= ?', [journalSeq, seq]);
    const rows = await this.engine.all<{ data: Uint8Array }>('SELECT data FROM journal_versions WHERE journal_seq = ? AND seq >= ? AND seq <= ? ORDER BY seq', [
      journalSeq,
      base?.seq ?? 0,
      seq,
    ]);
    return rows.map((r) => r.data);
  }
}
