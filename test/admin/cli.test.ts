import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_CHECK_MS } from '../../server/auth/changes.ts';
import { resolveApiKey } from '../../server/auth/keys.ts';
import { systemClock } from '../../server/billing/clock.ts';
import { runAdmin } from '../../server/admin/cli.ts';
import { COMMANDS, GROUPS } from '../../server/admin/usage.ts';
import { BillingService } from '../../server/billing/service.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { openPostgresEngine } from '../../server/storage/postgres-engine.ts';
import { openSqliteEngine } from '../../server/storage/sqlite-engine.ts';
import { engineCases, freshPostgres, type FreshPostgres } from '../helpers/databases.ts';
import { Client, startTestServer, tempDataDir, testDatabaseEnv, type TestServer } from '../helpers/server.ts';
import { ENDPOINT_CATALOG } from '../../server/endpoints.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

const dataDir = tempDataDir();
// The suite's engine: SQLite in DATA_DIR, or (project `postgres`) the server's database via DATABASE_URL.
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', ...(await testDatabaseEnv(dataDir)) };

interface Result {
  code: number;
  json: any;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line as built (dist/server/admin.cjs, compiled from the current source by the
 * suites' globalSetup), directly; the npm script in front of it is proven once below.
 */
async function admin(...args: string[]): Promise<Result> {
  return adminIn(env, ...args);
}

async function adminIn(environment: NodeJS.ProcessEnv, ...args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/server/admin.cjs', ...args], { cwd: root, env: environment });
    return { code: 0, json: JSON.parse(stdout), stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, json: undefined, stdout: err.stdout, stderr: err.stderr };
  }
}

let server: TestServer;
let orgId: string;

beforeAll(async () => {
  // The server runs on the same data directory, as in production: CLI changes apply at once.
  server = await startTestServer({ dataDir });
});
afterAll(() => server.close());

// Every test runs command line processes (up to a second each on a busy small machine).
describe('admin command line', { timeout: 120_000 }, () => {
  it('works through the npm script and prints exactly one JSON object', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'org', 'create', '--name', 'Acme'], { cwd: root, env });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(stdout);
    expect(out).toEqual({ org_id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Acme', tier: 'developer' });
    orgId = out.org_id;
  });

  it('shows and lists organizations with their balance and limits', async () => {
    const show = await admin('org', 'show', '--org', orgId);
    expect(show.code).toBe(0);
    expect(show.json).toMatchObject({ org_id: orgId, name: 'Acme', tier: 'developer', credit_balance_usd: 5, keys: { active: 0, revoked: 0 } });
    expect(show.json.limits).toContainEqual({ endpoint: 'GET /journals/list', per_minute: 25, per_day: null, custom: false });
    const list = await admin('org', 'list');
    expect(list.json.organizations).toContainEqual(expect.objectContaining({ org_id: orgId, name: 'Acme', tier: 'developer', credit_balance_usd: 5 }));
    expect(list.json.count).toBe(list.json.organizations.length);
  });

  it('sets the tier, taking effect on the next request', async () => {
    const key = await admin('key', 'create', '--org', orgId, '--name', 'ci');
    const client = new Client(server.url, key.json.api_key, orgId);
    expect((await client.get('/v1/journals/list')).headers.get('ratelimit-policy')).toBe('"minute";q=25;w=60');
    const r = await admin('org', 'set-tier', '--org', orgId, '--tier', 'scale');
    expect(r.json).toMatchObject({ org_id: orgId, tier: 'scale', previous_tier: 'developer' });
    expect((await client.get('/v1/journals/list')).headers.get('ratelimit-policy')).toBe('"minute";q=100;w=60');
    expect((await client.get('/v1/usage')).body.organization.tier).toBe('scale');
  });

  it('sets and clears a custom limit', async () => {
    await admin('org', 'set-tier', '--org', orgId, '--tier', 'enterprise');
    const set = await admin('org', 'set-limit', '--org', orgId, '--endpoint', 'POST /interactives/practice/create', '--window', 'minute', '--limit', '40');
    expect(set.json).toEqual({ org_id: orgId, tier: 'enterprise', endpoint: 'POST /interactives/practice/create', per_minute: 40, per_day: null, custom: true });
    const day = await admin('org', 'set-limit', '--org', orgId, '--endpoint', 'GET /journals/content/{journal_id}', '--window', 'day', '--limit', '7');
    expect(day.json).toMatchObject({ endpoint: 'GET /journals/content/{id}', per_minute: 1000, per_day: 7, custom: true });
    const key = await admin('key', 'create', '--org', orgId);
    const client = new Client(server.url, key.json.api_key, orgId);
    const r = await client.request('POST', '/v1/interactives/practice/create', {});
    expect(r.headers.get('ratelimit-policy')).toBe('"minute";q=40;w=60');
    const cleared = await admin('org', 'set-limit', '--org', orgId, '--endpoint', 'POST /interactives/practice/create', '--window', 'minute', '--limit', 'default');
    expect(cleared.json).toMatchObject({ per_minute: 1000, custom: false });
  });

  it('sets and grants credits in dollars', async () => {
    // The server holds earlier requests' read charges in memory until a flush (every second):
    // written now, not between the CLI's set and grant below.
    await server.svc.ctx.billing.flush();
    expect((await admin('credits', 'set', '--org', orgId, '--usd', '0.25')).json).toEqual({ org_id: orgId, credit_balance_usd: 0.25 });
    expect((await admin('credits', 'grant', '--org', orgId, '--usd', '10.000001')).json).toEqual({ org_id: orgId, credit_balance_usd: 10.250001 });
    expect(await server.svc.ctx.billing.credits.balance(orgId)).toBe(10_250_001);
    expect((await admin('credits', 'set', '--org', orgId, '--usd', '0')).json.credit_balance_usd).toBe(0);
  });

  it('lists keys without secrets and revokes one at once', async () => {
    const created = await admin('key', 'create', '--org', orgId, '--name', 'to-revoke');
    await admin('credits', 'set', '--org', orgId, '--usd', '1');
    const client = new Client(server.url, created.json.api_key, orgId);
    expect((await client.get('/v1/journals/list')).status).toBe(200);
    const list = await admin('key', 'list', '--org', orgId);
    expect(list.stdout).not.toContain(created.json.api_key);
    expect(list.stdout).not.toMatch(/key_hash/);
    const entry = list.json.keys.find((k: any) => k.key_id === created.json.key_id);
    // last_used_at: null, or the time of the request above once the server wrote it (within a second).
    const { last_used_at, ...rest } = entry;
    expect(rest).toEqual({ key_id: created.json.key_id, name: 'to-revoke', prefix: created.json.api_key.slice(0, 13), role: 'member', created_at: expect.any(String), revoked_at: null });
    expect(last_used_at === null || typeof last_used_at === 'string').toBe(true);
    const revoked = await admin('key', 'revoke', '--key-id', created.json.key_id);
    expect(revoked.json).toEqual({ key_id: created.json.key_id, org_id: orgId, revoked_at: expect.any(String) });
    expect((await client.get('/v1/journals/list')).status).toBe(401);
    const again = await admin('key', 'revoke', '--key-id', created.json.key_id);
    expect(again.json.revoked_at).toBe(revoked.json.revoked_at);
    expect((await admin('org', 'show', '--org', orgId)).json.keys.revoked).toBe(1);
  });

  it('rejects bad arguments with a message on stderr and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['org', 'set-tier', '--org', orgId, '--tier', 'gold'], /--tier must be one of developer, scale, enterprise/],
      [['org', 'set-tier', '--org', orgId], /--tier is required/],
      [['org', 'show'], /--org is required/],
      [['org', 'show', '--org', 'nope'], /no organization with id nope/],
      [['org', 'set-limit', '--org', orgId, '--endpoint', 'GET /nothing', '--window', 'minute', '--limit', '1'], /unknown endpoint "GET \/nothing"/],
      [['org', 'set-limit', '--org', orgId, '--endpoint', 'POST /video/create', '--window', 'hour', '--limit', '1'], /--window must be one of minute, day/],
      [['org', 'set-limit', '--org', orgId, '--endpoint', 'POST /video/create', '--window', 'day', '--limit=-3'], /--limit must be a whole number/],
      [['credits', 'set', '--org', orgId, '--usd', 'five'], /--usd must be an amount in dollars/],
      [['credits', 'grant', '--org', orgId, '--usd=-1'], /--usd must be an amount/],
      [['credits', 'grant', '--org', orgId, '--usd', '0'], /--usd must be more than 0/],
      [['credits', 'grant', '--org', orgId, '--usd', '0.0000001'], /at most 6 decimals/],
      [['key', 'list', '--org', 'nope'], /no organization with id nope/],
      [['key', 'revoke', '--key-id', 'nope'], /no API key with id nope/],
      [['key', 'revoke'], /--key-id is required/],
      [['org', 'frobnicate'], /Unknown command "org frobnicate"/],
      [['org', 'show', '--org', orgId, '--bogus', 'x'], /Unknown option '--bogus'/],
    ];
    const results = await Promise.all(cases.map(([args]) => admin(...args)));
    for (const [i, r] of results.entries()) {
      const [args, message] = cases[i]!;
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    // nothing changed ($1 set above, less one list read)
    expect((await admin('org', 'show', '--org', orgId)).json).toMatchObject({ tier: 'enterprise', credit_balance_usd: 0.99999 });
  });
});

