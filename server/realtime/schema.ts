/** zod schema of the editor session's answer (docs/realtime.md); the route types its answer with it. */
import * as z from 'zod';

/** Answer of POST /v1/journals/editor/session (docs/realtime.md). */
export const sessionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  token: z.string().describe('editor token: pass it as y-websocket `params: { token }`, or `#token=` to the web editor'),
  expires_at: z.string(),
  ws_url: z.string().describe('the journal\'s WebSocket URL (without the token)'),
  server_url: z.string().describe('y-websocket serverUrl; the room name is the journal id'),
  collaboration_url: z.string().describe('Hocuspocus provider `url` (`/v1/collaboration`); `name` is the journal id, `token` the token'),
  scope: z.enum(['write', 'read']).describe('what the token allows: `read` connections receive but cannot change the journal'),
  timestamp: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
