/**
 * Where rate-limit counters live. The store counts a request in every window it is checked
 * against, all or nothing: a request refused by one window is not counted in any.
 *
 * The SQLite store keeps the counters of this process in memory, where admission costs no I/O,
 * and writes the changed ones to SQLite (one row per organization, endpoint and window kind, reset
 * in place when a new window starts) every second and when the service closes. A restart keeps
 * its counts (a day window goes on where it was); a crash forgets at most the last second of
 * counting. Counters of an organization not yet seen by this process are read from SQLite on
 * first use.
 *
 * A shared store (Redis, for several server processes behind one balancer) implements the same
 * interface with one Lua script per `hit` (INCR + EXPIREAT per window); it would return a Promise
 * and the admission middleware would await it.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import type { WindowName } from './limits.ts';

export interface WindowCheck {
  window: WindowName;
  /** Epoch seconds at which the current window started. */
  start: number;
  /** Requests allowed in the window; Infinity counts without limiting. */
  limit: number;
}

export type HitResult =
  | { ok: true; counts: Partial<Record<WindowName, number>> }
  /** `window` is the first full window, in the order the checks were given. */
  | { ok: false; window: WindowName; count: number };

export interface RateLimitStore {
  hit(orgId: string, endpoint: string, checks: readonly WindowCheck[]): HitResult;
  /** Requests counted per endpoint in the window that started at `start`. */
  counts(orgId: string, window: WindowName, start: number): Record<string, number>;
  /** Makes every count so far durable. */
  flush(): void;
}

interface Counter {
  start: number;
  count: number;
}

interface Entry {
  orgId: string;
  endpoint: string;
  minute: Counter;
  day: Counter;
}

export class SqliteRateLimitStore implements RateLimitStore {
  /** orgId -> endpoint -> counters */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly dirty = new Set<Entry>();
  private readonly load: Statement;
  private readonly save: Statement;
  private readonly perEndpoint: Statement;

  constructor(readonly db: DB) {
    this.load = db.prepare('SELECT win, window_start, count FROM rate_counters WHERE org_id = ? AND endpoint = ?').raw();
    this.save = db.prepare(
      `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_id, endpoint, win) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
    );
    this.perEndpoint = db.prepare('SELECT endpoint, count FROM rate_counters WHERE org_id = ? AND win = ? AND window_start = ?').raw();
  }

  private entry(orgId: string, endpoint: string): Entry {
    let org = this.entries.get(orgId);
    if (!org) this.entries.set(orgId, (org = new Map()));
    let e = org.get(endpoint);
    if (!e) {
      e = { orgId, endpoint, minute: { start: 0, count: 0 }, day: { start: 0, count: 0 } };
      for (const [win, start, count] of this.load.all(orgId, endpoint) as [WindowName, number, number][]) e[win] = { start, count };
      org.set(endpoint, e);
    }
    return e;
  }

  hit(orgId: string, endpoint: string, checks: readonly WindowCheck[]): HitResult {
    const e = this.entry(orgId, endpoint);
    for (const c of checks) {
      const counter = e[c.window];
      const used = counter.start === c.start ? counter.count : 0;
      if (used >= c.limit) return { ok: false, window: c.window, count: used };
    }
    const counts: Partial<Record<WindowName, number>> = {};
    for (const c of checks) {
      const counter = e[c.window];
      if (counter.start !== c.start) {
        counter.start = c.start;
        counter.count = 0;
      }
      counts[c.window] = ++counter.count;
    }
    this.dirty.add(e);
    return { ok: true, counts };
  }

  counts(orgId: string, window: WindowName, start: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [endpoint, count] of this.perEndpoint.all(orgId, window, start) as [string, number][]) out[endpoint] = count;
    const mine = this.entries.get(orgId);
    if (mine) {
      for (const e of mine.values()) {
        if (e[window].start === start) out[e.endpoint] = e[window].count;
        else delete out[e.endpoint];
      }
    }
    return out;
  }

  /** Writes the changed counters; call inside a transaction (BillingService.flush does). */
  flush(): void {
    for (const e of this.dirty) {
      this.save.run(e.orgId, e.endpoint, 'minute', e.minute.start, e.minute.count);
      this.save.run(e.orgId, e.endpoint, 'day', e.day.start, e.day.count);
    }
    this.dirty.clear();
  }
}
