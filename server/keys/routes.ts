/** Key management endpoints (docs/keys.md): GET /keys, POST /keys, DELETE /keys/{key_id}; admin keys only. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { invalid, parseOr422 } from '../http/errors.ts';
import { createKeyBody, keyIdParam, keyListQuery, type KeyCreateResponse, type KeyListResponse, type KeyRevokeResponse } from './schema.ts';
import { requireAdmin, type KeyService } from './service.ts';

export function keyRoutes(keys: KeyService): Router {
  const r = Router();

  r.get('/keys', async (req, res) => {
    requireAdmin(principalOf(req));
    const q = parseOr422(keyListQuery, req.query, ['query']);
    const page = await keys.list(principalOf(req), { pageToken: q.page_token, pageSize: q.page_size, includeRevoked: q.include_revoked });
    const answer: KeyListResponse = { success: true, keys: page.keys, ...(page.next !== undefined ? { next_page_token: page.next } : {}) };
    res.json(answer);
  });

  r.post('/keys', async (req, res) => {
    requireAdmin(principalOf(req));
    const b = parseOr422(createKeyBody, req.body === undefined ? {} : req.body, ['body']);
    // The secret is shown once and never stored, so there is no answer an Idempotency-Key could replay.
    if (req.get('Idempotency-Key') !== undefined) {
      throw invalid(['header', 'Idempotency-Key'], 'POST /v1/keys does not take an Idempotency-Key: the new secret is shown once and never stored, so it cannot be replayed');
    }
    const k = await keys.create(principalOf(req), b.name, b.role);
    const answer: KeyCreateResponse = { success: true, key_id: k.key_id, api_key: k.api_key, name: k.name, role: k.role, created_at: k.created_at };
    res.status(201).set('Cache-Control', 'no-store').json(answer);
  });

  r.delete('/keys/:key_id', async (req, res) => {
    const keyId = parseOr422(keyIdParam, req.params.key_id, ['path', 'key_id']);
    const out = await keys.revoke(principalOf(req), keyId);
    const answer: KeyRevokeResponse = { success: true, message: 'API key revoked', ...out };
    res.json(answer);
  });

  return r;
}
