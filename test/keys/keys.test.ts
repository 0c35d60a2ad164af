/**
 * Key management over REST (docs/keys.md): roles, list/create/revoke by admin keys, 403 for
 * members, 404 across organizations, the last admin kept, revocation closing editors at once,
 * last_used_at, the first-start key and the admin command line's --role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty, createApiKey, createOrganization, resolveApiKey } from '../../server/auth/keys.ts';
import { runAdmin } from '../../server/admin/cli.ts';
import { Client, startTestServer, testDatabaseEnv, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, waitFor } from '../realtime/helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Polls an async check until it returns a truthy value (bounded). */
async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A new organization with one admin key. */
async function adminClient(): Promise<Client> {
  const org = await createOrganization(server.svc.ctx.engine, `org-${Math.random().toString(36).slice(2, 8)}`, 'enterprise');
  const { api_key } = await createApiKey(server.svc.ctx.engine, org.id, 'admin', 'admin');
  return new Client(server.url, api_key, org.id);
}

describe('roles', () => {
  it('the first-start key is an admin; keys are members unless made admins', async () => {
    // This server's database already has organizations (other tests), so bootstrap on a fresh one.
    const fresh = await startTestServer();
    try {
      const boot = await bootstrapIfEmpty(fresh.svc.ctx.engine);
      expect(boot).toBeDefined();
      expect((await resolveApiKey(fresh.svc.ctx.engine, boot!.api_key))!.role).toBe('admin');
      const c = new Client(fresh.url, boot!.api_key, boot!.org.id);
      const list = await c.get('/v1/keys');
      expect(list.status).toBe(200);
      expect(list.body.keys).toEqual([expect.objectContaining({ key_id: boot!.key_id, name: 'bootstrap', role: 'admin', revoked_at: null })]);
      const member = await fresh.newClient();
      expect((await resolveApiKey(fresh.svc.ctx.engine, member.key!))!.role).toBe('member');
    } finally {
      await fresh.close();
    }
  });

  it('a member key gets 403 on every key endpoint and keeps the rest of the API', async () => {
    const admin = await adminClient();
    const created = await admin.post('/v1/keys', { name: 'member one', role: 'member' });
    expect(created.status).toBe(201);
    const member = new Client(server.url, created.body.api_key, admin.orgId);
    for (const r of [
      await member.get('/v1/keys'),
      await member.post('/v1/keys', { name: 'sneaky', role: 'admin' }),
      await member.post('/v1/keys', { nonsense: true }),
      await member.del(`/v1/keys/${created.body.key_id}`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(/admin key/);
    }
    // Nothing was created or revoked by the member.
    const keys = (await admin.get('/v1/keys')).body.keys;
    expect(keys.map((k: any) => k.name).sort()).toEqual(['admin', 'member one']);
    expect((await member.get('/v1/journals/list')).status).toBe(200);
    expect((await member.get('/v1/usage')).status).toBe(200);
  });
});

describe('GET/POST/DELETE /v1/keys', () => {
  it('creates a key whose secret is shown once and works at once; lists keys without secrets', async () => {
    const admin = await adminClient();
    const r = await admin.post('/v1/keys', { name: 'CI pipeline', role: 'admin' });
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      success: true,
      key_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      api_key: expect.stringMatching(/^sk_study_[A-Za-z0-9_-]{32}$/),
      name: 'CI pipeline',
      role: 'admin',
      created_at: expect.any(String),
    });
    const second = new Client(server.url, r.body.api_key, admin.orgId);
    expect((await second.get('/v1/keys')).status).toBe(200); // an admin too
    const list = await admin.request('GET', '/v1/keys');
    expect(JSON.stringify(list.body)).not.toContain(r.body.api_key);
    const entry = list.body.keys.find((k: any) => k.key_id === r.body.key_id);
    expect(entry).toEqual({
      key_id: r.body.key_id,
      name: 'CI pipeline',
      prefix: r.body.api_key.slice(0, 13),
      role: 'admin',
      created_at: r.body.created_at,
      last_used_at: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
      revoked_at: null,
    });
    // Role defaults to member.
    const plain = await admin.post('/v1/keys', { name: 'plain' });
    expect(plain.body.role).toBe('member');
  });

  it('refuses bad input with 422 and creates nothing', async () => {
    const admin = await adminClient();
    const cases: [unknown, (string | number)[]][] = [
      [{}, ['body', 'name']],
      [{ name: '   ' }, ['body', 'name']],
      [{ name: 'x'.repeat(101) }, ['body', 'name']],
      [{ name: 'ok', role: 'owner' }, ['body', 'role']],
      [{ name: 'ok', extra: 1 }, ['body']],
      [{ name: 7 }, ['body', 'name']],
    ];
    for (const [body, loc] of cases) {
      const r = await admin.post('/v1/keys', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    const idem = await admin.post('/v1/keys', { name: 'retry' }, { 'Idempotency-Key': 'abc' });
    expect(idem.status).toBe(422);
    expect(idem.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    for (const q of ['page_size=0', 'page_size=101', 'page_token=@@', 'page_token=bm9wZQ', 'include_revoked=yes']) {
      expect((await admin.get(`/v1/keys?${q}`)).status, q).toBe(422);
    }
    expect((await admin.get('/v1/keys')).body.keys).toHaveLength(1);
  });

  it('pages newest first without repeating or skipping a key', async () => {
    const admin = await adminClient();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await admin.post('/v1/keys', { name: `k${i}` })).body.key_id);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const r = await admin.get(`/v1/keys?page_size=3${token ? `&page_token=${token}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.keys.length).toBeLessThanOrEqual(3);
      seen.push(...r.body.keys.map((k: any) => k.key_id));
      token = r.body.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(8);
    expect(seen.slice(0, 7)).toEqual([...made].reverse()); // newest first, then the admin key
  });

  it('revokes a key at once (401 on its next request), answers the first revocation again, hides it unless asked', async () => {
    const admin = await adminClient();
    const made = (await admin.post('/v1/keys', { name: 'doomed' })).body;
    const doomed = new Client(server.url, made.api_key, admin.orgId);
    expect((await doomed.get('/v1/journals/list')).status).toBe(200);
    const r = await admin.del(`/v1/keys/${made.key_id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'API key revoked', key_id: made.key_id, revoked_at: expect.any(String) });
    expect((await doomed.get('/v1/journals/list')).status).toBe(401);
    const again = await admin.del(`/v1/keys/${made.key_id}`);
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(r.body.revoked_at);
    expect((await admin.get('/v1/keys')).body.keys.map((k: any) => k.key_id)).not.toContain(made.key_id);
    const all = (await admin.get('/v1/keys?include_revoked=true')).body.keys;
    expect(all.find((k: any) => k.key_id === made.key_id).revoked_at).toBe(r.body.revoked_at);
  });

  it("another organization's key and unknown ids are 404, and nothing is revoked", async () => {
    const admin = await adminClient();
    const other = await adminClient();
    const theirs = (await other.post('/v1/keys', { name: 'theirs' })).body;
    const r = await admin.del(`/v1/keys/${theirs.key_id}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.any(String) });
    expect((await admin.del('/v1/keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await new Client(server.url, theirs.api_key, other.orgId).get('/v1/journals/list')).status).toBe(200);
    expect((await admin.get('/v1/keys?include_revoked=true')).body.keys.map((k: any) => k.key_id)).not.toContain(theirs.key_id);
  });

  it("keeps the organization's last admin key (409) and lets an admin revoke itself while another admin remains", async () => {
    const admin = await adminClient();
    const me = (await admin.get('/v1/keys')).body.keys[0];
    const last = await admin.del(`/v1/keys/${me.key_id}`);
    expect(last.status).toBe(409);
    expect(last.body.error).toMatch(/last admin key/);
    expect((await admin.get('/v1/keys')).status).toBe(200);
    const member = (await admin.post('/v1/keys', { name: 'member' })).body;
    expect((await admin.del(`/v1/keys/${member.key_id}`)).status).toBe(200); // members go freely
    const second = (await admin.post('/v1/keys', { name: 'second admin', role: 'admin' })).body;
    expect((await admin.del(`/v1/keys/${me.key_id}`)).status).toBe(200);
    expect((await admin.get('/v1/keys')).status).toBe(401);
    const next = new Client(server.url, second.api_key, admin.orgId);
    expect((await next.del(`/v1/keys/${second.key_id}`)).status).toBe(409);
  });

  it('two admins revoking each other at once leave one admin', async () => {
    const a = await adminClient();
    const bMade = (await a.post('/v1/keys', { name: 'b', role: 'admin' })).body;
    const b = new Client(server.url, bMade.api_key, a.orgId);
    const aId = (await a.get('/v1/keys')).body.keys.find((k: any) => k.name === 'admin').key_id;
    const [ra, rb] = await Promise.all([a.del(`/v1/keys/${bMade.key_id}`), b.del(`/v1/keys/${aId}`)]);
    // One wins; the other is refused: 409 (it saw the last admin) or 401 (its own key went first).
    const statuses = [ra.status, rb.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const active = await server.svc.ctx.engine.all<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND role = 'admin' AND revoked_at IS NULL", [a.orgId]);
    expect(Number(active[0]!.n)).toBe(1);
  });

  it("revoking a key closes its open editor connections at once (4401), not the others'", async () => {
    const admin = await adminClient();
    const made = (await admin.post('/v1/keys', { name: 'editor' })).body;
    const user = new Client(server.url, made.api_key, admin.orgId);
    const id = await user.importMarkdown('# Notes\n');
    const adminJournal = await admin.importMarkdown('# Mine\n');
    const e = connectEditor(server.url, id, { key: made.api_key });
    const other = connectEditor(server.url, adminJournal, { key: admin.key });
    try {
      await Promise.all([synced(e), synced(other)]);
      // The revocation poll runs each second; the REST revoke closes right away: the close follows
      // the answer within a few request round trips measured just before (this machine, now).
      let rtt = 0;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await admin.get('/v1/keys');
        rtt = Math.max(rtt, performance.now() - t);
      }
      expect((await admin.del(`/v1/keys/${made.key_id}`)).status).toBe(200);
      const answered = performance.now();
      await waitFor(() => e.closes.length > 0, 'revocation close');
      const lag = performance.now() - answered;
      expect(lag, `closed ${lag.toFixed(0)} ms after the answer; a request takes up to ${rtt.toFixed(1)} ms`).toBeLessThan(10 * Math.max(rtt, 10));
      expect(e.closes[0]).toEqual({ code: 4401, reason: 'API key revoked' });
      expect(other.closes).toEqual([]);
    } finally {
      e.destroy();
      other.destroy();
    }
  });

  it('records when each key was last used (within about a second)', async () => {
    const admin = await adminClient();
    const made = (await admin.post('/v1/keys', { name: 'quiet' })).body;
    const entry = async () => (await admin.get('/v1/keys')).body.keys.find((k: any) => k.key_id === made.key_id);
    await server.svc.ctx.lastUsed.flush();
    expect((await entry()).last_used_at).toBeNull();
    const before = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    expect((await new Client(server.url, made.api_key, admin.orgId).get('/v1/journals/list')).status).toBe(200);
    const used: string = await eventually(async () => (await entry()).last_used_at, 'last_used_at');
    expect(used >= before).toBe(true);
    expect(Date.parse(used)).toBeLessThanOrEqual(Date.now());
  });
});

describe('admin command line', () => {
  it('key create --role admin makes an admin key; the default is member; a bad role is a usage error', async () => {
    const env = { DATA_DIR: server.dataDir, ...(await testDatabaseEnv(server.dataDir)) };
    const org = JSON.parse((await runAdmin(['org', 'create', '--name', 'Cli org'], env)).out!);
    const admin = JSON.parse((await runAdmin(['key', 'create', '--org', org.org_id, '--name', 'ops', '--role', 'admin'], env)).out!);
    expect(admin).toMatchObject({ role: 'admin', name: 'ops' });
    const member = JSON.parse((await runAdmin(['key', 'create', '--org', org.org_id], env)).out!);
    expect(member.role).toBe('member');
    const bad = await runAdmin(['key', 'create', '--org', org.org_id, '--role', 'owner'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--role must be one of admin, member/);
    await eventually(async () => (await new Client(server.url, admin.api_key, org.org_id).get('/v1/keys')).status === 200, 'admin key seen by the server');
    expect((await new Client(server.url, member.api_key, org.org_id).get('/v1/keys')).status).toBe(403);
  });
});
