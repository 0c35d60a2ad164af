/**
 * Context for `search_for_problems`: full-text search over the caller's own journals (SQLite
 * FTS5 with porter stemming, or PostgreSQL's English tsvector: the engine's `dialect.textSearch`
 * holds the only engine-specific SQL). The index is brought up to date lazily, when a search
 * needs it: a journal whose revision differs from the indexed one is exported to markdown (the
 * journals domain caches that export by revision) and re-indexed; a trigger of the migration
 * drops the entry of a deleted journal. Only journals of the same key are ever searched.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { JournalRow } from './store.ts';
import type { StorageEngine } from '../storage/engine.ts';

/** The most recently updated journals of a key that a search looks at. */
export const MAX_SEARCHED_JOURNALS = 500;
/** Journals passed on as context, best match first, each cut to MAX_EXCERPT_CHARS. */
export const MAX_CONTEXT_JOURNALS = 5;
export const MAX_EXCERPT_CHARS = 20_000;
/** Relative weights of a journal's title and body in the ranking. */
const TITLE_WEIGHT = 4;
const BODY_WEIGHT = 1;

const STOP = new Set(
  'the and for with from about into over under that this these those what which who whom how why when where are was were been being have has had not but you your our their its his her they them then than some any all each every more most other such only own same very can will just should now also use using grade level topic topics problems problem questions question practice set sets my notes note please make create'.split(
    ' ',
  ),
);

/** The description's content words (at most 16, deduplicated), or [] when it has none. */
export function searchWords(description: string): string[] {
  return [...new Set((description.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)))].slice(0, 16);
}

/** What the search needs of the journals domain (JournalService has it). */
export interface SearchedJournals {
  store: { findById(id: string): Promise<JournalRow | undefined> | JournalRow | undefined };
  content(row: JournalRow): Promise<{ markdown: string; revision: number }>;
}

export class JournalSearch {
  constructor(
    private readonly engine: StorageEngine,
    private readonly journals: SearchedJournals,
  ) {}

  /** Re-indexes the key's changed journals, yielding to the event loop between journals. */
  async refresh(keyId: string, signal?: AbortSignal): Promise<number> {
    const stale = await this.engine.all<{ id: string }>(
      `SELECT j.id AS id FROM (SELECT seq, id, revision FROM journals WHERE key_id = ? AND trashed_at IS NULL ORDER BY updated_at DESC LIMIT ${MAX_SEARCHED_JOURNALS}) j
         LEFT JOIN journal_search_state s ON s.journal_seq = j.seq
        WHERE s.revision IS NULL OR s.revision <> j.revision`,
      [keyId],
    );
    let n = 0;
    for (const { id } of stale) {
      signal?.throwIfAborted();
      const row = await this.journals.store.findById(id);
      if (!row) continue;
      const { markdown, revision } = await this.journals.content(row);
      if (await this.index(row, markdown, revision)) n++;
      await yieldToLoop();
    }
    return n;
  }

  /**
   * Replaces the journal's entry. Searches on several instances may index the same journal at
   * once: its state row is created first and locked, so they take turns, and one that finds this
   * revision (or a later one) indexed leaves it (on PostgreSQL two inserts of one rowid would clash).
   */
  private index(row: JournalRow, markdown: string, revision: number): Promise<boolean> {
    return this.engine.transaction(async (tx) => {
      await tx.run('INSERT INTO journal_search_state (journal_seq, revision) VALUES (?, -1) ON CONFLICT (journal_seq) DO NOTHING', [row.seq]);
      const state = await tx.get<{ revision: number }>(`SELECT revision FROM journal_search_state WHERE journal_seq = ?${tx.dialect.forUpdate}`, [row.seq]);
      // Revisions only grow: an instance that read the journal earlier must not go back.
      if (state && state.revision >= revision) return false;
      // Deleted or trashed meanwhile: leave nothing behind.
      if (!(await tx.get('SELECT seq FROM journals WHERE seq = ? AND trashed_at IS NULL', [row.seq]))) {
        await tx.run('DELETE FROM journal_search_state WHERE journal_seq = ?', [row.seq]);
        return false;
      }
      await tx.run('DELETE FROM journal_search WHERE rowid = ?', [row.seq]);
      // NUL (kept in code blocks) cannot be stored as text: indexed as U+FFFD, like the markdown reader reads it.
      await tx.run('INSERT INTO journal_search (rowid, title, body) VALUES (?, ?, ?)', [row.seq, row.title.replaceAll('\0', '\uFFFD'), markdown.replaceAll('\0', '\uFFFD')]);
      await tx.run('UPDATE journal_search_state SET revision = ? WHERE journal_seq = ?', [revision, row.seq]);
      return true;
    });
  }

  /** Excerpts of the key's journals that best match the description (markdown, title first). */
  async excerpts(keyId: string, description: string, signal?: AbortSignal): Promise<string[]> {
    await this.refresh(keyId, signal);
    const words = searchWords(description);
    if (!words.length) return [];
    const ts = this.engine.dialect.textSearch;
    const rows = await this.engine.all<{ title: string; body: string }>(
      `SELECT j.title AS title, s.body AS body
         FROM (${ts.matches('journal_search', [TITLE_WEIGHT, BODY_WEIGHT])}) m
         JOIN journals j ON j.seq = m.hit_rowid
         JOIN journal_search s ON s.rowid = m.hit_rowid
        WHERE j.key_id = ? AND j.trashed_at IS NULL
        ORDER BY m.hit_rank, j.seq LIMIT ${MAX_CONTEXT_JOURNALS}`,
      [ts.anyWord(words), keyId],
    );
    return rows.map((r) => `# ${r.title}\n\n${r.body}`.slice(0, MAX_EXCERPT_CHARS));
  }
}