/**
 * Help: `--help`, `-h` or `help` on the top level, a group or a command prints that usage on stdout
 * and exits 0, touching no store; anything unknown is still a usage error (exit 2, usage on stderr).
 */
describe('admin command line help', () => {
  // No store is opened for help: a DATA_DIR that cannot exist proves it.
  const noStore = { ...env, DATA_DIR: '/nonexistent/admin-help', DATABASE_URL: '' };
  const help = (...args: string[]) => runAdmin(args, noStore);

  it('prints the overview for --help, -h and help', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = await help(...args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.err).toBeUndefined();
      expect(r.out).toMatch(/^Usage: npm run --silent admin -- <command>/);
      for (const name of Object.keys(COMMANDS)) expect(r.out).toContain(`  ${name}`);
    }
  });

  it("prints each group's page, with every command of the group", async () => {
    for (const group of GROUPS) {
      for (const args of [[group, '--help'], [group, '-h'], [group, 'help'], ['help', group]]) {
        const r = await help(...args);
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.out).toMatch(new RegExp(`^Usage: npm run --silent admin -- ${group} <subcommand>`));
        for (const [name, c] of Object.entries(COMMANDS)) if (name.startsWith(`${group} `)) expect(r.out).toContain(c.about);
      }
    }
  });

  it("prints each command's page, flags and all, even with its flags given", async () => {
    for (const [name, c] of Object.entries(COMMANDS)) {
      for (const args of [[...name.split(' '), '--help'], [...name.split(' '), '-h'], ['help', ...name.split(' ')], [...name.split(' '), '--org', 'x', 'help']]) {
        const r = await help(...args);
        expect(r, args.join(' ')).toEqual({ code: 0, out: `Usage: npm run --silent admin -- ${`${name} ${c.flags}`.trimEnd()}\n\n${c.about}` });
      }
    }
  });

  it('still refuses unknown commands and options with the usage on stderr (exit 2)', async () => {
    for (const args of [['frobnicate', '--help'], ['org', 'frobnicate', '-h'], ['help', 'key', 'create', 'now'], ['org', 'list', '--bogus', '--help'], ['org'], []]) {
      const r = await help(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toBeUndefined();
      expect(r.err).toContain('Usage: npm run --silent admin -- <command>');
    }
  });

  it("names the command's own usage when its flags are wrong", async () => {
    const r = await runAdmin(['org', 'set-tier', '--org', 'x', '--tier', 'gold'], env);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`--tier must be one of developer, scale, enterprise\nUsage: npm run --silent admin -- org set-tier --org ORG_ID --tier developer|scale|enterprise\n\n${COMMANDS['org set-tier'].about}`);
  });
});

