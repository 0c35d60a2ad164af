/**
 * SQL of the journals domain, on either storage engine. Journal state is a compacted snapshot plus
 * an append-only log of Yjs updates; `revision` counts every update ever appended and never goes
 * back. Revisions are assigned by the store of record (`journals.revision`, under its row lock),
 * so writers on several instances never collide.
 */
import type { Queryable, StorageEngine, SyncQueryable } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import { activityRows, runOf, type ActivityRow, type Touches } from './activity.ts';

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
  /** When the journal was moved to the trash; null while it is not. */
  trashed_at: string | null;
  /** Its page is at /p/{publish_slug}; null while private (docs/publishing.md). */
  publish_slug: string | null;
  /** The parent journal's id; null at the top (docs/nesting.md). */
  parent_id: string | null;
  /** Its place among its parent's children; null until first moved. */
  order_index: number | null;
}

export interface StoredState {
  snapshot: Uint8Array | null;
  /** Updates logged after the snapshot, in revision order. */
  updates: Uint8Array[];
  revision: number;
}

export interface LoggedUpdate {
  revision: number;
  data: Uint8Array;
  /** 1: written by a REST edit with sync_realtime_state false. */
  quiet: number;
}

const ROW_COLUMNS = 'seq, id, key_id, org_id, title, team_slug, created_at, updated_at, revision, trashed_at, publish_slug, parent_id, order_index';
/** Rows per multi-row INSERT of updates (well under both engines' parameter limits). */
const INSERT_CHUNK = 200;
type Param = number | string | Uint8Array | null | undefined;
const UPDATE_ROW = '(?, ?, ?, ?)';
/** The common case, one update per journal per commit: one SQL text, one cached statement. */
const INSERT_ONE_UPDATE = `INSERT INTO journal_updates (journal_seq, revision, data, quiet) VALUES ${UPDATE_ROW}`;
const INSERT_ACTIVITY = 'INSERT INTO journal_activity (journal_seq, first_revision, last_revision, actor, at, blocks) VALUES (?, ?, ?, ?, ?, ?)';
/**
 * The revision bump, which also continues the journal's open activity run when this commit does
 * (docs/versions.md: its one actor, its blocks, right after the run's last revision), and answers
 * with the run as it now stands. Consecutive commits whose one actor touched the same blocks
 * share one activity row, kept in the journal's row (which every commit writes anyway) until a
 * commit does not continue it; then it becomes a journal_activity row. A row per commit cost two
 * pages more per journal per commit (issue 33). Decided inside the UPDATE, under the row's lock:
 * on every instance the run a commit continues or ends is the one stored. (SET expressions read
 * the row as it was.)
 */
const CONTINUES = 'activity_actor = ? AND activity_blocks = ? AND activity_last = revision';
const BUMP_REVISION = `UPDATE journals SET revision = revision + ?, updated_at = ?,
  activity_last = CASE WHEN ${CONTINUES} THEN revision + ? ELSE activity_last END,
  activity_at = CASE WHEN ${CONTINUES} THEN ? ELSE activity_at END
  WHERE seq = ? RETURNING revision, activity_first, activity_last, activity_actor, activity_blocks, activity_at`;
const SET_RUN = 'UPDATE journals SET activity_first = ?, activity_last = ?, activity_actor = ?, activity_blocks = ?, activity_at = ? WHERE seq = ?';

/** A journal's row after the revision bump: its revision, and its open activity run as it was. */
interface Bumped {
  revision: number;
  activity_first: number | null;
  activity_last: number | null;
  activity_actor: string | null;
  activity_blocks: string | null;
  activity_at: string | null;
}

type Statement = ['get' | 'run', string, Param[]];

export class JournalStore {
  /**
   * Bytes of journal state this process handed the store: updates appended to logs, snapshots
   * written by compactions (bench/tenants.ts: what the service writes per byte editors send).
   */
  readonly written = { updates: 0, snapshots: 0 };

  constructor(readonly engine: StorageEngine) {}

  /** The new journal at revision 1, its first snapshot written with it. */
  async create(
    q: Queryable,
    row: { id: string; key_id: string; org_id: string; title: string; team_slug: string | null; snapshot: Uint8Array },
  ): Promise<JournalRow> {
    const created_at = nowIso();
    return q.transaction(async (tx) => {
      const created = (await tx.get<JournalRow>(
        `INSERT INTO journals (id, key_id, org_id, title, team_slug, created_at, updated_at, revision)
         VALUES (?, ?, ?, ?, ?, ?, ?, 1) RETURNING ${ROW_COLUMNS}`,
        [row.id, row.key_id, row.org_id, row.title, row.team_slug, created_at, created_at],
      ))!;
      await tx.run('INSERT INTO journal_snapshots (journal_seq, revision, data) VALUES (?, 1, ?)', [created.seq, row.snapshot]);
      return created;
    });
  }

