/**
 * Webhook delivery to a real receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true here): Standard
 * Webhooks headers and a signature verified independently with the secret from the admin command
 * line, retries with backoff after failures (same webhook-id), a bounded number of attempts, and
 * secret rotation.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { retryDelayMs, RETRY_CAP_MS } from '../../server/webhooks/outbox.ts';
import { verify } from '../../server/webhooks/signing.ts';
import { startTestServer, testDatabaseEnv, type Client, type TestServer } from '../helpers/server.ts';
import { createSet, until, waitForSet } from '../practice-api/helpers.ts';
import { startReceiver, type Received, type Receiver } from './receiver.ts';

let server: TestServer;
let client: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_MAX_ATTEMPTS: '4' } });
  client = await server.newClient();
});
afterAll(async () => {
  await server.close();
  for (const r of receivers) await r.close();
});

async function receiver(status?: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(status);
  receivers.push(r);
  return r;
}

/** The admin command line on the server's store (its DATA_DIR, or its PostgreSQL database). */
async function adminEnv(): Promise<NodeJS.ProcessEnv> {
  return { DATA_DIR: server.dataDir, ...(await testDatabaseEnv(server.dataDir)) };
}

async function admin(...args: string[]): Promise<any> {
  const r = await runAdmin(args, await adminEnv());
  if (r.code !== 0) throw new Error(`admin ${args.join(' ')}: ${r.err}`);
  return JSON.parse(r.out!);
}

/** Receiver-side verification written from the Standard Webhooks text, not with our signing code. */
function independentlyVerified(secret: string, m: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${m.headers['webhook-id']}.${m.headers['webhook-timestamp']}.${m.body}`).digest('base64');
  return String(m.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('webhook delivery', () => {
  it('a completed set is announced, signed per Standard Webhooks with the organization secret', async () => {
    const { secret } = await admin('webhook', 'secret', '--org', client.orgId);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await admin('webhook', 'secret', '--org', client.orgId)).secret).toBe(secret); // stable until rotated
    const rx = await receiver();
    const id = await createSet(client, { set_description: 'fractions', count: 2, webhook_url: `${rx.url}/hooks/practice?src=test` });
    await waitForSet(client, id);
    const [m] = await until(() => rx.received.length >= 1 && rx.received, 'a delivery');
    expect(m!.path).toBe('/hooks/practice?src=test');
    expect(m!.headers['content-type']).toBe('application/json');
    expect(m!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(m!.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(independentlyVerified(secret, m!)).toBe(true);
    expect(verify(secret, String(m!.headers['webhook-id']), Number(m!.headers['webhook-timestamp']), m!.body, String(m!.headers['webhook-signature']))).toBe(true);
    const tampered = m!.body.replace('completed', 'failed');
    expect(verify(secret, String(m!.headers['webhook-id']), Number(m!.headers['webhook-timestamp']), tampered, String(m!.headers['webhook-signature']))).toBe(false);
    const payload = JSON.parse(m!.body);
    expect(payload).toMatchObject({ type: 'practice_set.completed', data: { set_id: id, status: 'completed' } });
    expect(typeof payload.timestamp).toBe('string');
  });

  it('a failed set is announced as practice_set.failed with its message', async () => {
    const rx = await receiver();
    const id = await createSet(client, { set_description: 'write a sonnet about love', webhook_url: `${rx.url}/h` });
    await waitForSet(client, id);
    await until(() => rx.received.length >= 1, 'a delivery');
    const payload = JSON.parse(rx.received[0]!.body);
    expect(payload.type).toBe('practice_set.failed');
    expect(payload.data).toMatchObject({ set_id: id, status: 'failed' });
    expect(payload.data.message).toContain('No offline generator covers');
  });

  it('a failing receiver gets retries with the same webhook-id until it answers 2xx', async () => {
    const rx = await receiver((n) => (n <= 2 ? 500 : 204));
    const id = await createSet(client, { set_description: 'fractions', count: 1, webhook_url: `${rx.url}/flaky` });
    await waitForSet(client, id);
    await until(() => rx.received.length >= 3, 'three attempts');
    const ids = new Set(rx.received.map((m) => m.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const secret = (await admin('webhook', 'secret', '--org', client.orgId)).secret;
    for (const m of rx.received) expect(independentlyVerified(secret, m)).toBe(true);
    const row = await until(async () => {
      const r = await server.svc.ctx.webhooks.message(String(rx.received[0]!.headers['webhook-id']));
      return r?.state === 'delivered' && r;
    }, 'delivered state');
    expect(row).toMatchObject({ attempts: 3, last_status: 204 });
    expect(rx.received).toHaveLength(3);
  });

  it('attempts are bounded: a receiver that always fails ends in the failed state', async () => {
    const rx = await receiver(() => 503);
    const id = await createSet(client, { set_description: 'fractions', count: 1, webhook_url: `${rx.url}/down` });
    await waitForSet(client, id);
    const row = await until(async () => {
      const r = rx.received[0] && (await server.svc.ctx.webhooks.message(String(rx.received[0].headers['webhook-id'])));
      return r && r.state === 'failed' && r;
    }, 'failed state');
    expect(row.attempts).toBe(4);
    expect(row.last_error).toMatch(/HTTP 503.*gave up after 4 attempts/);
    expect(rx.received).toHaveLength(4);
  });

  it('rotate-secret: new secret; during the grace period deliveries carry both signatures', async () => {
    const c = await server.newClient();
    const old = (await admin('webhook', 'secret', '--org', c.orgId)).secret;
    const rotated = (await admin('webhook', 'rotate-secret', '--org', c.orgId)).secret;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(old);
    expect((await admin('webhook', 'secret', '--org', c.orgId)).secret).toBe(rotated);
    const rx = await receiver();
    await waitForSet(c, await createSet(c, { set_description: 'fractions', count: 1, webhook_url: `${rx.url}/r` }));
    await until(() => rx.received.length >= 1, 'a delivery');
    const m = rx.received[0]!;
    expect(String(m.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(independentlyVerified(rotated, m)).toBe(true);
    expect(independentlyVerified(old, m)).toBe(true);
    const other = await server.newClient();
    expect(independentlyVerified((await admin('webhook', 'secret', '--org', other.orgId)).secret, m)).toBe(false);
  });

  it('admin: unknown organization exits 1, missing --org exits 2', async () => {
    expect((await runAdmin(['webhook', 'secret', '--org', 'nope'], await adminEnv())).code).toBe(1);
    expect((await runAdmin(['webhook', 'rotate-secret'], await adminEnv())).code).toBe(2);
  });
});

describe('retry schedule', () => {
  it('grows 4x per failed attempt from the base, with ±20 % jitter, capped at 6 h', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 5000, 0.5))).toEqual([5000, 20000, 80000, 320000]);
    expect(retryDelayMs(1, 5000, 0)).toBe(4000);
    expect(retryDelayMs(1, 5000, 1)).toBe(6000);
    expect(retryDelayMs(12, 5000, 0.5)).toBe(RETRY_CAP_MS);
  });
});
