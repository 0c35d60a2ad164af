/** Routes of the journal endpoints (endpoints.ts): call the domain, shape the answer. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { route } from '../http/endpoint.ts';
import { idempotencyOf, IdempotencyStore } from '../http/idempotency.ts';
import { listRoute } from '../http/paging.ts';
import { nowIso } from '../time.ts';
import { journalEndpoints as e } from './endpoints.ts';
import type {
  JournalContentResponse,
  JournalCreateResponse,
  JournalDeleteResponse,
  JournalImportResponse,
  JournalModelResponse,
  JournalRenameResponse,
  JournalRestoreResponse,
} from './schema.ts';
import type { JournalService } from './service.ts';
import type { JournalRow } from './store.ts';

/** Where a journal sits (docs/nesting.md) and whether it is published (docs/publishing.md). */
const placeOf = (baseUrl: string) => (j: JournalRow) => ({
  parent_item: j.parent_id ?? '',
  order_index: j.order_index,
  publish_status: j.publish_slug ? ('published' as const) : ('private' as const),
  publish_url: j.publish_slug ? `${baseUrl}/p/${j.publish_slug}` : null,
});

export function journalRoutes(journals: JournalService): Router {
  const r = Router();
  const place = placeOf(journals.publicBaseUrl);

  route(r, e.create, async (call, res) => {
    const { req } = call;
    const b = call.body;
    const p = principalOf(req);
    // Idempotency-Key: a retry with the same body replays this answer and pays nothing again.
    const out = await journals.idempotency.once(p.keyId, idempotencyOf(req, call.raw), async (tx) => {
      const row = await journals.create(p, b.title, chargeFor(req), tx);
      const answer: JournalCreateResponse = { success: true, message: 'Journal created', journal_id: row.id, title: row.title, created_at: row.created_at, timestamp: nowIso() };
      return { status: 200, body: answer };
    });
    res.status(out.status).json(out.body);
  });

  listRoute(r, e.list, 'journals', (n) => `${n} journals`, async (req, token, size) => {
    const page = await journals.list(principalOf(req), token, size);
    return { items: page.journals.map((j) => ({ id: j.id, title: j.title, created_at: j.created_at, updated_at: j.updated_at, ...place(j) })), next: page.next };
  });

  route(r, e.content, async (call, res) => {
    const row = await journals.owned(principalOf(call.req), call.param('journal_id'));
    const { markdown, revision } = await journals.content(row);
    const answer: JournalContentResponse = { success: true, message: null, title: row.title, journal_id: row.id, content: markdown, timestamp: nowIso(), revision, ...place(row) };
    res.json(answer);
  });

  route(r, e.rename, async (call, res) => {
    const b = call.body;
    const row = await journals.rename(principalOf(call.req), b.journal_id, b.title, chargeFor(call.req));
    const answer: JournalRenameResponse = { success: true, message: 'Journal renamed', journal_id: row.id, title: row.title, timestamp: nowIso() };
    res.json(answer);
  });

  route(r, e.delete, async (call, res) => {
    const { permanent } = call.query;
    const { row, markdown, comments, children, trashedAt } = await journals.delete(principalOf(call.req), call.param('journal_id'), chargeFor(call.req), { permanent });
    const answer: JournalDeleteResponse = {
      success: true,
      message: permanent ? 'Journal deleted for good, with its history' : 'Journal moved to the trash',
      timestamp: nowIso(),
      deleted_journal_data: {
        id: row.id,
        type: 'journal',
        title: row.title,
        content: markdown,
        comments,
        created_at: row.created_at,
        is_trashed: true,
        updated_at: row.updated_at,
        font_family: 'default',
        publish_status: row.publish_slug ? 'published' : 'private',
        publish_subdomain: row.publish_slug ?? '',
        color: '',
        trashed_at: trashedAt,
        parent_item: row.parent_id ?? '',
        order_indexes: children.length ? children : null,
        pending_invites: null,
      },
    };
    res.json(answer);
  });

  listRoute(r, e.trash, 'journals', (n) => `${n} journals in the trash`, async (req, token, size) => {
    const page = await journals.trashList(principalOf(req), token, size);
    return { items: page.journals.map((j) => ({ id: j.id, title: j.title, created_at: j.created_at, updated_at: j.updated_at, ...place(j), trashed_at: j.trashed_at })), next: page.next };
  });

  route(r, e.restore, async (call, res) => {
    const row = await journals.restore(principalOf(call.req), call.param('journal_id'), chargeFor(call.req));
    const answer: JournalRestoreResponse = { success: true, message: 'Journal restored from the trash', journal_id: row.id, title: row.title, created_at: row.created_at, updated_at: row.updated_at };
    res.json(answer);
  });

  route(r, e.import, async (call, res) => {
    const { req } = call;
    const b = call.body;
    // Priced per started KiB of markdown (docs/billing.md).
    const kib = Buffer.byteLength(b.markdown) / 1024;
    const p = principalOf(req);
    // Idempotency-Key: a replay skips the conversion too; a first request converts outside the transaction.
    const out = await journals.idempotency.once(
      p.keyId,
      idempotencyOf(req, call.raw),
      async (tx, imported) => {
        const row = await journals.insertImported(p, imported, b.title, b.team_slug || undefined, chargeFor(req, kib), tx);
        const answer: JournalImportResponse = { success: true, message: 'Journal imported', journal_id: row.id, journal_url: journals.journalUrl(row), timestamp: nowIso() };
        return { status: 200, body: answer };
      },
      () => journals.importJournal(b.markdown, p.orgId),
    );
    res.status(out.status).json(out.body);
  });

  route(r, e.edit, async (call, res) => {
    const { req } = call;
    const b = call.body;
    const key = req.get('Idempotency-Key');
    if (key !== undefined) IdempotencyStore.validateKey(key);
    const idem = key !== undefined ? { key, hash: IdempotencyStore.requestHash(req.method, req.path, call.raw) } : undefined;
    const trees = await journals.prepareEdit(principalOf(req), b);
    const out = await journals.edit(principalOf(req), b, idem, chargeFor(req, b.operations.length), trees);
    res.status(out.status).json(out.body);
  });

  route(r, e.model, async (call, res) => {
    const row = await journals.owned(principalOf(call.req), call.param('journal_id'));
    const { model, json, revision } = await journals.model(row);
    if (json !== undefined) {
      // A large journal's model, printed by a worker: spliced in as it is, never parsed here.
      const rest: Omit<JournalModelResponse, 'model'> = { success: true, message: null, timestamp: nowIso(), revision };
      res.type('application/json').send(`{"model":${json},${JSON.stringify(rest).slice(1)}`);
      return;
    }
    const answer: JournalModelResponse = { success: true, model: model as JournalModelResponse['model'], message: null, timestamp: nowIso(), revision };
    res.json(answer);
  });

  return r;
}
