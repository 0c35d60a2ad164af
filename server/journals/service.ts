/**
 * The journals domain: every endpoint's logic, independent of HTTP. A key reaches only the
 * journals it created; unknown and foreign ids are the same 404.
 */
import { randomUUID } from 'node:crypto';
import type { Node as PMNode } from 'prosemirror-model';
import { newBlockId } from '../../shared/ids.ts';
import { schema } from '../../shared/schema.ts';
import type { Principal } from '../auth/keys.ts';
import type { Charge } from '../billing/middleware.ts';
import { HttpError, invalid, notFound } from '../http/errors.ts';
import { nowIso } from '../time.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import { applyPlan } from './edit/apply.ts';
import { MarkdownLimitError } from '../../shared/markdown/index.ts';
import { NODE_TYPES, type EditNodeType, type EditRequest } from './edit/operations.ts';
import { markdownTexts } from './edit/payloads.ts';
import { planEdit, type OperationResult } from './edit/plan.ts';
import { IdempotencyRace, IdempotencyStore, type StoredResponse } from '../http/idempotency.ts';
import { RestOrigin, type LiveJournal } from './live.ts';
import type { MarkdownConverter, ParsedTexts } from './markdown-offload.ts';
import { exportMarkdown, LargeBlock, logIssues } from './markdown-export.ts';
import { journalExport, journalModel, LARGE_READ_BYTES, readInWorker, stateBytes, type ReadTally } from './read-offload.ts';
import { fragmentToDoc, readIssuesForLog } from './read-model.ts';
import type { Logger } from '../logger.ts';
import { docToSnapshot, type ImportedJournal } from './snapshot.ts';
import { readComments } from './comments/read.ts';
import { descendants } from './nesting/tree.ts';
import type { CommentView } from './comments/schema.ts';
import type { JournalRegistry } from './registry.ts';
import type { JournalRow, JournalStore, StoredState } from './store.ts';

export const DEFAULT_TITLE = 'Untitled Journal';
export const DEFAULT_IMPORT_TITLE = 'Imported Journal';

export interface EditOutcome {
  success: boolean;
  journal_id: string;
  results: OperationResult[];
  message: string;
  timestamp: string;
  revision: number;
  applied: boolean;
  dry_run: boolean;
}

export class JournalService {
  /** Idempotency-Key records of this service's edits, and of every create (routes call `once`). */
  readonly idempotency: IdempotencyStore;

  /**
   * Called inside the edit's settled task before an atomic edit, or one of more than
   * BULK_EDIT_OPERATIONS operations, changes the journal: version history keeps the state before
   * (server/journals/versions, which sets it; the journals domain does not depend on it).
   */
  beforeBulkEdit?: (live: LiveJournal, row: JournalRow, p: Principal) => Promise<void>;

  constructor(
    private readonly engine: StorageEngine,
    readonly store: JournalStore,
    readonly registry: JournalRegistry,
    readonly publicBaseUrl: string,
    readonly markdown: MarkdownConverter,
    private readonly logger?: Logger,
  ) {
    this.idempotency = new IdempotencyStore(engine);
  }

  journalUrl(row: JournalRow): string {
    const url = `${this.publicBaseUrl}/journals/${row.id}`;
    return row.team_slug ? `${url}?team=${encodeURIComponent(row.team_slug)}` : url;
  }

  async owned(p: Principal, id: string): Promise<JournalRow> {
    const row = await this.store.findOwned(id, p.keyId);
    if (!row) throw notFound('Journal');
    return row;
  }

  /**
   * The loaded journal of a row, holding at least the row's revision (what other instances
   * committed before the row was read is caught up from the log); 404 when it was deleted.
   */
  async live(row: JournalRow): Promise<LiveJournal> {
    const live = await this.registry.open(row);
    if (!live) throw notFound('Journal');
    if (row.revision > live.revision) await live.syncTo(row.revision);
    return live;
  }

  /** Inserts in `q`'s transaction when given (an Idempotency-Key's, see `idempotency.once`). */
  private insertJournal(p: Principal, title: string, snapshot: Uint8Array, teamSlug: string | null, charge?: Charge, q: Queryable = this.engine): Promise<JournalRow> {
    return q.transaction(async (tx) => {
      await charge?.(tx);
      return this.store.create(tx, { id: randomUUID(), key_id: p.keyId, org_id: p.orgId, title, team_slug: teamSlug, snapshot });
    });
  }

