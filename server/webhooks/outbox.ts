/**
 * The webhook outbox: a domain records an event in the same transaction as the state change it
 * reports (`enqueue`), and the dispatcher delivers it afterwards, signed per Standard Webhooks,
 * retrying with exponential backoff and jitter. A message being delivered holds a lease (its
 * next_attempt_at is pushed past the request timeout), so a crash mid-delivery only delays it.
 * Any domain can use it: an event is a type, an organization, a URL and JSON data.
 *
 * Instances sharing one database all pump the same outbox: a claim is one statement whose update
 * takes only rows still due (a row another instance claimed meanwhile has its next_attempt_at
 * pushed past the lease, and PostgreSQL re-checks the condition on the row it waited for), so
 * each attempt is made by one instance. The outcome is recorded only by the holder of that
 * attempt (`attempts` unchanged since its claim).
 *
 * Fairness between organizations: a claim takes the organizations' due messages in turns (each
 * organization's oldest first, then each one's second, ...), and one organization holds at most
 * `perOrgConcurrency(concurrency)` of this process's delivery slots; every attempt, connection,
 * headers and body, ends within the timeout (`post`). So a receiver that answers slowly, or
 * trickles its answer, delays other organizations' deliveries by nothing while slots are free
 * and never by more than one timeout.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Pump } from '../jobs/pump.ts';
import type { Logger } from '../logger.ts';
import { nowIso } from '../time.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
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

/** Delivery slots of one process that one organization may hold at once: half of them (at least one). */
export function perOrgConcurrency(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

export class WebhookOutbox {
  // Polling finds work whose retry time came, whose lease expired (a crashed process), or that
  // another instance queued.
  private readonly pump: Pump;
  private readonly active: Pump['active'];
  /** Deliveries running in this process, per organization. */
  private readonly activeByOrg = new Map<string, number>();
  /** Tests and deployments with their own DNS may replace the resolver. */
  resolver: Resolver = systemResolver;

  constructor(
    readonly engine: StorageEngine,
    readonly secrets: WebhookSecrets,
    private readonly opts: WebhookOptions,
    private readonly logger: Logger,
  ) {
    this.pump = new Pump(() => this.fill(), opts.pollMs);
    this.active = this.pump.active;
  }

  /** Records an event for delivery; pass the transaction of the change it reports. */
  async enqueue(e: WebhookEvent, q: Queryable = this.engine): Promise<string> {
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({ type: e.type, timestamp: nowIso(), data: e.data });
    await q.run(
      `INSERT INTO webhook_outbox (id, org_id, url, event_type, body, state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      [id, e.orgId, e.url, e.type, body, Date.now(), nowIso()],
    );
    q.afterCommit(() => this.kick());
    return id;
  }

  message(id: string): Promise<OutboxRow | undefined> {
    return this.engine.get<OutboxRow>('SELECT * FROM webhook_outbox WHERE id = ?', [id]);
  }

  start(): void {
    this.pump.start();
  }

  kick(): void {
    this.pump.kick();
  }

  /**
   * Leases up to `limit` due messages, organizations in turns: ranked by their place in their
   * organization's queue (oldest first), an organization past its share of this process's slots
   * left out. The update takes only rows still due, so a row another instance leased meanwhile
   * is skipped (its next_attempt_at moved past `now`).
   */
  private claim(limit: number, now: number): Promise<OutboxRow[]> {
    const cap = perOrgConcurrency(this.opts.concurrency);
    // An organization with deliveries running here gets only what is left of its share.
    const busy = [...this.activeByOrg].filter(([, n]) => n > 0);
    // (Typed: PostgreSQL cannot infer a CASE of parameters.)
    const room = busy.length === 0 ? 'CAST(? AS INTEGER)' : `CASE org_id ${busy.map(() => 'WHEN ? THEN CAST(? AS INTEGER)').join(' ')} ELSE CAST(? AS INTEGER) END`;
    const roomParams = [...busy.flatMap(([org, n]) => [org, cap - n]), cap];
    return this.engine.all<OutboxRow>(
      `WITH picked AS MATERIALIZED (
         SELECT id FROM (
           SELECT id, org_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY org_id ORDER BY next_attempt_at, id) AS turn
             FROM webhook_outbox WHERE state = 'pending' AND next_attempt_at <= ?) due
          WHERE turn <= ${room}
          ORDER BY turn, next_attempt_at LIMIT ?)
       UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_at = ?
        WHERE id IN (SELECT id FROM picked) AND state = 'pending' AND next_attempt_at <= ?
       RETURNING *`,
      [now, ...roomParams, limit, now + this.opts.timeoutMs + 30_000, now],
    );
  }

  private async fill(): Promise<void> {
    while (this.pump.running && this.active.size < this.opts.concurrency) {
      const room = this.opts.concurrency - this.active.size;
      let rows: OutboxRow[];
      try {
        rows = await this.claim(room, Date.now());
      } catch (err) {
        this.logger.error({ err }, 'webhook claim failed');
        return;
      }
      if (!this.pump.running) {
        await Promise.allSettled(rows.map((r) => this.release(r)));
        return;
      }
      rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at);
      for (const msg of rows) {
        const controller = new AbortController();
        this.activeByOrg.set(msg.org_id, (this.activeByOrg.get(msg.org_id) ?? 0) + 1);
        const done = this.attempt(msg, controller.signal)
          .catch((err) => {
            // The outcome could not be recorded: the lease runs out and the attempt is made again.
            this.logger.error({ err, webhook_id: msg.id }, 'recording a webhook attempt failed');
          })
          .finally(() => {
            this.active.delete(msg.id);
            const n = (this.activeByOrg.get(msg.org_id) ?? 1) - 1;
            if (n > 0) this.activeByOrg.set(msg.org_id, n);
            else this.activeByOrg.delete(msg.org_id);
            this.kick();
          });
        this.active.set(msg.id, { controller, done });
      }
      if (rows.length < room) return;
    }
  }

  /** Puts a claimed message back at once, the attempt not counted (our own shutdown). */
  private async release(row: OutboxRow): Promise<void> {
    await this.engine.run(
      `UPDATE webhook_outbox SET next_attempt_at = ?, attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
        WHERE id = ? AND state = 'pending' AND attempts = ?`,
      [Date.now(), row.id, row.attempts],
    );
  }

  private async attempt(row: OutboxRow, signal: AbortSignal): Promise<void> {
    let status: number;
    try {
      const url = new URL(row.url);
      const target = await resolveTarget(url, this.opts.allowPrivate, this.resolver);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = (await this.secrets.signingSecrets(row.org_id)).map((s) => sign(s, row.id, timestamp, row.body)).join(' ');
      status = await post(url, target, row.body, {
        'content-type': 'application/json',
        'user-agent': 'study-content-service-webhooks/1',
        'webhook-id': row.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      }, this.opts.timeoutMs, signal);
    } catch (err) {
      if (signal.aborted && signal.reason instanceof Shutdown) {
        await this.release(row);
        return;
      }
      if (err instanceof RefusedTarget || err instanceof TypeError) {
        // A refused or malformed target will not get better by waiting.
        await this.failed(row, null, (err as Error).message);
        this.logger.warn({ webhook_id: row.id, error: (err as Error).message }, 'webhook refused');
        return;
      }
      await this.failAttempt(row, null, (err as Error).message);
      return;
    }
    if (status >= 200 && status < 300) {
      // Delivered is a fact, whoever holds the lease now: recorded unconditionally.
      await this.engine.run(`UPDATE webhook_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ? WHERE id = ?`, [
        status,
        nowIso(),
        row.id,
      ]);
      this.logger.info({ webhook_id: row.id, type: row.event_type, status, attempt: row.attempts }, 'webhook delivered');
      return;
    }
    await this.failAttempt(row, status, `receiver answered HTTP ${status}`);
  }

  /** Gives the message up; only while this attempt still holds it. */
  private async failed(row: OutboxRow, status: number | null, error: string): Promise<void> {
    await this.engine.run(`UPDATE webhook_outbox SET state = 'failed', last_status = ?, last_error = ? WHERE id = ? AND state = 'pending' AND attempts = ?`, [
      status,
      error,
      row.id,
      row.attempts,
    ]);
  }

  private async failAttempt(row: OutboxRow, status: number | null, error: string): Promise<void> {
    if (row.attempts >= this.opts.maxAttempts) {
      await this.failed(row, status, `${error} (gave up after ${row.attempts} attempts)`);
      this.logger.warn({ webhook_id: row.id, attempts: row.attempts, error }, 'webhook failed permanently');
      return;
    }
    const delay = retryDelayMs(row.attempts, this.opts.retryBaseMs);
    await this.engine.run('UPDATE webhook_outbox SET next_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ? AND state = \'pending\' AND attempts = ?', [
      Date.now() + delay,
      status,
      error,
      row.id,
      row.attempts,
    ]);
    this.logger.info({ webhook_id: row.id, attempt: row.attempts, retry_in_ms: delay, error }, 'webhook attempt failed; will retry');
  }

  async stop(): Promise<void> {
    await this.pump.stop(new Shutdown('shutting down'));
  }
}

/**
 * POSTs to `url` connecting to the already checked `target` address; resolves with the status as
 * soon as the receiver's status line and headers arrive (the body is not read: it is never used,
 * and a receiver trickling it would hold the delivery). The whole attempt (connection, request,
 * status and headers) ends within `timeoutMs`, however slowly the receiver sends: a timer, not
 * only the socket's idle timeout, which every trickled byte resets.
 */
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
        clearTimeout(deadline);
        resolve(res.statusCode ?? 0);
        // Nothing more is read: the connection (never reused, agent: false) is closed now.
        res.on('error', () => {});
        res.destroy();
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`the delivery did not complete within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.end(body);
  });
}
