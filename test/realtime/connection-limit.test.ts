/**
 * The process-wide limit of editor connections (WS_MAX_CONNECTIONS), below the open-files limit:
 * past it, an upgrade is answered 503 with Retry-After before any work, and /healthz keeps
 * answering; a slot frees when a connection leaves. The default is 80% of the soft open-files limit.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { defaultMaxConnections, openFilesSoftLimit } from '../../server/realtime/limits.ts';
import { startTestServer } from '../helpers/server.ts';
import { waitFor, wsUrl } from './helpers.ts';
import { rawSocket } from './hostile-helpers.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63432                63432                processes
Max open files            20000                20000                files
Max locked memory         8388608              8388608              bytes
`;

/** The HTTP answer to an upgrade the server refuses. */
function refusedUpgrade(url: string, key: string): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }));
    });
    ws.on('open', () => {
      ws.close();
      reject(new Error('upgraded'));
    });
    ws.on('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

describe('default WS_MAX_CONNECTIONS', () => {
  it('is 80% of the soft open-files limit, 10,000 when it cannot be read', () => {
    expect(openFilesSoftLimit(LIMITS)).toBe(20000);
    expect(defaultMaxConnections(LIMITS)).toBe(16000);
    expect(defaultMaxConnections(LIMITS.replace('20000                20000', '1024                 4096'))).toBe(819);
    expect(openFilesSoftLimit(LIMITS.replace('20000                20000', 'unlimited            unlimited'))).toBeUndefined();
    expect(defaultMaxConnections('')).toBe(10000);
    expect(defaultMaxConnections()).toBeGreaterThan(0); // this process's own limit
  });
});

describe('WS_MAX_CONNECTIONS', () => {
  it('answers upgrades past the limit 503 with Retry-After; /healthz answers; a slot frees when one leaves', async () => {
    const s = await startTestServer({ env: { WS_MAX_CONNECTIONS: '3' } });
    try {
      const c = await s.newClient();
      const id = await c.importMarkdown('Full house\n');
      const open = [0, 1, 2].map(() => rawSocket(s.url, id, c.key!));
      await Promise.all(open.map((r) => r.opened));

      const refused = await refusedUpgrade(`${wsUrl(s.url)}/${id}`, c.key!);
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBe('5');
      expect(JSON.parse(refused.body).error).toBe('Too many realtime connections on this server (limit 3); retry');
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

      open.pop()!.ws.close();
      await waitFor(() => s.svc.realtime.connectionCount === 2, 'one left');
      const again = rawSocket(s.url, id, c.key!);
      await again.opened;
      again.ws.close();
      for (const r of open) r.ws.close();
    } finally {
      await s.close();
    }
  });
});
