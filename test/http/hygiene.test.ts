/**
 * HTTP hygiene (issue 16, item 2): a body not labelled JSON is a 415 that does nothing and costs
 * nothing; a known path asked with the wrong method is a 405 naming the allowed ones, the
 * operations endpoints and the OpenAPI document included; OPTIONS answers 204 with the same Allow
 * on every known path, static or with parameters.
 */
import { describe, expect, it } from 'vitest';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;
serverSuite({ tier: 'developer' }, (s, client) => {
  server = s;
  c = client;
});

// Read from storage: asking the API would itself be a paid, counted request.
const balance = () => server.svc.ctx.billing.credits.balance(c.orgId);
const journalCount = async () => (await server.svc.ctx.engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM journals WHERE org_id = ?', [c.orgId]))!.n;

describe('415 for a body that is not labelled JSON', () => {
  it.each([
    ['text/plain', 'PUT', '/v1/journals/editor/create', '{"title":"ct"}'],
    ['text/plain', 'PUT', '/v1/journals/editor/import_from_markdown', '{"markdown":"# a"}'],
    ['application/x-www-form-urlencoded', 'POST', '/v1/interactives/flashcards/create', 'text=abc'],
    ['multipart/form-data; boundary=x', 'POST', '/v1/video/create', '--x--'],
  ])('%s on %s %s: nothing stored, nothing charged', async (type, method, path, body) => {
    const before = { balance: await balance(), journals: await journalCount() };
    const r = await c.request(method, path, body, { 'content-type': type });
    expect(r.status).toBe(415);
    expect(r.body.error).toContain('application/json');
    expect(r.body.error).toContain(type.split(';')[0]);
    expect({ balance: await balance(), journals: await journalCount() }).toEqual(before);
  });

  it('names a missing Content-Type', async () => {
    const res = await fetch(`${c.url}/v1/journals/editor/create`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${c.key}` },
      body: new Uint8Array(Buffer.from('{"title":"x"}')),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: string }).error).toMatch(/Missing Content-Type.*application\/json/);
  });

  it('accepts JSON with a charset and +json types, and bodiless requests without a type', async () => {
    const r = await c.put('/v1/journals/editor/create', { title: 'charset' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('charset');
    expect((await c.put('/v1/journals/editor/create', { title: 'plus' }, { 'content-type': 'application/vnd.api+json' })).status).toBe(200);
    expect((await c.del(`/v1/journals/editor/delete/${r.body.journal_id}`)).status).toBe(200);
  });
});

describe('405 for a known path with the wrong method', () => {
  it.each([
    ['GET', '/v1/interactives/flashcards/create', 'POST'],
    ['DELETE', '/v1/journals/list', 'GET, HEAD'],
    ['POST', '/v1/journals/editor/create', 'PUT'],
    ['GET', '/v1/journals/editor/delete/some-id', 'DELETE'],
    ['PUT', '/v1/usage', 'GET, HEAD'],
  ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const r = await c.request(method, path);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.body.error).toContain(allow);
  });

  it('an unknown path stays a 404, and an unauthenticated wrong method a 401', async () => {
    expect((await c.get('/v1/no/such/path')).status).toBe(404);
    expect((await new Client(c.url, undefined, c.orgId).get('/v1/interactives/flashcards/create')).status).toBe(401);
  });
});

describe('outside /v1 and OPTIONS', () => {
  it.each([
    ['POST', '/healthz'],
    ['DELETE', '/readyz'],
    ['PUT', '/metrics'],
    ['POST', '/v1/openapi.json'],
    ['PATCH', '/docs'],
  ])('%s %s answers 405 with Allow: GET, HEAD (no key needed)', async (method, path) => {
    const r = await new Client(c.url, undefined, c.orgId).request(method, path);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(r.body.error).toContain('GET, HEAD');
  });

  it('OPTIONS answers 204 with Allow on static and parameterised paths alike; 404 on unknown ones', async () => {
    const cases: [string, string][] = [
      ['/v1/journals/list', 'GET, HEAD'],
      ['/v1/journals/content/some-id', 'GET, HEAD'],
      ['/v1/journals/editor/create', 'PUT'],
      ['/v1/journals/editor/delete/some-id', 'DELETE'],
      ['/v1/interactives/flashcards/create', 'POST'],
      ['/v1/interactives/flashcards/some-deck', 'GET, HEAD'],
      ['/v1/journals/versions/some-id', 'GET, HEAD, POST'],
    ];
    for (const [path, allow] of cases) {
      const r = await c.request('OPTIONS', path);
      expect([path, r.status, r.headers.get('allow')]).toEqual([path, 204, allow]);
    }
    for (const path of ['/healthz', '/metrics', '/v1/openapi.json']) {
      const r = await new Client(c.url, undefined, c.orgId).request('OPTIONS', path);
      expect([path, r.status, r.headers.get('allow')]).toEqual([path, 204, 'GET, HEAD']);
    }
    expect((await c.request('OPTIONS', '/v1/no/such/path')).status).toBe(404);
    // Without a key, /v1 answers 401 whatever the path's shape.
    const anonymous = new Client(c.url, undefined, c.orgId);
    expect((await anonymous.request('OPTIONS', '/v1/journals/list')).status).toBe(401);
    expect((await anonymous.request('OPTIONS', '/v1/journals/content/some-id')).status).toBe(401);
  });
});
