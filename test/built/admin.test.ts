/**
 * The admin command line as users run it: the build, dist/server/admin.cjs (scripts/build-server.mjs),
 * directly and through `npm run --silent admin` (scripts/admin.mjs), on the DATA_DIR of a running
 * built server. Every command runs at least once and its effect is checked on the server over HTTP;
 * `--help` on the top level, every group and every command prints its usage on stdout and exits 0.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, GROUPS } from '../../server/admin/usage.ts';
import { CHANGE_CHECK_MS } from '../../server/auth/changes.ts';
import { killChildServers, startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { Client, tempDataDir } from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = tempDataDir();
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(file: string, args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: root, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** `node dist/server/admin.cjs …`: one command, its single line of JSON parsed. */
async function admin(...args: string[]): Promise<any> {
  const r = await exec(process.execPath, ['dist/server/admin.cjs', ...args]);
  expect(r, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout.split('\n'), args.join(' ')).toHaveLength(2); // one line and its newline
  return JSON.parse(r.stdout);
}

let server: ChildServer;

beforeAll(async () => {
  server = await startChildServer(dataDir);
});
afterAll(() => killChildServers());

describe('the built admin command line on a running built server', { timeout: 120_000 }, () => {
  let orgId: string;
  let client: Client;

  it('creates an organization and a key through `npm run --silent admin`, and the key works on the server', async () => {
    const created = await exec('npm', ['run', '--silent', 'admin', '--', 'org', 'create', '--name', 'Built CLI']);
    // Fresh build: nothing rebuilt, so stdout and stderr hold only the command's own output.
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const org = JSON.parse(created.stdout);
    expect(org).toEqual({ org_id: expect.any(String), name: 'Built CLI', tier: 'developer' });
    orgId = org.org_id;
    const key = await admin('key', 'create', '--org', orgId, '--name', 'built', '--role', 'admin');
    expect(key).toMatchObject({ key_id: expect.any(String), api_key: expect.stringMatching(/^sk_study_/), name: 'built', role: 'admin' });
    client = new Client(server.url, key.api_key, orgId);
    const r = await client.get('/v1/journals/list');
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-policy')).toBe('"minute";q=25;w=60');
    const keys = await client.get('/v1/keys');
    expect(keys.body.keys.map((k: { key_id: string }) => k.key_id)).toEqual([key.key_id]);
  });

  it('lists and shows organizations as the server sees them', async () => {
    const list = await admin('org', 'list');
    expect(list.organizations).toContainEqual(expect.objectContaining({ org_id: orgId, name: 'Built CLI', tier: 'developer' }));
    // The server's own first-start organization is in the same store.
    expect(list.count).toBe(2);
    const shown = await admin('org', 'show', '--org', orgId);
    expect(shown).toMatchObject({ org_id: orgId, keys: { active: 1, revoked: 0 } });
    // The server charged the requests above in the same store (read charges are written within a
    // second: the CLI may answer before).
    await until(async () => (await admin('org', 'show', '--org', orgId)).credit_balance_usd < 5, 'the reads charged in the store', 10_000);
  });

  it("changes the tier and a limit, applied to the server's next requests", async () => {
    expect(await admin('org', 'set-tier', '--org', orgId, '--tier', 'scale')).toMatchObject({ tier: 'scale', previous_tier: 'developer' });
    expect(await admin('org', 'set-limit', '--org', orgId, '--endpoint', 'GET /journals/list', '--window', 'minute', '--limit', '7')).toMatchObject({
      per_minute: 7,
      custom: true,
    });
    await sleep(CHANGE_CHECK_MS + 5);
    expect((await client.get('/v1/journals/list')).headers.get('ratelimit-policy')).toBe('"minute";q=7;w=60');
    expect((await client.get('/v1/usage')).body.organization.tier).toBe('scale');
  });

  it('sets and grants credits: none left is a 402 on the server, a grant lets requests through again', async () => {
    expect(await admin('credits', 'set', '--org', orgId, '--usd', '0')).toEqual({ org_id: orgId, credit_balance_usd: 0 });
    await sleep(CHANGE_CHECK_MS + 5);
    expect((await client.put('/v1/journals/editor/create', { title: 'x' })).status).toBe(402);
    expect(await admin('credits', 'grant', '--org', orgId, '--usd', '1.5')).toEqual({ org_id: orgId, credit_balance_usd: 1.5 });
    await sleep(CHANGE_CHECK_MS + 5);
    expect((await client.put('/v1/journals/editor/create', { title: 'x' })).status).toBe(200);
  });

  it('shows and rotates the webhook signing secret', async () => {
    const first = await admin('webhook', 'secret', '--org', orgId);
    expect(first.secret).toMatch(/^whsec_/);
    expect(await admin('webhook', 'secret', '--org', orgId)).toEqual(first);
    const rotated = await admin('webhook', 'rotate-secret', '--org', orgId);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    expect(await admin('webhook', 'secret', '--org', orgId)).toEqual(rotated);
  });

  it('lists keys without secrets and revokes one: the server refuses it from then on', async () => {
    const other = await admin('key', 'create', '--org', orgId, '--name', 'to revoke');
    const otherClient = new Client(server.url, other.api_key, orgId);
    expect((await otherClient.get('/v1/journals/list')).status).toBe(200);
    const list = await admin('key', 'list', '--org', orgId);
    expect(JSON.stringify(list)).not.toContain(other.api_key);
    expect(list.keys.map((k: { name: string }) => k.name).sort()).toEqual(['built', 'to revoke']);
    expect(await admin('key', 'revoke', '--key-id', other.key_id)).toMatchObject({ key_id: other.key_id, org_id: orgId, revoked_at: expect.any(String) });
    await sleep(CHANGE_CHECK_MS + 5);
    expect((await otherClient.get('/v1/journals/list')).status).toBe(401);
    expect((await client.get('/v1/journals/list')).status).toBe(200);
  });
});

