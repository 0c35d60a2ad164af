/**
 * Context for `search_for_problems`: full-text search (SQLite FTS5, porter stemming) over the
 * caller's own journals. The index is brought up to date lazily, when a search needs it: a
 * journal whose revision differs from the indexed one is exported to markdown (the journals
 * domain caches that export by revision) and re-indexed; a trigger of the migration drops the
 * entry of a deleted journal. Only journals of the same key are ever searched.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import type { JournalService } from '../journals/service.ts';
import type { DB } from '../storage/db.ts';

/** The most recently updated journals of a key that a search looks at. */
export const MAX_SEARCHED_JOURNALS = 500;
/** Journals passed on as context, best match first, each cut to MAX_EXCERPT_CHARS. */
export const MAX_CONTEXT_JOURNALS = 5;
export const MAX_EXCERPT_CHARS = 20_000;

const STOP = new Set(
  'the and for with from about into over under that this these those what which who whom how why when where are was were been being have has had not but you your our their its his her they them then than some any all each every more most other such only own same very can will just should now also use using grade level topic topics problems problem questions question practice set sets my notes note please make create'.split(
    ' ',
  ),
);

/** FTS5 query: the description's content words, each quoted (no operator injection), OR-ed. */
export function ftsQuery(description: string): string | undefined {
  const words = [...new Set((description.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)))].slice(0, 16);
  return words.length ? words.map((w) => `"${w}"`).join(' OR ') : undefined;
}

export class JournalSearch {
  private readonly stale: Statement;
  private readonly remove: Statement;
  private readonly insert: Statement;
  private readonly mark: Statement;
  private readonly query: Statement;

  constructor(
    private readonly db: DB,
    private readonly journals: JournalService,
  ) {
    this.stale = db.prepare(
      `SELECT j.id FROM (SELECT seq, id, revision FROM journals WHERE key_id = ? ORDER BY updated_at DESC LIMIT ${MAX_SEARCHED_JOURNALS}) j
         LEFT JOIN journal_search_state s ON s.journal_seq = j.seq
        WHERE s.revision IS NULL OR s.revision <> j.revision`,
    );
    this.remove = db.prepare('DELETE FROM journal_search WHERE rowid = ?');
    this.insert = db.prepare('INSERT INTO journal_search (rowid, title, body) VALUES (?, ?, ?)');
    this.mark = db.prepare(
      `INSERT INTO journal_search_state (journal_seq, revision) VALUES (?, ?)
       ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision`,
    );
    this.query = db.prepare(
      `SELECT j.title AS title, s.body AS body FROM journal_search s JOIN journals j ON j.seq = s.rowid
        WHERE journal_search MATCH ? AND j.key_id = ?
        ORDER BY bm25(journal_search, 4.0, 1.0) LIMIT ${MAX_CONTEXT_JOURNALS}`,
    );
  }

  /** Re-indexes the key's changed journals, yielding to the event loop between journals. */
  async refresh(keyId: string, signal?: AbortSignal): Promise<number> {
    const ids = (this.stale.all(keyId) as { id: string }[]).map((r) => r.id);
    let n = 0;
    for (const id of ids) {
      signal?.throwIfAborted();
      const row = this.journals.store.findById(id);
      if (!row) continue;
      const { markdown, revision } = await this.journals.content(row);
      this.db.transaction(() => {
        this.remove.run(row.seq);
        this.insert.run(row.seq, row.title, markdown);
        this.mark.run(row.seq, revision);
      })();
      n++;
      await yieldToLoop();
    }
    return n;
  }

  /** Excerpts of the key's journals that best match the description (markdown, title first). */
  async excerpts(keyId: string, description: string, signal?: AbortSignal): Promise<string[]> {
    await this.refresh(keyId, signal);
    const q = ftsQuery(description);
    if (!q) return [];
    const rows = this.query.all(q, keyId) as { title: string; body: string }[];
    return rows.map((r) => `# ${r.title}\n\n${r.body}`.slice(0, MAX_EXCERPT_CHARS));
  }
}
