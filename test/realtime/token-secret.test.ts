/**
 * EDITOR_TOKEN_SECRET: instances configured with the same key accept each other's editor tokens
 * (a browser may reach any instance); without it, instances on the same store share the key the
 * first one made there, and instances on other stores do not.
 */
import { afterAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function server(env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const s = await startTestServer({ env, dataDir });
  servers.push(s);
  return s;
}

it('tokens minted on one instance verify on another with the same EDITOR_TOKEN_SECRET', async () => {
  const secret = 'ab'.repeat(32);
  const [a, b, other] = await Promise.all([server({ EDITOR_TOKEN_SECRET: secret }), server({ EDITOR_TOKEN_SECRET: secret }), server()]);
  const { token } = a.svc.ctx.editorTokens.mint('journal-1', 'key-1');
  expect(b.svc.ctx.editorTokens.verify(token)).toMatchObject({ journalId: 'journal-1', keyId: 'key-1' });
  expect(other.svc.ctx.editorTokens.verify(token)).toHaveProperty('error');
});

it('without EDITOR_TOKEN_SECRET, instances on one store share the key made in it', async () => {
  const a = await server();
  const b = await server({}, a.dataDir); // the same database (on PostgreSQL: the same DATABASE_URL)
  const elsewhere = await server();
  const { token } = a.svc.ctx.editorTokens.mint('journal-1', 'key-1');
  expect(b.svc.ctx.editorTokens.verify(token)).toMatchObject({ journalId: 'journal-1', keyId: 'key-1' });
  expect(elsewhere.svc.ctx.editorTokens.verify(token)).toHaveProperty('error');
});

it('refuses a secret shorter than 32 bytes or not hexadecimal, naming the variable', () => {
  for (const bad of ['ab'.repeat(31), 'zz'.repeat(32)]) {
    expect(() => loadConfig({ EDITOR_TOKEN_SECRET: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ EDITOR_TOKEN_SECRET: bad })).toThrow(/EDITOR_TOKEN_SECRET/);
  }
});
