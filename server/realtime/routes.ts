/** `POST /v1/journals/editor/session`: a short-lived, journal-scoped token for browser editors. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { route } from '../http/endpoint.ts';
import type { JournalService } from '../journals/service.ts';
import { nowIso } from '../time.ts';
import type { EditorTokens } from './credentials.ts';
import { realtimeEndpoints } from './endpoints.ts';
import { COLLABORATION_PATH } from './hocuspocus/server.ts';
import { REALTIME_PATH } from './hub.ts';
import type { SessionResponse } from './schema.ts';

export function realtimeRoutes(journals: JournalService, tokens: EditorTokens, publicBaseUrl: string): Router {
  const r = Router();
  route(r, realtimeEndpoints.session, async (call, res) => {
    const b = call.body;
    const p = principalOf(call.req);
    const row = await journals.owned(p, b.journal_id);
    const { token, expiresAt } = tokens.mint(row.id, p.keyId, Date.now(), b.scope);
    const server = `${wsBase(publicBaseUrl)}${REALTIME_PATH}`;
    const answer: SessionResponse = {
      success: true,
      message: `Editor token valid for ${tokens.ttlSeconds} s`,
      journal_id: row.id,
      token,
      expires_at: expiresAt.toISOString(),
      // The token is not in ws_url: pass it as y-websocket's `params: { token }` (docs/realtime.md).
      ws_url: `${server}/${encodeURIComponent(row.id)}`,
      server_url: server,
      collaboration_url: `${wsBase(publicBaseUrl)}${COLLABORATION_PATH}`,
      scope: b.scope,
      timestamp: nowIso(),
    };
    res.set('Cache-Control', 'no-store').json(answer);
  });
  return r;
}

/**
 * PUBLIC_BASE_URL with a ws(s) scheme. A service on an ephemeral port without PUBLIC_BASE_URL
 * (tests) has no useful public URL; the request's own host is used then.
 */
function wsBase(publicBaseUrl: string): string {
  return publicBaseUrl.replace(/^http/, 'ws');
}
