/** Routes of key management (endpoints.ts, docs/keys.md); admin keys only. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { route } from '../http/endpoint.ts';
import { invalid } from '../http/errors.ts';
import { pageAnswer } from '../http/paging.ts';
import { keyEndpoints as e } from './endpoints.ts';
import { type KeyCreateResponse, type KeyListResponse, type KeyRevokeResponse } from './schema.ts';
import { requireAdmin, type KeyService } from './service.ts';

export function keyRoutes(keys: KeyService): Router {
  const r = Router();

  route(r, e.list, async (call, res) => {
    const p = principalOf(call.req);
    requireAdmin(p);
    const q = call.query;
    const page = await keys.list(p, { pageToken: q.page_token, pageSize: q.page_size, includeRevoked: q.include_revoked });
    const answer: KeyListResponse = pageAnswer('keys', page.keys, page.next);
    res.json(answer);
  });

  route(r, e.create, async (call, res) => {
    const p = principalOf(call.req);
    requireAdmin(p);
    const b = call.body;
    // The secret is shown once and never stored, so there is no answer an Idempotency-Key could replay.
    if (call.req.get('Idempotency-Key') !== undefined) {
      throw invalid(['header', 'Idempotency-Key'], 'POST /v1/keys does not take an Idempotency-Key: the new secret is shown once and never stored, so it cannot be replayed');
    }
    const k = await keys.create(p, b.name, b.role);
    const answer: KeyCreateResponse = { success: true, key_id: k.key_id, api_key: k.api_key, name: k.name, role: k.role, created_at: k.created_at };
    res.status(201).set('Cache-Control', 'no-store').json(answer);
  });

  route(r, e.revoke, async (call, res) => {
    const keyId = call.param('key_id');
    const out = await keys.revoke(principalOf(call.req), keyId);
    const answer: KeyRevokeResponse = { success: true, message: 'API key revoked', ...out };
    res.json(answer);
  });

  return r;
}