/**
 * The command line as a separate process on each engine (DATA_DIR's SQLite file, or PostgreSQL
 * through DATABASE_URL in its environment), with a store opened here standing for a running
 * server: its caches see the command line's changes within CHANGE_CHECK_MS.
 */
describe.each(await engineCases())('admin command line on the $title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let engine: StorageEngine;
    let billing: BillingService;
    let pg: FreshPostgres | undefined;
    let cliEnv: NodeJS.ProcessEnv;

    beforeAll(async () => {
      const dir = tempDataDir();
      if (c.kind === 'postgres') {
        pg = await freshPostgres();
        engine = await openPostgresEngine({ url: pg.url, poolSize: 2 });
        cliEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: pg.url };
      } else {
        engine = openSqliteEngine(path.join(dir, 'study.db'));
        cliEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
      }
      billing = new BillingService(engine, systemClock, ENDPOINT_CATALOG);
    });
    afterAll(async () => {
      await billing?.close();
      await engine?.close();
      await pg?.drop();
    });

    it('creates, changes and revokes on that store; a running server sees it within CHANGE_CHECK_MS', async () => {
      const org = (await adminIn(cliEnv, 'org', 'create', '--name', 'Elsewhere')).json;
      expect(org).toMatchObject({ name: 'Elsewhere', tier: 'developer' });
      const key = (await adminIn(cliEnv, 'key', 'create', '--org', org.org_id, '--name', 'k')).json;
      const principal = await resolveApiKey(engine, key.api_key);
      expect(principal).toMatchObject({ orgId: org.org_id, keyId: key.key_id, tier: 'developer' });
      expect((await billing.admit(principal!, 'GET /journals/list')).headers['RateLimit-Policy']).toBe('"minute";q=25;w=60');
      // The read's charge is held in memory until a flush (every second): written now, before the
      // balance is set below, not in the middle of the checks (the CLI answers within a second).
      await billing.flush();

      expect((await adminIn(cliEnv, 'org', 'set-tier', '--org', org.org_id, '--tier', 'scale')).json).toMatchObject({ tier: 'scale', previous_tier: 'developer' });
      expect((await adminIn(cliEnv, 'org', 'set-limit', '--org', org.org_id, '--endpoint', 'GET /journals/list', '--window', 'minute', '--limit', '7')).json).toMatchObject({
        per_minute: 7,
        custom: true,
      });
      expect((await adminIn(cliEnv, 'credits', 'set', '--org', org.org_id, '--usd', '0')).json).toEqual({ org_id: org.org_id, credit_balance_usd: 0 });
      await sleep(CHANGE_CHECK_MS + 5);
      const changed = await resolveApiKey(engine, key.api_key);
      expect(changed).toMatchObject({ tier: 'scale' });
      const refused = await billing.admit(changed!, 'GET /journals/list');
      expect(refused).toMatchObject({ ok: false, status: 402 });
      expect(refused.headers['RateLimit-Policy']).toBe('"minute";q=7;w=60');

      expect((await adminIn(cliEnv, 'credits', 'grant', '--org', org.org_id, '--usd', '2.5')).json.credit_balance_usd).toBe(2.5);
      expect(await billing.credits.balance(org.org_id)).toBe(2_500_000);
      const shown = (await adminIn(cliEnv, 'org', 'show', '--org', org.org_id)).json;
      expect(shown).toMatchObject({ tier: 'scale', credit_balance_usd: 2.5, keys: { active: 1, revoked: 0 } });
      expect(shown.limits).toContainEqual({ endpoint: 'GET /journals/list', per_minute: 7, per_day: null, custom: true });

      const revoked = await adminIn(cliEnv, 'key', 'revoke', '--key-id', key.key_id);
      expect(revoked.json).toMatchObject({ key_id: key.key_id, org_id: org.org_id, revoked_at: expect.any(String) });
      await sleep(CHANGE_CHECK_MS + 5);
      expect(await resolveApiKey(engine, key.api_key)).toBeUndefined();
      const list = await adminIn(cliEnv, 'org', 'list');
      expect(list.json.organizations).toContainEqual(expect.objectContaining({ org_id: org.org_id, tier: 'scale', credit_balance_usd: 2.5 }));
      expect((await adminIn(cliEnv, 'key', 'revoke', '--key-id', 'nope')).code).toBe(1);
    }, 120_000); // a dozen command line processes, one after the other
  });
});