describe('help and usage errors of the built admin command line', { timeout: 120_000 }, () => {
  const node = (...args: string[]) => exec(process.execPath, ['dist/server/admin.cjs', ...args]);

  it('prints the usage of the whole CLI, of every group and of every command on stdout, exit 0', async () => {
    const pages: [string[], string][] = [
      [['--help'], 'Usage: npm run --silent admin -- <command>'],
      [['-h'], 'Usage: npm run --silent admin -- <command>'],
      [['help'], 'Usage: npm run --silent admin -- <command>'],
      ...GROUPS.map((g): [string[], string] => [[g, '--help'], `Usage: npm run --silent admin -- ${g} <subcommand>`]),
      ...Object.entries(COMMANDS).map(([name, c]): [string[], string] => [[...name.split(' '), '--help'], `Usage: npm run --silent admin -- ${`${name} ${c.flags}`.trimEnd()}\n`]),
    ];
    const results = await Promise.all(pages.map(([args]) => node(...args)));
    for (const [i, r] of results.entries()) {
      const [args, start] = pages[i]!;
      expect(r, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout.startsWith(start), `${args.join(' ')}: ${r.stdout}`).toBe(true);
    }
    // Through npm too, as the README shows it.
    const viaNpm = await exec('npm', ['run', '--silent', 'admin', '--', 'key', 'create', '--help']);
    expect(viaNpm).toMatchObject({ code: 0, stderr: '' });
    expect(viaNpm.stdout).toContain(COMMANDS['key create'].about);
  });

  it('refuses an unknown command or option with the usage on stderr and exit 2, an unknown id with exit 1', async () => {
    for (const args of [['frobnicate'], ['org', 'frobnicate', '--help'], ['org', 'list', '--bogus']]) {
      const r = await node(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Usage: npm run --silent admin -- <command>');
    }
    const unknown = await node('org', 'show', '--org', 'nope');
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'no organization with id nope\n' });
  });
});
