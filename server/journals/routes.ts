/** HTTP routes of the journal endpoints (spec endpoints 1-8): parse, call the domain, shape. */
import { Router, type Request } from 'express';
import * as z from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { parseOr422 } from '../http/errors.ts';
import { pageQuery } from '../http/paging.ts';
import { nowIso } from '../time.ts';
import { editRequest } from './edit/operations.ts';
import { idempotencyOf, IdempotencyStore } from '../http/idempotency.ts';
import type {
  JournalContentResponse,
  JournalCreateResponse,
  JournalDeleteResponse,
  JournalImportResponse,
  JournalListResponse,
  JournalModelResponse,
  JournalRenameResponse,
  JournalRestoreResponse,
  JournalTrashResponse,
} from './schema.ts';
import type { JournalService } from './service.ts';

export const MAX_TITLE = 300;
export const MAX_MARKDOWN_BYTES = 1024 * 1024;

const title = z
  .string()
  .max(MAX_TITLE, `title is limited to ${MAX_TITLE} characters`)
  .refine((t) => t.trim().length > 0, 'title must not be blank');
const journalId = z.string().min(1).max(100);

export const createBody = z.object({ title: title.optional() });
export const renameBody = z.object({ journal_id: journalId, title });
export const importBody = z.object({
  markdown: z
    .string()
    .refine((m) => Buffer.byteLength(m) <= MAX_MARKDOWN_BYTES, `markdown is limited to ${MAX_MARKDOWN_BYTES} bytes (1 MiB)`),
  title: title.optional(),
  team_slug: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, 'team_slug may hold letters, digits, - and _').optional(),
});

export const deleteQuery = z.object({
  permanent: z
    .enum(['true', 'false'], { message: "permanent must be 'true' or 'false'" })
    .optional()
    .transform((v) => v === 'true'),
});

/** A JSON body must be an object; a missing body counts as an empty one. */
function body(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}

export function journalRoutes(journals: JournalService): Router {
  const r = Router();

  r.put('/journals/editor/create', async (req, res) => {
    const raw = body(req);
    const b = parseOr422(createBody, raw, ['body']);
    const p = principalOf(req);
    // Idempotency-Key: a retry with the same body replays this answer and pays nothing again.
    const out = await journals.idempotency.once(p.keyId, idempotencyOf(req, raw), async (tx) => {
      const row = await journals.create(p, b.title, chargeFor(req), tx);
      const answer: JournalCreateResponse = { success: true, message: 'Journal created', journal_id: row.id, title: row.title, created_at: row.created_at, timestamp: nowIso() };
      return { status: 200, body: answer };
    });
    res.status(out.status).json(out.body);
  });

  r.get('/journals/list', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await journals.list(principalOf(req), q.page_token, q.page_size);
    const answer: JournalListResponse = {
      success: true,
      message: `${page.journals.length} journals`,
      journals: page.journals.map((j) => ({ id: j.id, title: j.title, created_at: j.created_at, updated_at: j.updated_at })),
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
    res.json(answer);
  });

  r.get('/journals/content/:journal_id', async (req, res) => {
    const row = await journals.owned(principalOf(req), req.params.journal_id);
    const { markdown, revision } = await journals.content(row);
    const answer: JournalContentResponse = { success: true, message: null, title: row.title, journal_id: row.id, content: markdown, timestamp: nowIso(), revision };
    res.json(answer);
  });

  r.patch('/journals/editor/rename', async (req, res) => {
    const b = parseOr422(renameBody, body(req), ['body']);
    const row = await journals.rename(principalOf(req), b.journal_id, b.title, chargeFor(req));
    const answer: JournalRenameResponse = { success: true, message: 'Journal renamed', journal_id: row.id, title: row.title, timestamp: nowIso() };
    res.json(answer);
  });

  r.delete('/journals/editor/delete/:journal_id', async (req, res) => {
    const { permanent } = parseOr422(deleteQuery, req.query, ['query']);
    const { row, markdown, trashedAt } = await journals.delete(principalOf(req), req.params.journal_id, chargeFor(req), { permanent });
    const answer: JournalDeleteResponse = {
      success: true,
      message: permanent ? 'Journal deleted for good, with its history' : 'Journal moved to the trash',
      timestamp: nowIso(),
      deleted_journal_data: {
        id: row.id,
        type: 'journal',
        title: row.title,
        content: markdown,
        comments: [],
        created_at: row.created_at,
        is_trashed: true,
        updated_at: row.updated_at,
        font_family: 'default',
        publish_status: 'private',
        publish_subdomain: '',
        color: '',
        trashed_at: trashedAt,
        parent_item: '',
        order_indexes: null,
        pending_invites: null,
      },
    };
    res.json(answer);
  });

  r.get('/journals/trash', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await journals.trashList(principalOf(req), q.page_token, q.page_size);
    const answer: JournalTrashResponse = {
      success: true,
      message: `${page.journals.length} journals in the trash`,
      journals: page.journals.map((j) => ({ id: j.id, title: j.title, created_at: j.created_at, updated_at: j.updated_at, trashed_at: j.trashed_at })),
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
    res.json(answer);
  });

  r.post('/journals/editor/restore/:journal_id', async (req, res) => {
    const row = await journals.restore(principalOf(req), req.params.journal_id, chargeFor(req));
    const answer: JournalRestoreResponse = { success: true, message: 'Journal restored from the trash', journal_id: row.id, title: row.title, created_at: row.created_at, updated_at: row.updated_at };
    res.json(answer);
  });

  r.put('/journals/editor/import_from_markdown', async (req, res) => {
    const raw = body(req);
    const b = parseOr422(importBody, raw, ['body']);
    // Priced per started KiB of markdown (docs/billing.md).
    const kib = Buffer.byteLength(b.markdown) / 1024;
    const p = principalOf(req);
    // Idempotency-Key: a replay skips the conversion too; a first request converts outside the transaction.
    const out = await journals.idempotency.once(
      p.keyId,
      idempotencyOf(req, raw),
      async (tx, imported) => {
        const row = await journals.insertImported(p, imported, b.title, b.team_slug || undefined, chargeFor(req, kib), tx);
        const answer: JournalImportResponse = { success: true, message: 'Journal imported', journal_id: row.id, journal_url: journals.journalUrl(row), timestamp: nowIso() };
        return { status: 200, body: answer };
      },
      () => journals.importJournal(b.markdown),
    );
    res.status(out.status).json(out.body);
  });

  r.patch('/journals/editor/edit', async (req, res) => {
    const raw = body(req);
    const b = parseOr422(editRequest, raw, ['body']);
    const key = req.get('Idempotency-Key');
    if (key !== undefined) IdempotencyStore.validateKey(key);
    const idem = key !== undefined ? { key, hash: IdempotencyStore.requestHash(req.method, req.path, raw) } : undefined;
    const trees = await journals.prepareEdit(principalOf(req), b);
    const out = await journals.edit(principalOf(req), b, idem, chargeFor(req, b.operations.length), trees);
    res.status(out.status).json(out.body);
  });

  r.get('/journals/editor/model/:journal_id', async (req, res) => {
    const row = await journals.owned(principalOf(req), req.params.journal_id);
    const { model, revision } = await journals.model(row);
    const answer: JournalModelResponse = { success: true, model: model as JournalModelResponse['model'], message: null, timestamp: nowIso(), revision };
    res.json(answer);
  });

  return r;
}
