/**
 * Version history of journals (docs/versions.md): named and automatic versions, a journal as it
 * was at a version, block-level diffs, and restore as one Yjs transaction committed and broadcast
 * like a REST edit. Versions are taken from the committed document (a settled task of the journal).
 */
import { randomUUID } from 'node:crypto';
import type { Node as PMNode } from 'prosemirror-model';
import { updateYFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../../shared/schema.ts';
import type { Principal } from '../../auth/keys.ts';
import type { Charge } from '../../billing/middleware.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { encodeStateAsUpdateWithoutPending } from '../pending.ts';
import { nowIso } from '../../time.ts';
import type { Queryable, StorageEngine } from '../../storage/engine.ts';
import { RestOrigin, type LiveJournal } from '../live.ts';
import { fragmentToDoc } from '../read-model.ts';
import type { JournalService } from '../service.ts';
import type { ActivityRow } from '../activity.ts';
import type { JournalRow } from '../store.ts';
import type * as z from 'zod';
import { DIFF_PAGE_ENTRIES, versionsDiff, versionsRead, type AttributedDiff, type DiffInput, type DiffPage } from './diff-task.ts';
import { WorkerTimeoutError } from '../../workers/pool.ts';
import { withReadLimit } from '../read-offload.ts';
import type { versionSchema } from './schema.ts';
import { versionsToThin } from './retention.ts';
import { BASE_EVERY, VersionStore, type VersionKind, type VersionRow } from './store.ts';

/** A version as the API answers it (its zod schema is what the OpenAPI document publishes). */
export type VersionView = z.infer<typeof versionSchema>;

/** An actor's changes over a range of revisions (journal_activity). */
export type ChangedBy = NonNullable<VersionView['changed_by']>[number];


/** Activity rows (oldest first) summed per actor. */
export function changedBy(rows: readonly ActivityRow[]): ChangedBy[] {
  const out = new Map<string, ChangedBy & { seen: Set<string> }>();
  for (const r of rows) {
    let c = out.get(r.actor);
    if (!c) {
      const [actor, keyId] = r.actor.includes(':') ? (r.actor.split(':', 2) as [string, string]) : [r.actor, null];
      c = { actor: actor as ChangedBy['actor'], key_id: keyId, blocks: [], last_changed_at: r.at, seen: new Set() };
      out.set(r.actor, c);
    }
    for (const b of JSON.parse(r.blocks) as string[]) {
      if (!c.seen.has(b)) {
        c.seen.add(b);
        c.blocks.push(b);
      }
    }
    if (r.at > c.last_changed_at) c.last_changed_at = r.at;
  }
  return [...out.values()].map(({ seen: _seen, ...c }) => c);
}

export class VersionService {
  readonly store: VersionStore;
  /** Where the last thinning round stopped (a journal seq). */
  private thinCursor = 0;

  constructor(
    private readonly engine: StorageEngine,
    private readonly journals: JournalService,
  ) {
    this.store = new VersionStore(engine);
    journals.beforeBulkEdit = async (live, row, p) => {
      await this.take(live, row.seq, 'auto', 'before bulk edit', p.keyId);
    };
  }

  view(row: VersionRow, journalId: string, changes?: ChangedBy[]): VersionView {
    return {
      version_id: row.id,
      journal_id: journalId,
      name: row.name,
      kind: row.kind,
      created_at: row.created_at,
      created_by: row.created_by,
      revision: Number(row.revision),
      block_count: Number(row.block_count),
      bytes: Number(row.bytes),
      ...(changes ? { changed_by: changes } : {}),
    };
  }

  /** Activity after revision `after` up to `upTo`, per actor. */
  private async changes(journalSeq: number, after: number, upTo: number): Promise<ChangedBy[]> {
    return changedBy(await this.journals.store.activityBetween(journalSeq, Math.min(after, upTo), Math.max(after, upTo)));
  }

  /** A version with who changed what since the version before it. */
  private async viewWithChanges(v: VersionRow, journalId: string): Promise<VersionView> {
    const previous = await this.store.previous(Number(v.journal_seq), Number(v.seq));
    return this.view(v, journalId, await this.changes(Number(v.journal_seq), previous ? Number(previous.revision) : 0, Number(v.revision)));
  }

  /** Takes a version of the live journal as it is committed now; call inside a settled task. */
  private async take(live: LiveJournal, journalSeq: number, kind: VersionKind, name: string | null, createdBy: string, q: Queryable = this.engine): Promise<VersionRow> {
    // The changes before this version end here: a run of them is recorded as it stands.
    await this.journals.store.endActivityRun(q, journalSeq);
    const latest = await this.store.latest(journalSeq, q);
    const base = !latest || latest.sinceBase + 1 >= BASE_EVERY;
    const data = encodeStateAsUpdateWithoutPending(live.doc, base ? undefined : latest.row.state_vector);
    return this.store.insert(q, {
      id: randomUUID(),
      journal_seq: journalSeq,
      name,
      kind,
      created_at: nowIso(),
      created_by: createdBy,
      revision: live.revision,
      block_count: live.fragment.length,
      bytes: data.byteLength,
      base: base ? 1 : 0,
      state_vector: Y.encodeStateVector(live.doc),
      data,
    });
  }

  private async opened(p: Principal, journalId: string): Promise<{ row: JournalRow; live: LiveJournal }> {
    const row = await this.journals.owned(p, journalId);
    return { row, live: await this.journals.live(row) };
  }

  async create(p: Principal, journalId: string, name: string | undefined, charge?: Charge): Promise<VersionView> {
    const { row, live } = await this.opened(p, journalId);
    const taken = await live.settledTask(() =>
      this.engine.transaction(async (tx) => {
        await charge?.(tx);
        return this.take(live, row.seq, 'named', name ?? null, p.keyId, tx);
      }),
    );
    return this.viewWithChanges(taken, row.id);
  }

  /**
   * Checkpoints: an automatic version of every journal edited since its last version that has been
   * quiet for `quietMs` (changes older than a day past that are left: a service that was down
   * does not checkpoint its whole history at start). Safe on several instances: one that finds
   * a version at the journal's revision already leaves it.
   */
  async checkpointQuiet(quietMs: number, now = Date.now()): Promise<number> {
    const due = await this.store.quietJournals(new Date(now - quietMs).toISOString(), new Date(now - quietMs - 86_400_000).toISOString(), 100);
    let taken = 0;
    for (const { id } of due) {
      const row = await this.journals.store.findById(id);
      if (!row) continue;
      const live = await this.journals.live(row).catch(() => undefined);
      if (!live) continue;
      const made = await live.settledTask(async () => {
        const latest = await this.store.latest(row.seq);
        if (latest && Number(latest.row.revision) >= live.revision) return false;
        await this.take(live, row.seq, 'auto', 'checkpoint', 'service');
        return true;
      });
      if (made) taken++;
    }
    return taken;
  }

  /**
   * Thins automatic versions past their retention (retention.ts) for up to `limit` journals;
   * returns how many versions were dropped. Safe on several instances (a version already dropped
   * is skipped).
   */
  async thin(now = Date.now(), limit = 100): Promise<number> {
    let dropped = 0;
    const due = await this.store.journalsToThin(new Date(now - 86_400_000).toISOString(), this.thinCursor, limit);
    // The next round goes on after these, and starts over once it reaches the end.
    this.thinCursor = due.length < limit ? 0 : Number(due[due.length - 1]!.journal_seq);
    for (const { journal_seq, tier } of due) {
      const seqs = versionsToThin(
        (await this.store.retained(Number(journal_seq))).map((v) => ({ ...v, seq: Number(v.seq) })),
        tier,
        now,
      );
      if (seqs.length === 0) continue;
      await this.store.drop(Number(journal_seq), seqs);
      dropped += seqs.length;
    }
    return dropped;
  }

  async list(p: Principal, journalId: string, pageToken: number | undefined, pageSize: number): Promise<{ versions: VersionView[]; next?: number }> {
    const row = await this.journals.owned(p, journalId);
    const rows = await this.store.page(row.seq, pageToken ?? Number.MAX_SAFE_INTEGER, pageSize + 1);
    const more = rows.length > pageSize;
    const page = more ? rows.slice(0, pageSize) : rows;
    // Each version's changes run from the revision of the one before it (the next row, older).
    const oldest = more ? Number(rows[pageSize]!.revision) : 0;
    const activity = page.length ? await this.journals.store.activityBetween(row.seq, oldest, Number(page[0]!.revision)) : [];
    const versions = page.map((v, i) => {
      const from = i + 1 < rows.length ? Number(rows[i + 1]!.revision) : 0;
      const to = Number(v.revision);
      return this.view(v, row.id, changedBy(activity.filter((a) => Number(a.last_revision) > from && Number(a.first_revision) <= to)));
    });
    return { versions, next: more ? Number(page[page.length - 1]!.seq) : undefined };
  }

  /** The journal as it was at a version. */
  private async materialize(journalSeq: number, version: VersionRow): Promise<PMNode> {
    const ydoc = new Y.Doc();
    try {
      for (const update of await this.store.chain(journalSeq, Number(version.seq))) Y.applyUpdate(ydoc, update);
      return fragmentToDoc(ydoc.getXmlFragment(FRAGMENT_NAME)).doc;
    } finally {
      ydoc.destroy();
    }
  }

  private async version(row: JournalRow, versionId: string): Promise<VersionRow> {
    const v = await this.store.find(row.seq, versionId);
    if (!v) throw notFound('Version');
    return v;
  }

  /**
   * A version with its markdown and/or its model (as JSON text), read in a worker thread: both
   * grow with the journal.
   */
  async get(p: Principal, journalId: string, versionId: string, want: { markdown: boolean; model: boolean }): Promise<{ version: VersionView; markdown?: string; modelJson?: string }> {
    const row = await this.journals.owned(p, journalId);
    const v = await this.version(row, versionId);
    const updates = await this.store.chain(row.seq, Number(v.seq));
    const pool = this.journals.markdown.pool;
    const bytes = updates.reduce((n, u) => n + u.byteLength, 0);
    const read = await withReadLimit(pool.run(versionsRead, { updates, ...want }, pool.timeLimitMs(bytes)), ['path', 'version_id']);
    return { version: await this.viewWithChanges(v, row.id), ...read };
  }

  /**
   * Block-level changes from one version to another, or to the journal as it is committed now
   * (`current`), each with who changed the block in between; `changed_by` sums them per actor.
   * Computed whole in a worker thread (diff-task.ts), and answered one page at a time: `offset`
   * entries in (added, removed, changed, moved, in that order), at most `pageSize` entries and
   * about DIFF_PAGE_BYTES of markdown.
   */
  async diff(
    p: Principal,
    journalId: string,
    fromId: string,
    toId: string,
    page: { offset: number; pageSize: number } = { offset: 0, pageSize: DIFF_PAGE_ENTRIES },
  ): Promise<{ from: VersionView; to: VersionView | 'current'; diff: AttributedDiff; changed_by: ChangedBy[]; total: number; next?: number }> {
    const row = await this.journals.owned(p, journalId);
    const from = await this.version(row, fromId);
    const to = toId === 'current' ? undefined : await this.version(row, toId);
    const fromUpdates = await this.store.chain(row.seq, Number(from.seq));
    let toUpdates: Uint8Array[];
    let toRevision: number;
    if (to) {
      toUpdates = await this.store.chain(row.seq, Number(to.seq));
      toRevision = Number(to.revision);
    } else {
      // What is committed now, read from the store: the journal need not be loaded.
      const state = await this.journals.store.loadState(row.seq);
      if (!state) throw notFound('Journal');
      toUpdates = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
      toRevision = state.revision;
    }
    const changes = await this.changes(row.seq, Number(from.revision), toRevision);
    const input: DiffInput = { from: fromUpdates, to: toUpdates, changes, ...page };
    const bytes = [...fromUpdates, ...toUpdates].reduce((n, u) => n + u.byteLength, 0);
    let out: DiffPage;
    try {
      out = await this.journals.markdown.pool.run(versionsDiff, input, this.journals.markdown.pool.timeLimitMs(bytes));
    } catch (err) {
      if (err instanceof WorkerTimeoutError) {
        throw invalid(['query', 'to'], `the diff could not be computed within its time limit (${(err.limitMs / 1000).toFixed(1)} s for journals of this size); diff versions closer together`);
      }
      throw err;
    }
    return { from: this.view(from, row.id), to: to ? this.view(to, row.id) : 'current', diff: out.diff, changed_by: changes, total: out.total, ...(out.next !== undefined ? { next: out.next } : {}) };
  }

  /**
   * Makes the journal equal to a version in one Yjs transaction, committed then broadcast like a
   * REST edit (`syncRealtime`: editors get it at once). Blocks that still exist keep their ids
   * (y-prosemirror's updateYFragment changes only what differs). The state before is kept as an
   * automatic version and the restore is a version itself, so a restore can be undone by restoring
   * the one before it. Editors' own undo stacks do not see it (a remote change to them).
   */
  async restore(p: Principal, journalId: string, versionId: string, syncRealtime: boolean, charge?: Charge): Promise<{ version: VersionView; revision: number; before: VersionView }> {
    const { row, live } = await this.opened(p, journalId);
    const target = await this.materialize(row.seq, await this.version(row, versionId));
    return live.settledTask(async () => {
      const before = await this.take(live, row.seq, 'auto', 'before restore', p.keyId);
      const origin = new RestOrigin(syncRealtime, `api_key:${p.keyId}`);
      let updates: Uint8Array[] | undefined;
      let revision = live.revision;
      try {
        await this.engine.transaction(async (tx) => {
          await charge?.(tx);
          updates ??= live.captureChanges(() =>
            live.doc.transact(() => updateYFragment(live.doc, live.fragment, target, { mapping: new Map(), isOMark: new Map() }), origin),
          );
          if (updates.length === 0) return;
          const last = await this.journals.store.appendUpdates(tx, row.seq, updates, !syncRealtime, live.touchesFor(updates));
          if (last === undefined) throw notFound('Journal');
          revision = last;
        });
      } catch (err) {
        // The store rolled back, but the Y.Doc cannot: the journal reloads from the store.
        if (updates?.length) live.abandonOwn(err);
        throw err;
      }
      if (updates?.length) live.commitOwn(updates, origin, revision);
      const restored = await this.take(live, row.seq, 'restore', `restore of ${versionId}`, p.keyId);
      return { version: this.view(restored, row.id), revision, before: this.view(before, row.id) };
    });
  }
}
