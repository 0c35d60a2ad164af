/**
 * Hostile editors (raw sockets speaking y-protocols) while /healthz is probed: each attack is cut
 * off with its close code, and the event loop never stalls past 250 ms meanwhile. The limits
 * themselves are tested in test/realtime/hostile-*.test.ts; this suite holds them to the
 * service-wide rule of docs/security.md.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CloseCode } from '../../server/realtime/close-codes.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { awarenessMessage, flood, heldUpdates, smallUpdates } from '../realtime/hostile-helpers.ts';
import { expectResponsive, whileProbingHealth } from './health-probe.ts';

let server: TestServer;
let c: Client;
let id: string;

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient();
  id = await c.importMarkdown('# Target\n\nText.\n');
});
afterAll(() => server.close());

const attacks: [string, () => Uint8Array[], number][] = [
  ['8 MB of updates whose dependencies never arrive', () => [...heldUpdates(8 * 1024 * 1024)], CloseCode.PENDING_LIMIT],
  ['5,000 small updates at once', () => [...smallUpdates(5000)], CloseCode.RATE_LIMITED],
  [
    '2,000 awareness client ids',
    () => [awarenessMessage(Array.from({ length: 2000 }, (_, i) => ({ clientId: 1000 + i, clock: 1, state: { user: 'x'.repeat(900) } })))],
    CloseCode.AWARENESS_FORBIDDEN,
  ],
];

it.each(attacks)('%s: closed, and /healthz stays under 250 ms', async (_name, make, code) => {
  const messages = make();
  const probe = await whileProbingHealth(server.url, () => flood(server.url, c.key!, id, messages));
  expect(probe.result.status).toBe(code);
  expect(probe.probes).toBeGreaterThanOrEqual(3);
  expectResponsive(probe);
  expect(server.svc.ctx.registry.get(id)?.pendingBytes ?? 0).toBe(0);
  // What was accepted before the close (small updates typing into a paragraph of their own, which
  // Yjs orders before or after the journal's blocks by client id) may be there too.
  expect(await c.content(id)).toContain('# Target\n\nText.\n');
});
