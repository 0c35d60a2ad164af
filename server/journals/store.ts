/**
 * SQL of the journals domain. Journal state is a compacted snapshot plus an append-only log of
 * Yjs updates; `revision` counts every update ever appended and never goes back.
 */
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';

export interface JournalRow {
  seq: number;
  id: string;
  key_id: string;
  org_id: string;
  title: string;
  team_slug: string | null;
  created_at: string;
  updated_at: string;
  revision: number;
}

const ROW_COLUMNS = 'seq, id, key_id, org_id, title, team_slug, created_at, updated_at, revision';

function prepareStatements(db: DB) {
  return {
    insert: db.prepare(
      `INSERT INTO journals (id, key_id, org_id, title, team_slug, created_at, updated_at, revision)
       VALUES (@id, @key_id, @org_id, @title, @team_slug, @created_at, @created_at, 1)`,
    ),
    insertSnapshot: db.prepare('INSERT INTO journal_snapshots (journal_seq, revision, data) VALUES (?, 1, ?)'),
    byId: db.prepare(`SELECT ${ROW_COLUMNS} FROM journals WHERE id = ?`),
    ownedById: db.prepare(`SELECT ${ROW_COLUMNS} FROM journals WHERE id = ? AND key_id = ?`),
    page: db.prepare(
      `SELECT ${ROW_COLUMNS} FROM journals WHERE key_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    ),
    rename: db.prepare('UPDATE journals SET title = ?, updated_at = ? WHERE seq = ?'),
    deleteJournal: db.prepare('DELETE FROM journals WHERE seq = ?'),
    deleteUpdates: db.prepare('DELETE FROM journal_updates WHERE journal_seq = ?'),
    deleteSnapshot: db.prepare('DELETE FROM journal_snapshots WHERE journal_seq = ?'),
    deleteMarkdownCache: db.prepare('DELETE FROM journal_markdown_cache WHERE journal_seq = ?'),
    revision: db.prepare('SELECT revision FROM journals WHERE seq = ?'),
    snapshot: db.prepare('SELECT revision, data FROM journal_snapshots WHERE journal_seq = ?'),
    updates: db.prepare('SELECT data FROM journal_updates WHERE journal_seq = ? AND revision > ? ORDER BY revision'),
    appendUpdate: db.prepare('INSERT INTO journal_updates (journal_seq, revision, data) VALUES (?, ?, ?)'),
    bumpRevision: db.prepare('UPDATE journals SET revision = ?, updated_at = ? WHERE seq = ?'),
    saveSnapshot: db.prepare(
      'INSERT INTO journal_snapshots (journal_seq, revision, data) VALUES (?, ?, ?) ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision, data = excluded.data',
    ),
    dropCompacted: db.prepare('DELETE FROM journal_updates WHERE journal_seq = ? AND revision <= ?'),
    logSize: db.prepare(
      'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(data)), 0) AS bytes FROM journal_updates WHERE journal_seq = ?',
    ),
    markdownCache: db.prepare('SELECT markdown FROM journal_markdown_cache WHERE journal_seq = ? AND revision = ?'),
    saveMarkdownCache: db.prepare(
      'INSERT INTO journal_markdown_cache (journal_seq, revision, markdown) VALUES (?, ?, ?) ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision, markdown = excluded.markdown',
    ),
  };
}

export class JournalStore {
  private readonly stmts: ReturnType<typeof prepareStatements>;

  constructor(readonly db: DB) {
    this.stmts = prepareStatements(db);
    const stmts = this.stmts;
    this.appendUpdate = db.transaction((seq: number, revision: number, update: Uint8Array) => {
      stmts.appendUpdate.run(seq, revision, update);
      stmts.bumpRevision.run(revision, nowIso(), seq);
    });
  }

  create(row: { id: string; key_id: string; org_id: string; title: string; team_slug: string | null; snapshot: Uint8Array }): JournalRow {
    const created_at = nowIso();
    const { snapshot, ...fields } = row;
    return this.db.transaction(() => {
      const { lastInsertRowid } = this.stmts.insert.run({ ...fields, created_at });
      this.stmts.insertSnapshot.run(lastInsertRowid, Buffer.from(snapshot));
      return this.stmts.byId.get(row.id) as JournalRow;
    })();
  }

  /** The journal if it exists and was created by this key; undefined for unknown and foreign ids alike. */
  findOwned(id: string, keyId: string): JournalRow | undefined {
    return this.stmts.ownedById.get(id, keyId) as JournalRow | undefined;
  }

  findById(id: string): JournalRow | undefined {
    return this.stmts.byId.get(id) as JournalRow | undefined;
  }

  /** Newest first; `before` is an exclusive keyset cursor on the insertion sequence. */
  page(keyId: string, before: number, limit: number): JournalRow[] {
    return this.stmts.page.all(keyId, before, limit) as JournalRow[];
  }

  rename(seq: number, title: string): void {
    this.stmts.rename.run(title, nowIso(), seq);
  }

  delete(seq: number): void {
    this.db.transaction(() => {
      this.stmts.deleteUpdates.run(seq);
      this.stmts.deleteSnapshot.run(seq);
      this.stmts.deleteMarkdownCache.run(seq);
      this.stmts.deleteJournal.run(seq);
    })();
  }

  /** Snapshot plus the updates logged after it, in order. */
  loadState(seq: number): { snapshot: Uint8Array | null; updates: Uint8Array[]; revision: number } {
    return this.db.transaction(() => {
      const { revision } = this.stmts.revision.get(seq) as { revision: number };
      const snap = this.stmts.snapshot.get(seq) as { revision: number; data: Buffer } | undefined;
      const updates = (this.stmts.updates.all(seq, snap?.revision ?? 0) as { data: Buffer }[]).map((r) => r.data);
      return { snapshot: snap?.data ?? null, updates, revision };
    })();
  }

  /** Appends one update as `revision` and records it on the journal, atomically. */
  readonly appendUpdate: (seq: number, revision: number, update: Uint8Array) => void;

  /** Replaces the log up to `revision` with one snapshot, in one transaction. */
  compact(seq: number, snapshot: Uint8Array, revision: number): void {
    this.db.transaction(() => {
      this.stmts.saveSnapshot.run(seq, revision, Buffer.from(snapshot));
      this.stmts.dropCompacted.run(seq, revision);
    })();
  }

  logSize(seq: number): { count: number; bytes: number } {
    return this.stmts.logSize.get(seq) as { count: number; bytes: number };
  }

  cachedMarkdown(seq: number, revision: number): string | undefined {
    return (this.stmts.markdownCache.get(seq, revision) as { markdown: string } | undefined)?.markdown;
  }

  saveMarkdownCache(seq: number, revision: number, markdown: string): void {
    this.stmts.saveMarkdownCache.run(seq, revision, markdown);
  }
}
