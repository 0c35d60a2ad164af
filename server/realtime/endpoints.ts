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
      'Connect with y-websocket to `server_url`, room = journal id, `params: { token }` (docs/realtime.md). The WebSocket endpoint itself, `GET /v1/journals/realtime/{journal_id}`, is an upgrade, not described here.',
    body: z.object({ journal_id: idText(100, 'journal_id') }),
    example: { journal_id: '3f0b2c1e-…' },
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
});
