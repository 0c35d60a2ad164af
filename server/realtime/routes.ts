/** `POST /v1/journals/editor/session`: a short-lived, journal-scoped token for browser editors. */
import { Router } from 'express';
import * as z from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { parseOr422 } from '../http/errors.ts';
import type { JournalService } from '../journals/service.ts';
import { nowIso } from '../time.ts';
import type { EditorTokens } from './credentials.ts';
import { REALTIME_PATH } from './hub.ts';

/** Answer of POST /v1/journals/editor/session (docs/realtime.md). */
export const sessionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  token: z.string().describe('editor token: pass it as y-websocket `params: { token }`, or `#token=` to the web editor'),
  expires_at: z.string(),
  ws_url: z.string().describe('the journal\'s WebSocket URL (without the token)'),
  server_url: z.string().describe('y-websocket serverUrl; the room name is the journal id'),
  timestamp: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const sessionBody = z.object({ journal_id: z.string().min(1).max(100) });

export function realtimeRoutes(journals: JournalService, tokens: EditorTokens, publicBaseUrl: string): Router {
  const r = Router();
  r.post('/journals/editor/session', async (req, res) => {
    const b = parseOr422(sessionBody, req.body === undefined ? {} : req.body, ['body']);
    const p = principalOf(req);
    const row = await journals.owned(p, b.journal_id);
    const { token, expiresAt } = tokens.mint(row.id, p.keyId);
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
