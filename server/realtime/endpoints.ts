/**
 * The realtime endpoints, each declared once: the browser editor's session (a REST route,
 * routes.ts) and the WebSocket upgrade itself (hub.ts), metered and priced like any endpoint but
 * not an operation of the OpenAPI document.
 */
import * as z from 'zod';
import { meteredEndpoints } from '../billing/endpoints.ts';
import { WRITE_ERRORS } from '../http/endpoint.ts';
import { idText } from '../http/text.ts';
import { sessionResponseSchema } from './schema.ts';

export const realtimeEndpoints = meteredEndpoints('Realtime', {
  session: {
    method: 'post',
    path: '/v1/journals/editor/session',
    operationId: 'editorSession',
    summary: 'An editor token and the WebSocket URL for a browser editor',
    description:
      'A token for one journal, for either realtime protocol (docs/realtime.md). y-websocket: connect to `server_url`, room = journal id, `params: { token }` (the endpoint `GET /v1/journals/realtime/{journal_id}`). Hocuspocus (`@hocuspocus/provider`, Tiptap): connect to `collaboration_url` (`GET /v1/collaboration`), `name` = journal id, `token` = the token; one socket carries many journals, each authorised by its own token. `scope: "read"` makes a read-only token: its connections receive updates and awareness, and their updates are refused (y-websocket: closed with 4405; Hocuspocus: `readonly` in the authenticated reply, updates answered "not saved"). Both WebSocket endpoints are upgrades, not operations of this document.',
    body: z.object({
      journal_id: idText(100, 'journal_id'),
      scope: z.enum(['write', 'read']).default('write').describe('`read`: a read-only token (updates refused); default `write`'),
    }),
    example: { journal_id: '3f0b2c1e-…', scope: 'write' },
    success: { status: 200, description: 'a token', schema: sessionResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 0, billing: 'request' },
  },
  upgrade: {
    method: 'get',
    path: '/v1/journals/realtime/{journal_id}',
    operationId: 'realtimeUpgrade',
    summary: 'The journal\'s WebSocket (y-websocket protocol)',
    params: { journal_id: 'the journal id' },
    success: { status: 101, description: 'switching protocols' },
    errors: [402, 404],
    upgrade: true,
    price: { base: 100, billing: 'request', note: 'per editor connection opened' },
  },
  collaboration: {
    method: 'get',
    path: '/v1/collaboration',
    operationId: 'collaborationUpgrade',
    summary: 'The Hocuspocus WebSocket (Tiptap\'s @hocuspocus/provider): many journals per socket',
    success: { status: 101, description: 'switching protocols' },
    errors: [402],
    upgrade: true,
    price: { base: 100, billing: 'request', note: 'per journal opened on the socket (each Auth message accepted)' },
  },
});