  create(p: Principal, title: string | undefined, charge?: Charge, q?: Queryable): Promise<JournalRow> {
    const doc = schema.topNodeType.create(null, schema.nodes.paragraph!.create({ id: newBlockId() }));
    return this.insertJournal(p, title ?? DEFAULT_TITLE, docToSnapshot(doc), null, charge, q);
  }

  /** Imports `markdown` as a new journal; 422 when it is past the time or nesting limit. */
  async importMarkdown(p: Principal, markdown: string, title: string | undefined, teamSlug: string | undefined, charge?: Charge): Promise<JournalRow> {
    return this.insertImported(p, await this.importJournal(markdown, p.orgId), title, teamSlug, charge);
  }

  // ---- import in two steps, for Idempotency-Key (the conversion runs outside the transaction) ----

  /**
   * The Yjs snapshot of `markdown` and its export; 422 when it is past the time or nesting limit.
   * `orgId`: the organization whose turn a conversion in the worker pool waits for.
   */
  async importJournal(markdown: string, orgId?: string): Promise<ImportedJournal> {
    try {
      return await this.markdown.toJournal(markdown, orgId);
    } catch (err) {
      if (err instanceof MarkdownLimitError) throw invalid(['body', 'markdown'], err.message, 'value_error.markdown_limit');
      throw err;
    }
  }

  /** Stores an imported journal with its export cached: the first read after an import prints nothing. */
  insertImported(p: Principal, imported: ImportedJournal, title: string | undefined, teamSlug: string | undefined, charge?: Charge, q: Queryable = this.engine): Promise<JournalRow> {
    return q.transaction(async (tx) => {
      const row = await this.insertJournal(p, title ?? DEFAULT_IMPORT_TITLE, imported.snapshot, teamSlug ?? null, charge, tx);
      await this.store.saveMarkdownCache(row.seq, row.revision, imported.markdown, tx);
      return row;
    });
  }

  async list(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ journals: JournalRow[]; next?: number }> {
    const rows = await this.store.page(p.keyId, pageToken ?? Number.MAX_SAFE_INTEGER, pageSize + 1);
    const more = rows.length > pageSize;
    const journals = more ? rows.slice(0, pageSize) : rows;
    return { journals, next: more ? journals[journals.length - 1]!.seq : undefined };
  }

  async rename(p: Principal, id: string, title: string, charge?: Charge): Promise<JournalRow> {
    const row = await this.owned(p, id);
    const renamed = await this.engine.transaction(async (tx) => {
      await charge?.(tx);
      return this.store.rename(tx, row.seq, title);
    });
    if (!renamed) throw notFound('Journal');
    return renamed;
  }

  /** Markdown of the whole journal, cached by revision in memory and in the store. */
  async content(row: JournalRow): Promise<{ markdown: string; revision: number }> {
    const loaded = this.registry.get(row.id);
    if (loaded?.settled && loaded.revision >= row.revision) {
      const hot = loaded.cachedMarkdown();
      if (hot !== undefined) return { markdown: hot, revision: loaded.revision };
    }
    if (!loaded) {
      const cold = await this.store.cachedMarkdown(row.seq, row.revision);
      if (cold !== undefined) return { markdown: cold, revision: row.revision };
    }
    // A large journal that is not loaded is printed in a worker from its stored state, without
    // loading it here (loading alone costs the main thread about 0.2 ms per KiB).
    const large = loaded ? undefined : await this.largeState(row, undefined);
    if (large) return this.contentInWorker(row, large, undefined);
    const live = await this.live(row);
    // Printed from the committed document, which stays as it is until the task ends; only the
    // blocks changed since the last export are read again (markdown-export.ts).
    const printed = await live.settledTask(async () => {
      const hot = live.cachedMarkdown();
      if (hot !== undefined) return { markdown: hot, revision: live.revision, cached: true };
      // Editors wait for the task; a change from another instance may still land between two
      // slices, and then the export is read again (cheaply: unchanged blocks are kept).
      try {
        for (;;) {
          const revision = live.revision;
          const markdown = await exportMarkdown(live, this.logger);
          if (live.revision === revision) return { markdown, revision, cached: false };
        }
      } catch (err) {
        if (err instanceof LargeBlock) return undefined;
        throw err;
      }
    });
    if (!printed) {
      // A block too large to print within a slice: the whole journal is printed in a worker.
      const state = await this.store.loadState(row.seq);
      if (!state) throw notFound('Journal');
      return this.contentInWorker(row, state, live);
    }
    const { markdown, revision, cached } = printed;
    if (cached) return { markdown, revision };
    live.cacheMarkdown(revision, markdown);
    await this.store.saveMarkdownCache(row.seq, revision, markdown);
    return { markdown, revision };
  }

