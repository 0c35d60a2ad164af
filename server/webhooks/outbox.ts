/**
 * The webhook outbox: a domain records an event in the same SQLite transaction as the state
 * change it reports (`enqueue`), and the dispatcher delivers it afterwards, signed per Standard
 * Webhooks, retrying with exponential backoff and jitter. A message being delivered holds a
 * lease (its next_attempt_at is pushed past the request timeout), so a crash mid-delivery only
 * delays it. Any domain can use it: an event is a type, an organization, a URL and JSON data.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Statement } from 'better-sqlite3';
import { Pump } from '../jobs/pump.ts';
import type { Logger } from '../logger.ts';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';
import type { WebhookSecrets } from './secrets.ts';
import { sign } from './signing.ts';
import { RefusedTarget, resolveTarget, systemResolver, type Resolver } from './ssrf.ts';

export interface WebhookOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  concurrency: number;
}

/** Each retry waits RETRY_FACTOR times longer than the one before, up to RETRY_CAP_MS, ±20 % jitter. */
export const RETRY_FACTOR = 4;
export const RETRY_CAP_MS = 6 * 60 * 60 * 1000;

export function retryDelayMs(failedAttempts: number, baseMs: number, random = Math.random()): number {
  const nominal = Math.min(RETRY_CAP_MS, baseMs * RETRY_FACTOR ** Math.max(0, failedAttempts - 1));
  return Math.round(nominal * (0.8 + 0.4 * random));
}

export interface OutboxRow {
  id: string;
  org_id: string;
  url: string;
  event_type: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookEvent {
  orgId: string;
  url: string;
  type: string;
  data: Record<string, unknown>;
}

class Shutdown extends Error {}

export class WebhookOutbox {
  private readonly insert: Statement;
  private readonly byId: Statement;
  private readonly claimStmt: Statement;
  private readonly deliveredStmt: Statement;
  private readonly retryStmt: Statement;
  private readonly failedStmt: Statement;
  private readonly releaseStmt: Statement;
  // Polling finds work whose retry time came or whose lease expired (a crashed process).
  private readonly pump: Pump;
  private readonly active: Pump['active'];
  /** Tests and deployments with their own DNS may replace the resolver. */
  resolver: Resolver = systemResolver;

  constructor(
    readonly db: DB,
    readonly secrets: WebhookSecrets,
    private readonly opts: WebhookOptions,
    private readonly logger: Logger,
  ) {
    this.pump = new Pump(() => this.fill(), opts.pollMs);
    this.active = this.pump.active;
    this.insert = db.prepare(
      `INSERT INTO webhook_outbox (id, org_id, url, event_type, body, state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    );
    this.byId = db.prepare('SELECT * FROM webhook_outbox WHERE id = ?');
    this.claimStmt = db.prepare(
      `UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_at = @lease
        WHERE id = (SELECT id FROM webhook_outbox WHERE state = 'pending' AND next_attempt_at <= @now
                     ORDER BY next_attempt_at LIMIT 1)
       RETURNING *`,
    );
    this.deliveredStmt = db.prepare(
      `UPDATE webhook_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ? WHERE id = ?`,
    );
    this.retryStmt = db.prepare('UPDATE webhook_outbox SET next_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ?');
    this.failedStmt = db.prepare(`UPDATE webhook_outbox SET state = 'failed', last_status = ?, last_error = ? WHERE id = ?`);
    this.releaseStmt = db.prepare('UPDATE webhook_outbox SET next_attempt_at = ?, attempts = MAX(attempts - 1, 0) WHERE id = ?');
  }

  /** Records an event for delivery; call inside the transaction of the change it reports. */
  enqueue(e: WebhookEvent): string {
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({ type: e.type, timestamp: nowIso(), data: e.data });
    this.insert.run(id, e.orgId, e.url, e.type, body, Date.now(), nowIso());
    this.kick();
    return id;
  }

  message(id: string): OutboxRow | undefined {
    return this.byId.get(id) as OutboxRow | undefined;
  }

  start(): void {
    this.pump.start();
  }

  kick(): void {
    this.pump.kick();
  }

  private fill(): void {
    while (this.active.size < this.opts.concurrency) {
      const now = Date.now();
      let row: OutboxRow | undefined;
      try {
        row = this.claimStmt.get({ now, lease: now + this.opts.timeoutMs + 30_000 }) as OutboxRow | undefined;
      } catch (err) {
        this.logger.error({ err }, 'webhook claim failed');
        return;
      }
      if (!row) return;
      const controller = new AbortController();
      const msg = row;
      const done = this.attempt(msg, controller.signal).finally(() => {
        this.active.delete(msg.id);
        this.kick();
      });
      this.active.set(msg.id, { controller, done });
    }
  }

  private async attempt(row: OutboxRow, signal: AbortSignal): Promise<void> {
    let status: number | null = null;
    try {
      const url = new URL(row.url);
      const target = await resolveTarget(url, this.opts.allowPrivate, this.resolver);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = this.secrets
        .signingSecrets(row.org_id)
        .map((s) => sign(s, row.id, timestamp, row.body))
        .join(' ');
      status = await post(url, target, row.body, {
        'content-type': 'application/json',
        'user-agent': 'study-content-service-webhooks/1',
        'webhook-id': row.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      }, this.opts.timeoutMs, signal);
      if (status >= 200 && status < 300) {
        this.deliveredStmt.run(status, nowIso(), row.id);
        this.logger.info({ webhook_id: row.id, type: row.event_type, status, attempt: row.attempts }, 'webhook delivered');
        return;
      }
      this.failAttempt(row, status, `receiver answered HTTP ${status}`);
    } catch (err) {
      if (signal.aborted && signal.reason instanceof Shutdown) {
        this.releaseStmt.run(Date.now(), row.id);
        return;
      }
      if (err instanceof RefusedTarget || err instanceof TypeError) {
        // A refused or malformed target will not get better by waiting.
        this.failedStmt.run(null, (err as Error).message, row.id);
        this.logger.warn({ webhook_id: row.id, error: (err as Error).message }, 'webhook refused');
        return;
      }
      this.failAttempt(row, status, (err as Error).message);
    }
  }

  private failAttempt(row: OutboxRow, status: number | null, error: string): void {
    if (row.attempts >= this.opts.maxAttempts) {
      this.failedStmt.run(status, `${error} (gave up after ${row.attempts} attempts)`, row.id);
      this.logger.warn({ webhook_id: row.id, attempts: row.attempts, error }, 'webhook failed permanently');
      return;
    }
    const delay = retryDelayMs(row.attempts, this.opts.retryBaseMs);
    this.retryStmt.run(Date.now() + delay, status, error, row.id);
    this.logger.info({ webhook_id: row.id, attempt: row.attempts, retry_in_ms: delay, error }, 'webhook attempt failed; will retry');
  }

  async stop(): Promise<void> {
    await this.pump.stop(new Shutdown('shutting down'));
  }
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** POSTs to `url` connecting to the already checked `target` address; resolves with the status. */
function post(
  url: URL,
  target: { address: string; family: 4 | 6 },
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<number> {
  // Pins the connection to the checked address; Host and TLS SNI still come from the URL.
  const lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
        timeout: timeoutMs,
        signal,
      },
      (res) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('close', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