  /**
   * The journal if it exists, is not in the trash and was created by this key; undefined for
   * unknown, trashed and foreign ids alike. `{ trashed: true }`: the same, in the trash only.
   */
  findOwned(id: string, keyId: string, q: Queryable = this.engine, opts: { trashed?: boolean } = {}): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`SELECT ${ROW_COLUMNS} FROM journals WHERE id = ? AND key_id = ? AND trashed_at IS ${opts.trashed ? 'NOT ' : ''}NULL`, [id, keyId]);
  }

  /** A journal not in the trash, whoever created it. */
  findById(id: string, q: Queryable = this.engine): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`SELECT ${ROW_COLUMNS} FROM journals WHERE id = ? AND trashed_at IS NULL`, [id]);
  }

  /** Newest first; `before` is an exclusive keyset cursor on the insertion sequence. `trashed`: the trash instead. */
  page(keyId: string, before: number, limit: number, opts: { trashed?: boolean } = {}): Promise<JournalRow[]> {
    return this.engine.all<JournalRow>(
      `SELECT ${ROW_COLUMNS} FROM journals WHERE key_id = ? AND trashed_at IS ${opts.trashed ? 'NOT ' : ''}NULL AND seq < ? ORDER BY seq DESC LIMIT ?`,
      [keyId, before, limit],
    );
  }

  /**
   * Moves the journal to the trash (its history stays; its search entry goes, and is made again
   * after a restore); undefined when it is gone or already there.
   */
  trash(q: Queryable, seq: number, at: string): Promise<JournalRow | undefined> {
    return q.transaction(async (tx) => {
      const row = await tx.get<JournalRow>(`UPDATE journals SET trashed_at = ? WHERE seq = ? AND trashed_at IS NULL RETURNING ${ROW_COLUMNS}`, [at, seq]);
      if (row) {
        await tx.run('DELETE FROM journal_search WHERE rowid = ?', [seq]);
        await tx.run('DELETE FROM journal_search_state WHERE journal_seq = ?', [seq]);
      }
      return row;
    });
  }

  /** Brings a trashed journal back; undefined when it is not in the trash. */
  untrash(q: Queryable, seq: number): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`UPDATE journals SET trashed_at = NULL WHERE seq = ? AND trashed_at IS NOT NULL RETURNING ${ROW_COLUMNS}`, [seq]);
  }

  /** Journals trashed before `before` (ISO time), oldest first: what the trash sweep purges. */
  trashedBefore(before: string, limit: number): Promise<{ seq: number; id: string }[]> {
    return this.engine.all<{ seq: number; id: string }>('SELECT seq, id FROM journals WHERE trashed_at IS NOT NULL AND trashed_at < ? ORDER BY trashed_at LIMIT ?', [before, limit]);
  }

  /** The renamed row, or undefined when the journal is gone. */
  rename(q: Queryable, seq: number, title: string): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`UPDATE journals SET title = ?, updated_at = ? WHERE seq = ? RETURNING ${ROW_COLUMNS}`, [title, nowIso(), seq]);
  }

  /** Deletes the journal and its history for good (a purge); false when it was already gone. */
  delete(q: Queryable, seq: number): Promise<boolean> {
    return q.transaction(async (tx) => {
      await tx.run('DELETE FROM journal_updates WHERE journal_seq = ?', [seq]);
      await tx.run('DELETE FROM journal_snapshots WHERE journal_seq = ?', [seq]);
      await tx.run('DELETE FROM journal_markdown_cache WHERE journal_seq = ?', [seq]);
      await tx.run('DELETE FROM journal_versions WHERE journal_seq = ?', [seq]);
      await tx.run('DELETE FROM journal_activity WHERE journal_seq = ?', [seq]);
      return (await tx.run('DELETE FROM journals WHERE seq = ?', [seq])).changes > 0;
    });
  }

  // ---- publishing (docs/publishing.md) ----

  /** The published journal at `slug` (not in the trash), whoever created it. */
  findPublished(slug: string, q: Queryable = this.engine): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`SELECT ${ROW_COLUMNS} FROM journals WHERE publish_slug = ? AND trashed_at IS NULL`, [slug]);
  }

  /** Whether another journal holds `slug` (in the trash too: a restore publishes it again). */
  async slugTaken(slug: string, exceptSeq: number, q: Queryable = this.engine): Promise<boolean> {
    return (await q.get('SELECT seq FROM journals WHERE publish_slug = ? AND seq <> ?', [slug, exceptSeq])) !== undefined;
  }

  setPublished(q: Queryable, seq: number, slug: string | null): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`UPDATE journals SET publish_slug = ?, published_at = ? WHERE seq = ? AND trashed_at IS NULL RETURNING ${ROW_COLUMNS}`, [
      slug,
      slug ? nowIso() : null,
      seq,
    ]);
  }

  // ---- nesting (docs/nesting.md) ----

  /** The key's journals under `parentId` (null: the top) not in the trash, in their order. */
  children(keyId: string, parentId: string | null, q: Queryable = this.engine): Promise<JournalRow[]> {
    return q.all<JournalRow>(
      `SELECT ${ROW_COLUMNS} FROM journals WHERE key_id = ? AND parent_id ${parentId === null ? 'IS NULL' : '= ?'} AND trashed_at IS NULL
       ORDER BY CASE WHEN order_index IS NULL THEN 1 ELSE 0 END, order_index, seq`,
      parentId === null ? [keyId] : [keyId, parentId],
    );
  }

  /** The key's journal ids with their parents (the tree, trashed ones included), for cycle and subtree checks. */
  parents(keyId: string, q: Queryable = this.engine): Promise<{ seq: number; id: string; parent_id: string | null; trashed_at: string | null }[]> {
    return q.all('SELECT seq, id, parent_id, trashed_at FROM journals WHERE key_id = ?', [keyId]);
  }

  setPlace(q: Queryable, seq: number, parentId: string | null, orderIndex: number | null): Promise<JournalRow | undefined> {
    return q.get<JournalRow>(`UPDATE journals SET parent_id = ?, order_index = ? WHERE seq = ? RETURNING ${ROW_COLUMNS}`, [parentId, orderIndex, seq]);
  }

  /** Snapshot plus the updates logged after it, in order, read in one transaction; undefined when the journal is gone. */
  loadState(seq: number): Promise<StoredState | undefined> {
    return this.engine.transaction(async (tx) => {
      const journal = await tx.get<{ revision: number }>('SELECT revision FROM journals WHERE seq = ?', [seq]);
      if (!journal) return undefined;
      const snap = await tx.get<{ revision: number; data: Buffer }>('SELECT revision, data FROM journal_snapshots WHERE journal_seq = ?', [seq]);
      const rows = await tx.all<{ revision: number; data: Buffer }>(
        'SELECT revision, data FROM journal_updates WHERE journal_seq = ? AND revision > ? AND revision <= ? ORDER BY revision',
        [seq, snap?.revision ?? 0, journal.revision],
      );
      return { snapshot: snap?.data ?? null, updates: rows.map((r) => r.data), revision: journal.revision };
    });
  }

  /**
   * What another writer committed after `after`, up to `upTo`: the stored snapshot when it is
   * newer than `after` (the log before it is gone), then the logged updates past both, in order.
   */
  stateAfter(seq: number, after: number, upTo: number): Promise<{ snapshot?: { revision: number; data: Uint8Array }; updates: LoggedUpdate[] }> {
    return this.engine.transaction(async (tx) => {
      const snap = await tx.get<{ revision: number }>('SELECT revision FROM journal_snapshots WHERE journal_seq = ?', [seq]);
      let snapshot: { revision: number; data: Uint8Array } | undefined;
      if (snap && snap.revision > after) {
        snapshot = await tx.get<{ revision: number; data: Buffer }>('SELECT revision, data FROM journal_snapshots WHERE journal_seq = ?', [seq]);
      }
      const updates = await this.updatesBetween(seq, Math.max(after, snapshot?.revision ?? 0), upTo, tx);
      return { snapshot, updates };
    });
  }

  /** Updates with revisions in (after, upTo], in order (catching up on other writers). */
  async updatesBetween(seq: number, after: number, upTo: number, q: Queryable = this.engine): Promise<LoggedUpdate[]> {
    return q.all<LoggedUpdate>(
      'SELECT revision, data, quiet FROM journal_updates WHERE journal_seq = ? AND revision > ? AND revision <= ? ORDER BY revision',
      [seq, after, upTo],
    );
  }

  /**
   * Activity recorded for revisions after `after` up to `upTo`, oldest first: journal_activity's
   * rows and the journal's open run. The run is read first: a commit ending it between the two
   * reads moves it into the table, where the second read finds it again (dropped as a duplicate)
   * rather than in neither.
   */
  async activityBetween(seq: number, after: number, upTo: number): Promise<ActivityRow[]> {
    const run = await this.engine.get<ActivityRow>(
      `SELECT activity_first AS first_revision, activity_last AS last_revision, activity_actor AS actor, activity_at AS at, activity_blocks AS blocks
       FROM journals WHERE seq = ? AND activity_actor IS NOT NULL AND activity_last > ? AND activity_first <= ?`,
      [seq, after, upTo],
    );
    const rows = await this.engine.all<ActivityRow>(
      'SELECT first_revision, last_revision, actor, at, blocks FROM journal_activity WHERE journal_seq = ? AND last_revision > ? AND first_revision <= ? ORDER BY first_revision, seq',
      [seq, after, upTo],
    );
    const key = (r: ActivityRow) => `${r.first_revision}:${r.last_revision}:${r.actor}`;
    if (run && !rows.some((r) => key(r) === key(run))) {
      rows.push(run);
      rows.sort((a, b) => Number(a.first_revision) - Number(b.first_revision)); // stable: one commit's rows keep their order
    }
    return rows;
  }

  /**
   * Ends the journal's open activity run (a version is taken: its changes end here, so the run's
   * time is that of its last change before the version).
   */
  endActivityRun(q: Queryable, seq: number): Promise<void> {
    return q.transaction(async (tx) => {
      // Locked first: a commit of another instance cannot continue the run meanwhile.
      const run = await tx.get<Bumped>(
        `SELECT activity_first, activity_last, activity_actor, activity_blocks, activity_at FROM journals WHERE seq = ? AND activity_actor IS NOT NULL${tx.dialect.forUpdate}`,
        [seq],
      );
      if (!run) return;
      await tx.run(INSERT_ACTIVITY, [seq, run.activity_first, run.activity_last, run.activity_actor, run.activity_at, run.activity_blocks]);
      await tx.run(SET_RUN, [null, null, null, null, null, seq]);
    });
  }

  /**
   * Appends updates to a journal's log, in order, with the next revisions of the journal (taken
   * under its row lock). Returns the last revision written, or undefined when the journal is gone.
   * `quiet`: a REST edit with sync_realtime_state false, not pushed to editors (on any instance).
   */
  async appendUpdates(
    q: Queryable,
    seq: number,
    updates: readonly Uint8Array[],
    quiet = false,
    touches?: readonly (Touches | undefined)[],
    /** The commit's time; the group committer takes one for all the journals of its transaction. */
    at = nowIso(),
  ): Promise<number | undefined> {
    const plan = this.appendPlan(seq, updates, quiet, touches, at);
    for (let step = plan.next(); ; ) {
      if (step.done) return step.value;
      const [kind, sql, params] = step.value;
      step = plan.next(kind === 'get' ? await q.get<Bumped>(sql, params) : void (await q.run(sql, params)));
    }
  }

  /** `appendUpdates` inside a synchronous transaction (StorageEngine.transactionSync, SQLite). */
  appendUpdatesSync(q: SyncQueryable, seq: number, updates: readonly Uint8Array[], touches: readonly (Touches | undefined)[] | undefined, at: string): number | undefined {
    const plan = this.appendPlan(seq, updates, false, touches, at);
    for (let step = plan.next(); ; ) {
      if (step.done) return step.value;
      const [kind, sql, params] = step.value;
      step = plan.next(kind === 'get' ? q.get<Bumped>(sql, params) : void q.run(sql, params));
    }
  }

  /**
   * The statements of an append, in order, each told the answer of the one before: the revision
   * bump (continuing the open activity run when it can), the run ended and a new one started when
   * it did not, or the commit's own activity rows, then the log's INSERTs.
   */
  private *appendPlan(
    seq: number,
    updates: readonly Uint8Array[],
    quiet: boolean,
    touches: readonly (Touches | undefined)[] | undefined,
    at: string,
  ): Generator<Statement, number | undefined, Bumped | undefined> {
    const n = updates.length;
    if (n === 0) return undefined;
    const run = touches ? runOf(touches) : undefined;
    const actor = run?.actor ?? null;
    const blocks = run?.blocks ?? null;
    const bumped = yield ['get', BUMP_REVISION, [n, at, actor, blocks, n, actor, blocks, at, seq]];
    if (!bumped) return undefined;
    const last = Number(bumped.revision);
    const first = last - n + 1;
    // Continued: the run now ends at this commit's last revision (it ended before `first` otherwise).
    if (run && Number(bumped.activity_last) !== last) {
      if (bumped.activity_actor !== null) {
        yield ['run', INSERT_ACTIVITY, [seq, bumped.activity_first!, bumped.activity_last!, bumped.activity_actor, bumped.activity_at!, bumped.activity_blocks!]];
      }
      yield ['run', SET_RUN, [first, last, run.actor, run.blocks, at, seq]];
    } else if (touches && !run) {
      // Not one run (several actors, or one not in the first and last update): rows of the commit's
      // own. An open run stays as it is; the next run does not continue it (its last revision is
      // not the one before), so it ends then.
      for (const r of activityRows(first, touches, at)) yield ['run', INSERT_ACTIVITY, [seq, r.first_revision, r.last_revision, r.actor, r.at, r.blocks]];
    }
    const flag = quiet ? 1 : 0;
    if (n === 1) {
      this.written.updates += updates[0]!.byteLength;
      yield ['run', INSERT_ONE_UPDATE, [seq, last, updates[0]!, flag]];
      return last;
    }
    for (let start = 0; start < n; start += INSERT_CHUNK) {
      const chunk = updates.slice(start, start + INSERT_CHUNK);
      for (const u of chunk) this.written.updates += u.byteLength;
      yield ['run', `INSERT INTO journal_updates (journal_seq, revision, data, quiet) VALUES ${chunk.map(() => UPDATE_ROW).join(', ')}`, chunk.flatMap((u, i) => [seq, first + start + i, u, flag])];
    }
    return last;
  }

  /**
   * Replaces the log up to `revision` with `snapshot` (the full state at that revision), unless a
   * snapshot at least as new is already stored (another instance compacted first). Safe with
   * several instances compacting at once: the journal's row lock orders them.
   */
  compact(seq: number, snapshot: Uint8Array, revision: number): Promise<boolean> {
    return this.engine.transaction(async (tx) => {
      const journal = await tx.get(`SELECT seq FROM journals WHERE seq = ?${tx.dialect.forUpdate}`, [seq]);
      if (!journal) return false;
      const stored = await tx.get<{ revision: number }>('SELECT revision FROM journal_snapshots WHERE journal_seq = ?', [seq]);
      if (stored && stored.revision >= revision) return false;
      await tx.run(
        'INSERT INTO journal_snapshots (journal_seq, revision, data) VALUES (?, ?, ?) ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision, data = excluded.data',
        [seq, revision, snapshot],
      );
      await tx.run('DELETE FROM journal_updates WHERE journal_seq = ? AND revision <= ?', [seq, revision]);
      tx.afterCommit(() => (this.written.snapshots += snapshot.byteLength));
      return true;
    });
  }

  /** Current revisions of these journals (absent: deleted), for the periodic re-sync of other instances' updates. */
  async revisions(seqs: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      const rows = await this.engine.all<{ seq: number; revision: number }>(`SELECT seq, revision FROM journals WHERE seq IN (${chunk.map(() => '?').join(', ')})`, chunk);
      for (const r of rows) out.set(r.seq, r.revision);
    }
    return out;
  }

  async logSize(seq: number): Promise<{ count: number; bytes: number }> {
    return (await this.engine.get<{ count: number; bytes: number }>(
      'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(data)), 0) AS bytes FROM journal_updates WHERE journal_seq = ?',
      [seq],
    ))!;
  }

  async cachedMarkdown(seq: number, revision: number): Promise<string | undefined> {
    return (await this.engine.get<{ markdown: string }>('SELECT markdown FROM journal_markdown_cache WHERE journal_seq = ? AND revision = ?', [seq, revision]))
      ?.markdown;
  }

  /**
   * Keeps the newest export only; nothing when the journal is gone. An export holding NUL (a code
   * block or an editor's text may) is not cached: a text column cannot store it on PostgreSQL, and
   * the engines refuse it on both; it is printed again when read (the cache reads by revision, so
   * an older entry is never served for it).
   */
  async saveMarkdownCache(seq: number, revision: number, markdown: string, q: Queryable = this.engine): Promise<void> {
    if (markdown.includes('\0')) return;
    await q.run(
      `INSERT INTO journal_markdown_cache (journal_seq, revision, markdown) SELECT seq, ?, ? FROM journals WHERE seq = ?
       ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision, markdown = excluded.markdown
       WHERE journal_markdown_cache.revision < excluded.revision`,
      [revision, markdown, seq],
    );
  }
}