  /** Prints a stored state in a worker, and keeps the markdown as the export of its revision. */
  private async contentInWorker(row: JournalRow, state: StoredState, live: LiveJournal | undefined): Promise<{ markdown: string; revision: number }> {
    const { markdown, tally } = await readInWorker<{ markdown: string; tally: ReadTally }>(this.markdown.pool, journalExport, state);
    logIssues(row.id, state.revision, tally, this.logger, live ?? row);
    if (live && live.revision === state.revision) live.cacheMarkdown(state.revision, markdown);
    await this.store.saveMarkdownCache(row.seq, state.revision, markdown);
    return { markdown, revision: state.revision };
  }

  /**
   * The block model. A large journal's comes back from a worker as JSON text (`json`), for the
   * route to send as it is; a small one's as the object (`model`).
   */
  async model(row: JournalRow): Promise<{ model?: unknown; json?: string; revision: number }> {
    const loaded = this.registry.get(row.id);
    const large = await this.largeState(row, loaded);
    if (large) {
      const { json, tally } = await readInWorker<{ json: string; tally: ReadTally }>(this.markdown.pool, journalModel, large);
      logIssues(row.id, large.revision, tally, this.logger, loaded ?? row);
      return { json, revision: large.revision };
    }
    const live = await this.live(row);
    return live.settledTask(() => ({ model: journalDoc(live, this.logger).toJSON(), revision: live.revision }));
  }

  /**
   * The stored state of a journal too large to read on the main thread (LARGE_READ_BYTES,
   * read-offload.ts), or undefined for one small enough. A loaded journal's size is known
   * without reading the store.
   */
  private async largeState(row: JournalRow, loaded: LiveJournal | undefined): Promise<StoredState | undefined> {
    if (loaded && loaded.stateBytes < LARGE_READ_BYTES) return undefined;
    const state = await this.store.loadState(row.seq);
    if (!state) throw notFound('Journal');
    return stateBytes(state) >= LARGE_READ_BYTES ? state : undefined;
  }

  /**
   * Moves the journal to the trash (its history stays; it answers 404 everywhere but the trash
   * and restore), or with `permanent` purges it and its history at once, from the trash too.
   * Its editors are closed either way.
   */
  async delete(
    p: Principal,
    id: string,
    charge?: Charge,
    opts: { permanent?: boolean } = {},
  ): Promise<{ row: JournalRow; markdown: string; comments: CommentView[]; children: string[]; trashedAt: string }> {
    const row = (await this.store.findOwned(id, p.keyId)) ?? (opts.permanent ? await this.store.findOwned(id, p.keyId, this.engine, { trashed: true }) : undefined);
    if (!row) throw notFound('Journal');
    const { markdown } = await this.content(row);
    const live = await this.live(row);
    const comments = await live.settledTask(() => readComments(live));
    const children = (await this.store.children(p.keyId, row.id)).map((c) => c.id);
    const at = row.trashed_at ?? nowIso();
    // The charge comes first: when it is refused (402) nothing is deleted. The journal's subtree
    // goes with it (docs/nesting.md): to the trash with the same trashed_at, or purged.
    let subtree: { seq: number; id: string }[] = [];
    const done = await this.engine.transaction(async (tx) => {
      await charge?.(tx);
      const links = await this.store.parents(p.keyId, tx);
      const under = new Set(descendants(links, row.id));
      subtree = links.filter((l) => under.has(l.id) && (opts.permanent || l.trashed_at === null));
      if (opts.permanent) {
        for (const d of subtree) await this.store.delete(tx, d.seq);
        return this.store.delete(tx, row.seq);
      }
      if ((await this.store.trash(tx, row.seq, at)) === undefined) return false;
      for (const d of subtree) await this.store.trash(tx, d.seq, at);
      return true;
      // A move into the subtree at the same time must not leave a child behind.
    }, { immediate: true });
    // Another request may have deleted it meanwhile: that one answered, this one is a 404.
    if (!done) throw notFound('Journal');
    this.registry.deleted(row.id);
    for (const d of subtree) this.registry.deleted(d.id);
    return { row, markdown, comments, children, trashedAt: at };
  }

