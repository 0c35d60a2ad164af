/**
 * Operations endpoints (issue 12, item 4): /healthz, /readyz (a real write to the store; 503
 * while shutting down), /metrics in Prometheus text whose values follow what the service does,
 * and METRICS_TOKEN.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { routeTemplates } from '../../server/http/endpoint.ts';
import { Client, serverSuite, startTestServer, type TestServer } from '../helpers/server.ts';
import { until } from '../practice-api/helpers.ts';
import { connectEditor, waitFor } from '../realtime/helpers.ts';

/** The value of one sample line of the exposition (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').includes(labels)) return Number(m[3]);
  }
  return undefined;
}

describe('open metrics', () => {
  let server: TestServer;
  let c: Client;
  serverSuite({}, (s, client) => {
    [server, c] = [s, client];
  });

  const metrics = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  it('/healthz and /readyz answer without a key; readyz wrote its probe row', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    const rows = await server.svc.ctx.engine.all<{ checked_at: string }>('SELECT checked_at FROM readiness_probe');
    expect(rows).toHaveLength(1);
  });

  it('counts requests by route template, never by raw path, and shows process metrics', async () => {
    const id = await c.importMarkdown('# Metrics\n\nText.\n');
    for (let i = 0; i < 3; i++) await c.content(id);
    await c.model(id); // loads the journal (content right after an import is read from the export cached at import)
    const text = await metrics();
    expect(sample(text, 'http_request_duration_seconds_count', 'route="/v1/journals/content/:journal_id"')).toBeGreaterThanOrEqual(3);
    expect(text).toContain('status="200"');
    expect(text).not.toContain(id);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'journals_loaded')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'job_queue_depth', 'state="queued"')).toBe(0);
    expect(sample(text, 'webhook_deliveries', 'state="failed"')).toBe(0);
  });

  it('names only counters with _total (no gauge does), and keeps the per-type gauges of active handles', async () => {
    const text = await metrics();
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    const misnamed = [...types].filter(([name, type]) => name.endsWith('_total') && type !== 'counter');
    expect(misnamed).toEqual([]);
    expect(types.get('journal_updates_persisted_total')).toBe('counter');
    expect(types.get('nodejs_active_handles')).toBe('gauge');
    expect(types.get('nodejs_active_resources')).toBe('gauge');
  });

  it('labels error answers with the whole route template, /v1 included, so per-route error rates work', async () => {
    await c.get('/v1/journals/content/no-such-journal'); // 404 from the route
    await c.patch('/v1/journals/editor/rename', { journal_id: 'x', title: ' ' }); // 422 from the route
    await c.request('HEAD', '/v1/journals/content/no-such-journal');
    const text = await metrics();
    expect(sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/v1/journals/content/:journal_id",status="404"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="PATCH",route="/v1/journals/editor/rename",status="422"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="HEAD",route="/v1/journals/content/:journal_id",status="404"')).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/journals\//);
  });

  it('labels answers given before the route ran (401, malformed JSON) with the operation they were for', async () => {
    expect((await fetch(`${server.url}/v1/journals/content/some-id`)).status).toBe(401);
    const malformed = await c.request('PATCH', '/v1/journals/editor/rename', '{"journal_id":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(422);
    expect((await c.request('POST', '/v1/journals/list')).status).toBe(405);
    const text = await metrics();
    expect(sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/v1/journals/content/:journal_id",status="401"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="PATCH",route="/v1/journals/editor/rename",status="422"')).toBeGreaterThanOrEqual(1);
    // A method the path does not have is no operation.
    expect(sample(text, 'http_request_duration_seconds_count', 'method="POST",route="unmatched",status="405"')).toBeGreaterThanOrEqual(1);
  });

  it('follows open editor connections', async () => {
    const id = await c.importMarkdown('# Editors\n');
    expect(sample(await metrics(), 'realtime_editor_connections', 'protocol="y-websocket"')).toBe(0);
    const editor = connectEditor(server.url, id, { key: c.key });
    await waitFor(() => editor.provider.synced, 'editor synced');
    expect(sample(await metrics(), 'realtime_editor_connections', 'protocol="y-websocket"')).toBe(1);
    // The editor types: its update is committed by the group committer, which the metrics time.
    const before = sample(await metrics(), 'journal_updates_persisted_total') ?? 0;
    ((editor.fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'typed ');
    await until(async () => (sample(await metrics(), 'journal_updates_persisted_total') ?? 0) > before, 'update persisted');
    expect(sample(await metrics(), 'journal_update_persist_seconds_count')).toBeGreaterThanOrEqual(1);
    editor.destroy();
    await waitFor(() => server.svc.realtime.connectionCount === 0, 'editor gone');
    expect(sample(await metrics(), 'realtime_editor_connections', 'protocol="y-websocket"')).toBe(0);
  });

  it('counts queued jobs', async () => {
    // A practice set is a durable job; it is queued or running right after the create answers.
    const r = await c.post('/v1/interactives/practice/create', { set_description: 'quadratic equations', count: 2 });
    expect(r.status).toBe(200);
    const text = await metrics();
    const total = ['queued', 'running', 'done'].reduce((n, state) => n + (sample(text, 'job_queue_depth', `state="${state}"`) ?? 0), 0);
    expect(total).toBeGreaterThanOrEqual(1);
  });
});

describe('route templates of requests answered before their route ran', () => {
  it('are read from the declarations: static paths before parameters, HEAD as GET, nothing for another method', () => {
    const of = routeTemplates(ENDPOINTS);
    expect(of('GET', '/v1/interactives/flashcards/list')).toBe('/v1/interactives/flashcards/list');
    expect(of('GET', '/v1/interactives/flashcards/abc')).toBe('/v1/interactives/flashcards/:deck_id');
    expect(of('HEAD', '/v1/journals/content/x/')).toBe('/v1/journals/content/:journal_id');
    expect(of('GET', '/v1/journals/versions/j/diff')).toBe('/v1/journals/versions/:journal_id/diff');
    expect(of('GET', '/v1/journals/versions/j/v')).toBe('/v1/journals/versions/:journal_id/:version_id');
    expect(of('POST', '/v1/journals/list')).toBeUndefined();
    expect(of('GET', '/v1/journals/content/a/b')).toBeUndefined();
    expect(of('GET', '/v1/journals/realtime/j')).toBeUndefined(); // the WebSocket upgrade is no HTTP route
  });
});

describe('readyz when not ready', () => {
  it('shutdown marks the service not ready at once', async () => {
    const server = await startTestServer();
    const closing = server.close();
    expect(server.svc.ctx.lifecycle.shuttingDown).toBe(true);
    await closing;
  });

  it('answers 503 while shutting down, and when the store no longer takes writes', async () => {
    const server = await startTestServer();
    server.svc.ctx.lifecycle.shuttingDown = true;
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ready: false, reason: 'shutting down' });
    server.svc.ctx.lifecycle.shuttingDown = false;
    await server.svc.ctx.engine.run('DROP TABLE readiness_probe');
    const broken = await fetch(`${server.url}/readyz`);
    expect(broken.status).toBe(503);
    expect(((await broken.json()) as { reason: string }).reason).toMatch(/does not take writes/);
    await server.close();
  });
});

describe('METRICS_TOKEN', () => {
  it('guards /metrics with a bearer token', async () => {
    const token = 'metrics-token-0123456789';
    const server = await startTestServer({ env: { METRICS_TOKEN: token } });
    try {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('http_request_duration_seconds');
      // /healthz and /readyz stay open for probes.
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
