/** Routes of version history (docs/versions.md); thin over VersionService. */
import { Router } from 'express';
import * as z from 'zod';
import { docToMarkdown } from '../../../shared/markdown/index.ts';
import { principalOf } from '../../auth/middleware.ts';
import { chargeFor } from '../../billing/middleware.ts';
import { parseOr422 } from '../../http/errors.ts';
import { pageQuery } from '../../http/paging.ts';
import { nowIso } from '../../time.ts';
import type { VersionCreateResponse, VersionDiffResponse, VersionGetResponse, VersionListResponse, VersionRestoreResponse } from './schema.ts';
import type { VersionService } from './service.ts';

export const createBody = z.object({ name: z.string().trim().min(1).max(200).optional() }).strict();
export const restoreBody = z.object({ sync_realtime_state: z.boolean().default(true) }).strict();
export const formatQuery = z.object({ format: z.enum(['markdown', 'model', 'both']).default('both') });
export const diffQuery = z.object({ from: z.string().min(1).max(100), to: z.string().min(1).max(100).default('current') });

const bodyOf = (raw: unknown) => (raw === undefined ? {} : raw);

export function versionRoutes(versions: VersionService): Router {
  const r = Router();

  r.post('/journals/versions/:journal_id', async (req, res) => {
    const b = parseOr422(createBody, bodyOf(req.body), ['body']);
    const v = await versions.create(principalOf(req), req.params.journal_id, b.name, chargeFor(req));
    const answer: VersionCreateResponse = { success: true, message: 'Version saved', ...v, timestamp: nowIso() };
    res.json(answer);
  });

  r.get('/journals/versions/:journal_id', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await versions.list(principalOf(req), req.params.journal_id, q.page_token, q.page_size);
    const answer: VersionListResponse = { success: true, versions: page.versions, ...(page.next !== undefined ? { next_page_token: page.next } : {}) };
    res.json(answer);
  });

  // Before /:version_id, which would take "diff" for a version id.
  r.get('/journals/versions/:journal_id/diff', async (req, res) => {
    const q = parseOr422(diffQuery, req.query, ['query']);
    const out = await versions.diff(principalOf(req), req.params.journal_id, q.from, q.to);
    const answer: VersionDiffResponse = { success: true, journal_id: req.params.journal_id, ...out };
    res.json(answer);
  });

  r.get('/journals/versions/:journal_id/:version_id', async (req, res) => {
    const q = parseOr422(formatQuery, req.query, ['query']);
    const { version, doc } = await versions.get(principalOf(req), req.params.journal_id, req.params.version_id);
    const answer: VersionGetResponse = {
      success: true,
      ...version,
      ...(q.format !== 'model' ? { content: docToMarkdown(doc) } : {}),
      ...(q.format !== 'markdown' ? { model: doc.toJSON() as VersionGetResponse['model'] } : {}),
    };
    res.json(answer);
  });

  r.post('/journals/versions/:journal_id/:version_id/restore', async (req, res) => {
    const b = parseOr422(restoreBody, bodyOf(req.body), ['body']);
    const out = await versions.restore(principalOf(req), req.params.journal_id, req.params.version_id, b.sync_realtime_state, chargeFor(req));
    const answer: VersionRestoreResponse = {
      success: true,
      message: 'Journal restored to the version',
      journal_id: req.params.journal_id,
      restored_from: req.params.version_id,
      revision: out.revision,
      version: out.version,
      previous: out.before,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  return r;
}