  /** The key's trashed journals, newest first. */
  async trashList(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ journals: JournalRow[]; next?: number }> {
    const rows = await this.store.page(p.keyId, pageToken ?? Number.MAX_SAFE_INTEGER, pageSize + 1, { trashed: true });
    const more = rows.length > pageSize;
    const journals = more ? rows.slice(0, pageSize) : rows;
    return { journals, next: more ? journals[journals.length - 1]!.seq : undefined };
  }

  /**
   * Brings a journal back from the trash with its history, and the journals of its subtree that
   * went to the trash with it (same trashed_at). A journal whose parent is not there (in the trash,
   * or gone) comes back at the top.
   */
  async restore(p: Principal, id: string, charge?: Charge): Promise<JournalRow> {
    const row = await this.store.findOwned(id, p.keyId, this.engine, { trashed: true });
    if (!row) throw notFound('Journal in the trash');
    const restored = await this.engine.transaction(async (tx) => {
      await charge?.(tx);
      let back = await this.store.untrash(tx, row.seq);
      if (!back) return undefined;
      const links = await this.store.parents(p.keyId, tx);
      const under = new Set(descendants(links, row.id));
      for (const d of links) if (under.has(d.id) && d.trashed_at === row.trashed_at) await this.store.untrash(tx, d.seq);
      const parent = row.parent_id ? links.find((l) => l.id === row.parent_id) : undefined;
      if (row.parent_id && (!parent || parent.trashed_at !== null)) back = await this.store.setPlace(tx, row.seq, null, null);
      return back;
    });
    if (!restored) throw notFound('Journal in the trash');
    return restored;
  }

  /**
   * Purges journals trashed longer than `retentionMs` (the trash sweep); returns how many.
   * Safe on several instances at once: a purge of a journal already gone changes nothing.
   */
  async purgeTrash(retentionMs: number, now = Date.now()): Promise<number> {
    let purged = 0;
    for (;;) {
      const due = await this.store.trashedBefore(new Date(now - retentionMs).toISOString(), 100);
      for (const { seq, id } of due) {
        if (await this.store.delete(this.engine, seq)) purged++;
        this.registry.deleted(id);
      }
      if (due.length < 100) return purged;
    }
  }

  /**
   * Parses the markdown of an edit's operations ahead of planning, off the event loop when large,
   * within the time limit for its size (422 past it or past the nesting limit). Block kinds of
   * update_node without nodeType are read from the journal as it is now.
   */
  async prepareEdit(p: Principal, req: EditRequest): Promise<ParsedTexts> {
    const row = await this.store.findOwned(req.journal_id, p.keyId);
    const live = row ? await this.live(row) : undefined;
    const texts: string[] = [];
    req.operations.forEach((op, i) => {
      if (op.type === 'delete_node') return;
      const nodeType = op.nodeType ?? (live?.blocks.find(op.nodeId)?.nodeName as EditNodeType | undefined);
      if (nodeType && (NODE_TYPES as readonly string[]).includes(nodeType)) {
        texts.push(...markdownTexts(nodeType, op.params, ['body', 'operations', i, 'params']));
      }
    });
    try {
      return await this.markdown.parseAll(texts, p.orgId);
    } catch (err) {
      if (err instanceof MarkdownLimitError) throw invalid(['body', 'operations'], err.message, 'value_error.markdown_limit');
      throw err;
    }
  }

