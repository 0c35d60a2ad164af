/** Routes of version history (endpoints.ts, docs/versions.md); thin over VersionService. */
import { Router } from 'express';
import { principalOf } from '../../auth/middleware.ts';
import { chargeFor } from '../../billing/middleware.ts';
import { route } from '../../http/endpoint.ts';
import { pageAnswer } from '../../http/paging.ts';
import { nowIso } from '../../time.ts';
import { versionEndpoints as e } from './endpoints.ts';
import type { VersionCreateResponse, VersionDiffResponse, VersionGetResponse, VersionListResponse, VersionRestoreResponse } from './schema.ts';
import type { VersionService } from './service.ts';

export function versionRoutes(versions: VersionService): Router {
  const r = Router();

  route(r, e.create, async (call, res) => {
    const b = call.body;
    const v = await versions.create(principalOf(call.req), call.param('journal_id'), b.name, chargeFor(call.req));
    const answer: VersionCreateResponse = { success: true, message: 'Version saved', ...v, timestamp: nowIso() };
    res.json(answer);
  });

  route(r, e.list, async (call, res) => {
    const q = call.query;
    const page = await versions.list(principalOf(call.req), call.param('journal_id'), q.page_token, q.page_size);
    const answer: VersionListResponse = pageAnswer('versions', page.versions, page.next);
    res.json(answer);
  });

  // Before the version's own route, which would take "diff" for a version id.
  route(r, e.diff, async (call, res) => {
    const q = call.query;
    const { next, ...out } = await versions.diff(principalOf(call.req), call.param('journal_id'), q.from, q.to, { offset: q.page_token ?? 0, pageSize: q.page_size });
    const answer: VersionDiffResponse = { success: true, journal_id: call.param('journal_id'), ...out, ...(next !== undefined ? { next_page_token: next } : {}) };
    res.json(answer);
  });

  route(r, e.get, async (call, res) => {
    const q = call.query;
    const want = { markdown: q.format !== 'model', model: q.format !== 'markdown' };
    const { version, markdown, modelJson } = await versions.get(principalOf(call.req), call.param('journal_id'), call.param('version_id'), want);
    const answer: Omit<VersionGetResponse, 'model'> = { success: true, ...version, ...(markdown !== undefined ? { content: markdown } : {}) };
    if (modelJson === undefined) {
      res.json(answer);
      return;
    }
    // The model's JSON text as the worker printed it, never parsed here.
    res.type('application/json').send(`{"model":${modelJson},${JSON.stringify(answer).slice(1)}`);
  });

  route(r, e.restore, async (call, res) => {
    const b = call.body;
    const journalId = call.param('journal_id');
    const versionId = call.param('version_id');
    const out = await versions.restore(principalOf(call.req), journalId, versionId, b.sync_realtime_state, chargeFor(call.req));
    const answer: VersionRestoreResponse = {
      success: true,
      message: 'Journal restored to the version',
      journal_id: journalId,
      restored_from: versionId,
      revision: out.revision,
      version: out.version,
      previous: out.before,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  return r;
}
