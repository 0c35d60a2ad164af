/**
 * GET /v1/openapi.json and /docs: the document is served without a key, describes every route the
 * app registers (and nothing it does not), every error shape and the security scheme; /docs serves
 * Swagger UI from the service itself. That the suites' answers match it is checked by the test
 * client on every request (test/helpers/openapi.ts); here a few answers are checked on purpose,
 * including ones the helper must refuse.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { assertDocumented, documentedOperations, OpenApiMismatch } from '../helpers/openapi.ts';
import { createApiKey, createOrganization } from '../../server/auth/keys.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient();
});
afterAll(async () => {
  await server.close();
});

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  match(path: string): boolean;
}

/** Every route the Express app registers, as `METHOD /path/{param}`. */
function appRoutes(): string[] {
  const app = createApp(server.svc.ctx) as unknown as { router: { stack: Layer[] } };
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          for (const [m, on] of Object.entries(layer.route.methods)) {
            if (on && m !== '_all') out.push(`${m.toUpperCase()} ${prefix}${p.replace(/:(\w+)/g, '{$1}')}`);
          }
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, layer.match('/v1') && !layer.match('/') ? '/v1' : prefix);
      }
    }
  };
  walk(app.router.stack, '');
  return [...new Set(out)];
}

describe('GET /v1/openapi.json', () => {
  it('is served without a key: OpenAPI 3.1 with every path, the bearer scheme and the error shapes', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toHaveLength(48);
    expect(documentedOperations()).toHaveLength(52);
    expect(doc.servers).toBeUndefined(); // same origin: the docs page's "Try it out" calls this service
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Conflict', 'Error', 'InsufficientCredit', 'InternalError', 'RateLimited', 'ValidationError']);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, name).toMatch(/^\w+$/);
        expect(Object.keys(op.responses).some((s) => s.startsWith('2')), name).toBe(true);
        if (!path.startsWith('/v1/') || path === '/v1/openapi.json') continue;
        expect(op.security, name).toEqual([{ apiKey: [] }]);
        for (const s of ['401', '405', '429', '500', '503']) expect(op.responses[s], `${name} ${s}`).toBeDefined();
        expect(op.responses['429'].headers['Retry-After'], name).toBeDefined();
        expect(op.responses['405'].headers.Allow, name).toBeDefined();
        if (op.requestBody || op.parameters?.some((p: any) => p.in === 'query')) expect(op.responses['422'], name).toBeDefined();
        if (op.requestBody) expect(op.requestBody.content['application/json'].schema.type, name).toBe('object');
        const success = op.responses['200'] ?? op.responses['201'];
        expect(success.headers?.RateLimit, name).toBeDefined();
      }
    }
    // Request and answer schemas come from the zod schemas: limits and enums included.
    const edit = doc.paths['/v1/journals/editor/edit'].patch;
    expect(edit.requestBody.content['application/json'].schema.properties.operations.maxItems).toBe(500);
    expect(edit.requestBody.content['application/json'].schema.properties.operations.items.oneOf).toHaveLength(3);
    expect(edit.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Conflict' });
    const keys = doc.paths['/v1/keys'].post;
    expect(keys.requestBody.content['application/json'].schema.properties.role.enum).toEqual(['admin', 'member']);
    expect(keys.responses['201'].content['application/json'].schema.examples).toHaveLength(1);
    expect(keys.responses['403']).toBeDefined();
    const usage = doc.paths['/v1/usage'].get;
    expect(usage.parameters.find((p: any) => p.name === 'days').schema).toEqual(expect.objectContaining({ minimum: 1, maximum: 90, default: 30 }));
    expect(usage.responses['200'].content['application/json'].schema.properties.spend.properties.days.type).toBe('array');
    expect(doc.paths['/v1/journals/list'].get.parameters.map((p: any) => p.name).sort()).toEqual(['page_size', 'page_token']);
    expect(doc.paths['/v1/journals/editor/create'].put.parameters.map((p: any) => p.name)).toEqual(['Idempotency-Key']);
  });

  it('every paged list takes page_token of the type its answers give next_page_token', async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as any;
    let lists = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const token = op.parameters?.find((p: any) => p.name === 'page_token');
        if (!token) continue;
        lists++;
        const next = op.responses['200'].content['application/json'].schema.properties.next_page_token;
        expect(token.schema.type, `${method} ${path}`).toBe(next.type);
      }
    }
    expect(lists).toBe(8);
  });

  it('refuses, as the service does, blank names, controls, bad Idempotency-Keys and webhook URLs, and both or neither of journal_id and text', async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as any;
    const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
    const ajv = new Ajv2020({ strict: false });
    ((addFormats as any).default ?? addFormats)(ajv);
    const body = (path: string, method: string) => ajv.compile(doc.paths[path][method].requestBody.content['application/json'].schema);
    // An admin key: key management is among the cases.
    const org = await createOrganization(server.svc.ctx.engine, 'document', 'enterprise');
    const admin = new Client(server.url, (await createApiKey(server.svc.ctx.engine, org.id, 'admin', 'admin')).api_key, org.id);
    const journal = await admin.importMarkdown('# Doc\n');
    const cases: [string, string, unknown][] = [
      ['put', '/v1/journals/editor/create', { title: '   ' }],
      ['put', '/v1/journals/editor/create', { title: 'a\u0000b' }],
      ['put', '/v1/journals/editor/import_from_markdown', { markdown: '# x', title: '\t' }],
      ['patch', '/v1/journals/editor/rename', { journal_id: journal, title: ' \n ' }],
      ['post', '/v1/journals/versions/{journal_id}', { name: '  ' }],
      ['post', '/v1/keys', { name: ' ' }],
      ['post', '/v1/interactives/practice/create', { set_description: 'algebra', set_name: ' ' }],
      ['post', '/v1/interactives/practice/create', { set_description: '  ' }],
      ['post', '/v1/interactives/practice/create', { set_description: 'algebra', webhook_url: 'ftp://hooks.example.com/x' }],
      ['post', '/v1/interactives/practice/create', { set_description: 'algebra', webhook_url: 'hooks.example.com/x' }],
      ['post', '/v1/video/create', { journal_id: journal, text: 'Cells divide.' }],
      ['post', '/v1/video/create', { title: 'Neither' }],
      ['post', '/v1/video/create', { text: 'Cells divide.', voice: 'not a voice!' }],
      ['post', '/v1/video/create', { text: '   ' }],
      ['post', '/v1/interactives/flashcards/create', { journal_id: journal, text: 'Cells divide.' }],
      ['post', '/v1/interactives/flashcards/create', { count: 3 }],
    ];
    for (const [method, path, sent] of cases) {
      const name = `${method.toUpperCase()} ${path} ${JSON.stringify(sent)}`;
      expect(body(path, method)(sent), `the document accepts ${name}`).toBe(false);
      const r = await admin.request(method.toUpperCase(), path.replace('{journal_id}', journal), sent);
      expect(r.status, name).toBe(422);
    }
    // The Idempotency-Key: visible ASCII, as the service checks it.
    const header = doc.paths['/v1/journals/editor/create'].put.parameters.find((p: any) => p.name === 'Idempotency-Key').schema;
    const key = ajv.compile(header);
    for (const bad of ['has space', 'tab\tkey', 'é']) {
      expect(key(bad), bad).toBe(false);
      if (!/[^\x20-\x7e]/.test(bad)) expect((await c.put('/v1/journals/editor/create', {}, { 'Idempotency-Key': bad })).status).toBe(422);
    }
    expect(key('retry-42_ok.~')).toBe(true);
  });

  it("every request body has an example its zod schema accepts", () => {
    const withBody = ENDPOINTS.filter((op) => op.body);
    expect(withBody.length).toBe(17);
    for (const op of withBody) {
      expect(op.example, op.operationId).toBeDefined();
      const r = op.body!.safeParse(op.example);
      expect(r.success, `${op.operationId}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
    }
  });

  it('documents every route the app registers, and only those', async () => {
    const routes = appRoutes().filter((r) => !/^GET \/docs/.test(r));
    const documented = documentedOperations();
    expect(routes.length).toBeGreaterThanOrEqual(39);
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((d) => !routes.includes(d))).toEqual([]);
  });

  it('the answers of the service match it, and the check refuses answers that do not', async () => {
    // A few real answers, checked by the client as every answer of the suites is.
    const id = await c.importMarkdown('# Title\n\nText.\n');
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200);
    expect((await c.get('/v1/journals/content/nope')).status).toBe(404);
    expect((await c.put('/v1/journals/editor/create', { title: '' })).status).toBe(422);
    expect((await c.request('POST', '/v1/journals/list')).status).toBe(405);
    expect((await c.get('/v1/keys')).status).toBe(403);
    const headers = new Headers({ 'content-type': 'application/json' });
    // A field the document does not have, a missing one, a status it does not list: refused.
    expect(() => assertDocumented('GET', '/v1/journals/list', 200, headers, { success: true, message: '', journals: [], extra: 1 })).toThrow(OpenApiMismatch);
    expect(() => assertDocumented('GET', '/v1/journals/list', 200, headers, { success: true, journals: [] })).toThrow(/message/);
    expect(() => assertDocumented('GET', '/v1/journals/list', 409, headers, { error: 'x' })).toThrow(/status not documented/);
    expect(() => assertDocumented('GET', '/v1/journals/list', 429, headers, { error: 'x', retry_after: 1, limit_type: 'minute' })).toThrow(/Retry-After/);
    expect(() => assertDocumented('GET', '/v1/journals/list', 422, headers, { error: 'not the 422 shape' })).toThrow(OpenApiMismatch);
    expect(() => assertDocumented('GET', '/v1/video/download/x', 200, new Headers({ 'content-type': 'application/json' }), {})).toThrow(/video\/mp4/);
    // And accepts what it should: a right answer, an undocumented path left alone.
    expect(() => assertDocumented('GET', '/v1/journals/list?page_size=1', 200, headers, { success: true, message: '0 journals', journals: [] })).not.toThrow();
    expect(() => assertDocumented('GET', '/v1/nothing/here', 404, headers, { error: 'Not found' })).not.toThrow();
  });
});

describe('/docs', () => {
  it('serves Swagger UI from the service itself, pointed at this document, with a same-origin CSP', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//); // nothing from another origin
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/), expect.stringMatching(/swagger-ui\.css$/), '/docs/init.js']));
    for (const a of assets) {
      const r = await fetch(server.url + a);
      expect(r.status, a).toBe(200);
      const body = await r.arrayBuffer();
      expect(body.byteLength, a).toBeGreaterThan(100);
      if (a.includes('/assets/')) expect(r.headers.get('cache-control'), a).toMatch(/immutable/);
    }
    const init = await (await fetch(`${server.url}/docs/init.js`)).text();
    expect(init).toContain("url: '/v1/openapi.json'");
    expect(init).toContain('persistAuthorization: false');
    expect(init).toContain('validatorUrl: null');
    // Other files of the package are not served.
    expect((await fetch(`${assets.find((a) => a.includes('swagger-ui.css'))!.replace('swagger-ui.css', 'index.html')}`.replace(/^/, server.url))).status).toBe(404);
  });

  it('"Try it out" is a plain same-origin request with the key: it answers as the API does', async () => {
    // What Swagger UI sends for GET /v1/usage after "Authorize" with a key: the document has no
    // servers, so the request goes to the origin that served it.
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as any;
    const op = doc.paths['/v1/usage'].get;
    const res = await fetch(new URL('/v1/usage?days=7', `${server.url}/docs`), { headers: { authorization: `Bearer ${c.key}`, accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(res.headers.get('ratelimit')).toBeTruthy();
    expect(() => assertDocumented('GET', '/v1/usage?days=7', 200, res.headers, body)).not.toThrow();
    expect(op.security).toEqual([{ apiKey: [] }]);
  });
});