  /**
   * Applies an edit on the committed document (a settled task of the journal: no other change
   * interleaves between the revision check, the plan and the commit). The charge, the Yjs
   * transaction's updates and the idempotency record commit in one transaction before this
   * returns; only then are the updates broadcast.
   */
  async edit(
    p: Principal,
    req: EditRequest,
    idempotency?: { key: string; hash: string },
    charge?: Charge,
    trees?: ParsedTexts,
  ): Promise<StoredResponse> {
    if (idempotency) {
      const replay = await this.idempotency.lookup(p.keyId, idempotency.key, idempotency.hash);
      if (replay) return replay;
    }
    const row = await this.owned(p, req.journal_id);
    const live = await this.live(row);
    return live.settledTask(async () => {
      if (req.expected_revision !== undefined && req.expected_revision !== live.revision) {
        throw new HttpError(409, `The journal is at revision ${live.revision}, not ${req.expected_revision}`, {
          current_revision: live.revision,
        });
      }
      const newId = () => newBlockId();
      const plan = await planEdit(live, req.operations, newId, trees);
      const atomicFailure = req.atomic && plan.failed > 0;
      if (atomicFailure) {
        const first = plan.results.findIndex((r) => !r.success);
        for (const r of plan.results) {
          if (r.success) {
            r.success = false;
            r.error = `not applied: the request is atomic and operation ${first} failed`;
          }
        }
      }
      const apply = !req.dry_run && !atomicFailure && plan.actions.length > 0;
      if (apply && (req.atomic || req.operations.length > BULK_EDIT_OPERATIONS)) await this.beforeBulkEdit?.(live, row, p);
      const origin = new RestOrigin(req.sync_realtime_state, `api_key:${p.keyId}`);
      // Captured once: on PostgreSQL the transaction function may run again, the Y.Doc change must not.
      let updates: Uint8Array[] | undefined;
      let revision = live.revision;
      let response: StoredResponse;
      try {
        response = await this.engine.transaction(async (tx) => {
          const record = idempotency && !req.dry_run;
          if (record) await this.idempotency.claim(tx, p.keyId, idempotency.key, idempotency.hash);
          // Before the change, so that a refused charge (402) leaves the Y.Doc untouched. A replay above pays nothing.
          await charge?.(tx);
          if (apply) {
            updates ??= live.captureChanges(() => live.doc.transact((tr) => applyPlan(live, plan.actions, tr, newId), origin));
            const last = await this.store.appendUpdates(tx, row.seq, updates, !req.sync_realtime_state, live.touchesFor(updates));
            if (last === undefined) throw notFound('Journal');
            revision = last;
          }
          const res = { status: 200, body: this.editBody(req, plan.results, plan.failed, revision, apply) };
          if (record) await this.idempotency.save(tx, p.keyId, idempotency.key, res);
          return res;
        });
      } catch (err) {
        // The store rolled back, but the Y.Doc cannot: the journal reloads from the store.
        if (updates) live.abandonOwn(err);
        // The same key committed first elsewhere (found before anything was changed here).
        if (err instanceof IdempotencyRace && idempotency) {
          const replay = await this.idempotency.lookup(p.keyId, idempotency.key, idempotency.hash);
          if (replay) return replay;
        }
        throw err;
      }
      if (updates?.length) live.commitOwn(updates, origin, revision);
      return response;
    });
  }

  private editBody(req: EditRequest, results: OperationResult[], failed: number, revision: number, applied: boolean): EditOutcome {
    const total = results.length;
    const ok = total - failed;
    let message: string;
    if (req.dry_run) message = `Dry run: ${ok} of ${total} operations would apply; nothing was changed`;
    else if (req.atomic && failed > 0) message = `Atomic edit rejected: ${failed} of ${total} operations failed; nothing was changed`;
    else message = `${ok} of ${total} operations applied`;
    return {
      success: failed === 0,
      journal_id: req.journal_id,
      results,
      message,
      timestamp: nowIso(),
      revision,
      applied,
      dry_run: req.dry_run,
    };
  }
}

const loggedRevision = new WeakMap<LiveJournal, number>();

/** Edits with more operations than this (or atomic ones) get an automatic version before them. */
export const BULK_EDIT_OPERATIONS = 50;

/**
 * The journal as a ProseMirror document, for every read path. Never throws and never writes:
 * what the schema cannot hold (editors can send anything) is left out, and logged once per
 * revision (read-model.ts).
 */
export function journalDoc(live: LiveJournal, logger?: Logger): PMNode {
  const read = fragmentToDoc(live.fragment);
  const issues = readIssuesForLog(read);
  if (issues && logger && loggedRevision.get(live) !== live.revision) {
    loggedRevision.set(live, live.revision);
    logger.warn({ journal_id: live.id, revision: live.revision, ...issues }, 'content the schema cannot hold was left out of a read');
  }
  return read.doc;
}
