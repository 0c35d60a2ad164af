/**
 * The webhook outbox and its secrets on both engines, with two instances (two engines opened on
 * one fresh database): both pump the same outbox and every event reaches the receiver exactly
 * once; a delivery cut short by a killed instance is made again after its lease; secrets created
 * or rotated by one instance are the ones the other signs with.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { WebhookOutbox, type WebhookOptions } from '../../server/webhooks/outbox.ts';
import { WebhookSecrets } from '../../server/webhooks/secrets.ts';
import { verify } from '../../server/webhooks/signing.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';
import { until } from '../helpers/wait.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const cases = await engineCases();
const logger = createLogger('silent');
const options = (o: Partial<WebhookOptions> = {}): WebhookOptions => ({
  allowPrivate: true,
  timeoutMs: 5_000,
  maxAttempts: 3,
  retryBaseMs: 20,
  pollMs: 20,
  concurrency: 4,
  ...o,
});

async function newOrg(engine: StorageEngine): Promise<string> {
  const id = randomUUID();
  await engine.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [id, 'org', 'enterprise', new Date().toISOString()]);
  return id;
}

function outbox(engine: StorageEngine, o: Partial<WebhookOptions> = {}): WebhookOutbox {
  return new WebhookOutbox(engine, new WebhookSecrets(engine), options(o), logger);
}

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    let a: StorageEngine;
    let b: StorageEngine;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      db = await c.freshDatabase();
      a = await db.open();
      b = await db.open(); // a second instance on the same database
    });
    afterAll(async () => {
      for (const r of receivers) await r.close();
      await db?.drop();
    });

    async function receiver(status?: (n: number) => number): Promise<Receiver> {
      const r = await startReceiver(status);
      receivers.push(r);
      return r;
    }

    it('two instances pumping one outbox deliver each event exactly once, signed', async () => {
      const org = await newOrg(a);
      const rx = await receiver();
      const boxes = [outbox(a), outbox(b)];
      const n = 30;
      // Queued on both instances, some inside a transaction of the change they report.
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const box = boxes[i % 2]!;
        const engine = i % 2 ? b : a;
        const event = { orgId: org, url: `${rx.url}/h/${i}`, type: 'test.event', data: { i } };
        ids.push(i % 3 ? await box.enqueue(event) : await engine.transaction((tx) => box.enqueue(event, tx)));
      }
      for (const box of boxes) box.start();
      try {
        await until(() => rx.received.length >= n, `${n} deliveries`);
        await until(async () => (await a.get<{ n: number }>(`SELECT COUNT(*) AS n FROM webhook_outbox WHERE org_id = ? AND state = 'delivered'`, [org]))!.n === n, 'all delivered');
        await sleep(100); // nothing more arrives
      } finally {
        await Promise.all(boxes.map((x) => x.stop()));
      }
      const seen = rx.received.map((m) => String(m.headers['webhook-id']));
      expect(seen).toHaveLength(n);
      expect(new Set(seen)).toEqual(new Set(ids));
      const secret = await new WebhookSecrets(a).secret(org);
      for (const m of rx.received) {
        expect(verify(secret, String(m.headers['webhook-id']), Number(m.headers['webhook-timestamp']), m.body, String(m.headers['webhook-signature']))).toBe(true);
      }
      for (const id of ids) expect(await boxes[0]!.message(id)).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
    });

    it('a failing receiver gets its retries from either instance, then the message fails once', async () => {
      const org = await newOrg(a);
      const rx = await receiver(() => 503);
      const boxes = [outbox(a), outbox(b)];
      const id = await boxes[0]!.enqueue({ orgId: org, url: `${rx.url}/down`, type: 'test.event', data: {} });
      for (const box of boxes) box.start();
      try {
        const row = await until(async () => {
          const r = await boxes[1]!.message(id);
          return r?.state === 'failed' && r;
        }, 'failed state');
        expect(row.attempts).toBe(3);
        expect(row.last_error).toMatch(/HTTP 503.*gave up after 3 attempts/);
        await sleep(100);
      } finally {
        await Promise.all(boxes.map((x) => x.stop()));
      }
      expect(rx.received).toHaveLength(3);
      expect(new Set(rx.received.map((m) => m.headers['webhook-id']))).toEqual(new Set([id]));
    });

    it('a delivery held by a killed instance is made again once its lease runs out', async () => {
      const org = await newOrg(a);
      const rx = await receiver();
      const box = outbox(b, { timeoutMs: 100 });
      const id = await box.enqueue({ orgId: org, url: `${rx.url}/late`, type: 'test.event', data: {} });
      // Instance A claimed it (its lease: the attempt's timeout plus 30 s) and died mid-delivery.
      await a.run('UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?', [Date.now() + 300, id]);
      const started = Date.now();
      box.start();
      try {
        await until(() => rx.received.length >= 1, 'the delivery');
        expect(Date.now() - started).toBeGreaterThanOrEqual(200);
        await until(async () => (await box.message(id))?.state === 'delivered', 'delivered');
      } finally {
        await box.stop();
      }
      expect(await box.message(id)).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(rx.received).toHaveLength(1);
    });

    it('secrets: created once when two instances ask at once; a rotation on one is signed with on the other', async () => {
      const org = await newOrg(a);
      const sa = new WebhookSecrets(a);
      const sb = new WebhookSecrets(b);
      const first = await Promise.all([sa.secret(org), sb.secret(org), sa.secret(org), sb.secret(org)]);
      expect(new Set(first).size).toBe(1);
      expect(first[0]).toMatch(/^whsec_/);
      const rotated = await sb.rotate(org);
      expect(rotated).not.toBe(first[0]);
      expect(await sa.secret(org)).toBe(rotated);
      expect(await sa.signingSecrets(org)).toEqual([rotated, first[0]]);
      expect(await sa.signingSecrets(org, Date.now() + 25 * 60 * 60 * 1000)).toEqual([rotated]);
    });
  });
});
