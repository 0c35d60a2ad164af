/**
 * Starts the real service on an ephemeral port with a temporary DATA_DIR, and gives tests an
 * HTTP client. Keys are made with the same domain functions the admin command line uses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService, type RunningService } from '../../server/app.ts';
import { createApiKey, createOrganization, type Tier } from '../../server/auth/keys.ts';
import type { Clock } from '../../server/billing/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { afterAll, beforeAll } from 'vitest';
import { freshPostgres, type FreshPostgres } from './databases.ts';
import { assertDocumented } from './openapi.ts';
import type { Logger } from '../../server/logger.ts';

export interface TestServer {
  svc: RunningService;
  url: string;
  dataDir: string;
  /**
   * A new organization with one key; returns a client bound to that key. The default tier is
   * Enterprise so that suites about other things are not throttled by the Developer limits
   * (10 content reads a minute); billing suites pass the tier they test.
   */
  newClient(tier?: Tier): Promise<Client>;
  /** Another key of the same organization as `client`. */
  sameOrgClient(client: Client): Promise<Client>;
  close(): Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'study-test-'));
}

/**
 * The engine the API suites run on. The vitest project `postgres` sets TEST_ENGINE=postgres: every
 * server then gets a fresh PostgreSQL database (DATABASE_URL), dropped when it closes.
 */
export const testEngine: 'sqlite' | 'postgres' = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** PostgreSQL databases by DATA_DIR: a server restarted on the same DATA_DIR finds its data again. */
const databases = new Map<string, Promise<FreshPostgres>>();
// Dropped when the test file is done (vitest loads this module afresh for each file; the benches use SQLite).
if (process.env.VITEST) {
  afterAll(async () => {
    const all = [...databases.values()];
    databases.clear();
    await Promise.all(all.map(async (d) => (await d).drop()));
  });
}

/** Environment that points a server on `dataDir` at the database of the suite's engine (SQLite: the file in it). */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (testEngine === 'sqlite') return {};
  let db = databases.get(dataDir);
  if (!db) {
    db = freshPostgres();
    databases.set(dataDir, db);
  }
  return { DATABASE_URL: (await db).url };
}

export interface TestServerOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** time of the rate-limit windows */
  clock?: Clock;
  /** capture logs */
  logger?: Logger;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const database = await testDatabaseEnv(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...database, ...opts.env });
  const svc = await startService(config, opts.logger, { clock: opts.clock });
  const url = svc.url;
  return {
    svc,
    url,
    dataDir,
    async newClient(tier: Tier = 'enterprise') {
      const org = await createOrganization(svc.ctx.engine, `org-${Math.random().toString(36).slice(2, 8)}`, tier);
      const { api_key } = await createApiKey(svc.ctx.engine, org.id);
      return new Client(url, api_key, org.id);
    },
    async sameOrgClient(client: Client) {
      const { api_key } = await createApiKey(svc.ctx.engine, client.orgId);
      return new Client(url, api_key, client.orgId);
    },
    close: () => svc.close(),
  };
}

/**
 * The usual set-up of a test file (call it at the top level, or in a describe): one server with
 * `opts` for all its tests, closed after them, and a client of a new organization (`opts.tier`,
 * default Enterprise); both are handed to `ready` before the first test.
 */
export function serverSuite(opts: TestServerOptions & { tier?: Tier }, ready: (server: TestServer, client: Client) => void | Promise<void>): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(opts);
    await ready(server, await server.newClient(opts.tier));
  });
  afterAll(() => server?.close());
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Client {
  constructor(
    readonly url: string,
    readonly key: string | undefined,
    readonly orgId: string,
  ) {}

  async request<T = any>(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const res = await fetch(this.url + p, this.requestInit(method, body, headers));
    const parsed = parseBody(await res.text());
    // Every answer the suites see must be one the OpenAPI document describes (test/helpers/openapi.ts).
    assertDocumented(method, p, res.status, res.headers, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** The request as sent: the key as a bearer token, a body as JSON unless it is a string already. */
  protected requestInit(method: string, body: unknown, headers: Record<string, string>): RequestInit {
    const h: Record<string, string> = { ...headers };
    if (this.key) h.authorization = `Bearer ${this.key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    return { method, headers: h, body: payload };
  }

  get = <T = any>(p: string) => this.request<T>('GET', p);
  put = <T = any>(p: string, b?: unknown, h?: Record<string, string>) => this.request<T>('PUT', p, b, h);
  patch = <T = any>(p: string, b?: unknown, h?: Record<string, string>) => this.request<T>('PATCH', p, b, h);
  del = <T = any>(p: string) => this.request<T>('DELETE', p);
  post = <T = any>(p: string, b?: unknown, h?: Record<string, string>) => this.request<T>('POST', p, b, h);

  async importMarkdown(markdown: string, title?: string): Promise<string> {
    const r = await this.put('/v1/journals/editor/import_from_markdown', { markdown, title });
    if (r.status !== 200) throw new Error(`import failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.journal_id;
  }

  async model(id: string): Promise<any> {
    const r = await this.get(`/v1/journals/editor/model/${id}`);
    if (r.status !== 200) throw new Error(`model failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async content(id: string): Promise<string> {
    const r = await this.get(`/v1/journals/content/${id}`);
    if (r.status !== 200) throw new Error(`content failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.content;
  }

  edit(journal_id: string, operations: unknown[], extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
    return this.patch('/v1/journals/editor/edit', { journal_id, operations, ...extra }, headers);
  }
}

/** An answer's body: its JSON, or the text itself when it is not JSON (undefined when empty). */
export function parseBody(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** Top-level blocks of a model as [type, id, text] for compact assertions. */
export function blocks(model: any): { type: string; id: string; text: string; attrs: any }[] {
  return (model.model.content ?? []).map((n: any) => ({ type: n.type, id: n.attrs?.id, text: textOf(n), attrs: n.attrs }));
}

export function textOf(n: any): string {
  if (n.text) return n.text;
  return (n.content ?? []).map(textOf).join('');
}
