/**
 * Where rate-limit counters live. The store counts a request in every window it is checked
 * against, all or nothing: a request refused by one window is not counted in any. Counters are
 * rows of `rate_counters`: one per organization, endpoint and window kind, reset in place when a
 * new window starts.
 *
 * - `SharedRateLimitStore` (the default): every admission counts in storage with one conditional
 *   upsert per window (`... DO UPDATE SET count = count + 1 ... WHERE count < limit RETURNING
 *   count`). An upsert locks its row and sees the latest committed count (PostgreSQL's READ
 *   COMMITTED included), so limits are exact however many instances share the database: 30
 *   parallel requests over 3 instances against a limit of 10 admit exactly 10. When only one
 *   window has a limit (most endpoints: no day limit), one multi-row upsert counts every window,
 *   the limited one only below its limit; when that one was full, the others (which have no limit
 *   a transient extra count could trip) are decremented again. When both have limits, they are
 *   counted in one transaction that a full window rolls back. Rows are always taken in the same
 *   order (day, then minute), so that two admissions never deadlock.
 * - `ProcessRateLimitStore`: the counters of this process in memory, where admission costs no I/O,
 *   written every second and when the service closes (a crash forgets at most the last second);
 *   counters of an organization not yet seen are read on first use. Exact only while ONE process
 *   admits requests on the store: embedded SQLite, as `npm start` runs it. The wiring chooses it
 *   (the domain does not know the engine).
 */
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import type { WindowName } from './limits.ts';
import { Serial } from './serial.ts';

export interface WindowCheck {
  window: WindowName;
  /** Epoch seconds at which the current window started. */
  start: number;
  /** Requests allowed in the window; Infinity counts without limiting. */
  limit: number;
}

/** A window a request was counted in: its kind and the epoch second it started. */
export type CountedWindow = Pick<WindowCheck, 'window' | 'start'>;

export type HitResult =
  | { ok: true; counts: Partial<Record<WindowName, number>> }
  /** `window` is the first full window, in the order the checks were given. */
  | { ok: false; window: WindowName; count: number };

export interface RateLimitStore {
  /** Synchronous when the store can answer from memory (admission's hot path). */
  hit(orgId: string, endpoint: string, checks: readonly WindowCheck[]): HitResult | Promise<HitResult>;
  /**
   * Takes back one request counted by `hit` in each of `windows` (a request refused before it did
   * any work). A window that has since restarted is left alone. Never below zero.
   */
  uncount(orgId: string, endpoint: string, windows: readonly CountedWindow[]): void | Promise<void>;
  /** Requests counted per endpoint in the window that started at `start`. */
  counts(orgId: string, window: WindowName, start: number, q?: Queryable): Promise<Record<string, number>>;
  /** Makes every count so far durable. */
  flush(): Promise<void>;
}

const PER_ENDPOINT = 'SELECT endpoint, count FROM rate_counters WHERE org_id = ? AND win = ? AND window_start = ?';

async function storedCounts(q: Queryable, orgId: string, window: WindowName, start: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of await q.all<{ endpoint: string; count: number }>(PER_ENDPOINT, [orgId, window, start])) out[r.endpoint] = r.count;
  return out;
}

/** Refused without counting: thrown inside the admission transaction to roll back the windows counted so far. */
class Full extends Error {
  constructor(
    readonly window: WindowName,
    readonly count: number,
  ) {
    super('rate limit window full');
  }
}

/**
 * Counts the request unless the window is full (a new window starts at 1). No row back: full.
 * A limit of 0 never gets here (refused in JS, as the first INSERT would count 1).
 */
const HIT_LIMITED = `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, ?, ?, 1)
  ON CONFLICT (org_id, endpoint, win) DO UPDATE
    SET count = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
        window_start = excluded.window_start
  WHERE rate_counters.window_start <> excluded.window_start OR rate_counters.count < ?
  RETURNING count`;
const HIT_UNLIMITED = `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, ?, ?, 1)
  ON CONFLICT (org_id, endpoint, win) DO UPDATE
    SET count = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
        window_start = excluded.window_start
  RETURNING count`;
/** Every window counted in one statement; the window named by the last-but-one parameter only below its limit (the last). */
const HIT_ONE_LIMITED = (windows: number) => `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES ${Array(windows).fill('(?, ?, ?, ?, 1)').join(', ')}
  ON CONFLICT (org_id, endpoint, win) DO UPDATE
    SET count = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
        window_start = excluded.window_start
  WHERE rate_counters.win <> ? OR rate_counters.window_start <> excluded.window_start OR rate_counters.count < ?
  RETURNING win, count`;
const UNCOUNT = 'UPDATE rate_counters SET count = count - 1 WHERE org_id = ? AND endpoint = ? AND win = ? AND window_start = ? AND count > 0';
const COUNT_OF = 'SELECT window_start, count FROM rate_counters WHERE org_id = ? AND endpoint = ? AND win = ? LIMIT 1';

export class SharedRateLimitStore implements RateLimitStore {
  constructor(readonly engine: StorageEngine) {}

  async hit(orgId: string, endpoint: string, checks: readonly WindowCheck[]): Promise<HitResult> {
    const zero = checks.find((c) => c.limit <= 0);
    if (zero) return { ok: false, window: zero.window, count: await this.countIn(orgId, endpoint, zero) };
    const limited = checks.filter((c) => c.limit !== Infinity);
    if (limited.length === 1) {
      // One window can refuse (the common case: no day limit): one statement counts every window,
      // the limited one only when it has room. When it had none, the others, which have no limit
      // to guard, are uncounted again at once. One round trip per admission, no transaction.
      const first = limited[0]!;
      const sql = HIT_ONE_LIMITED(checks.length);
      const params: (string | number)[] = [];
      for (const c of checks) params.push(orgId, endpoint, c.window, c.start);
      params.push(first.window, first.limit);
      const rows = await this.engine.all<{ win: WindowName; count: number }>(sql, params);
      const counts: Partial<Record<WindowName, number>> = {};
      for (const r of rows) counts[r.win] = r.count;
      if (counts[first.window] !== undefined) return { ok: true, counts };
      await this.uncount(orgId, endpoint, checks.filter((c) => c !== first));
      return { ok: false, window: first.window, count: first.limit };
    }
    try {
      return await this.engine.transaction(async (tx) => {
        const counts: Partial<Record<WindowName, number>> = {};
        for (const c of checks) {
          const row =
            c.limit === Infinity
              ? await tx.get<{ count: number }>(HIT_UNLIMITED, [orgId, endpoint, c.window, c.start])
              : await tx.get<{ count: number }>(HIT_LIMITED, [orgId, endpoint, c.window, c.start, c.limit]);
          if (!row) throw new Full(c.window, c.limit);
          counts[c.window] = row.count;
        }
        return { ok: true as const, counts };
      });
    } catch (e) {
      if (e instanceof Full) return { ok: false, window: e.window, count: e.count };
      throw e;
    }
  }

  async uncount(orgId: string, endpoint: string, windows: readonly CountedWindow[]): Promise<void> {
    for (const c of windows) await this.engine.run(UNCOUNT, [orgId, endpoint, c.window, c.start]);
  }

  private async countIn(orgId: string, endpoint: string, c: WindowCheck): Promise<number> {
    const row = await this.engine.get<{ window_start: number; count: number }>(COUNT_OF, [orgId, endpoint, c.window]);
    return row && row.window_start === c.start ? row.count : 0;
  }

  counts(orgId: string, window: WindowName, start: number, q: Queryable = this.engine): Promise<Record<string, number>> {
    return storedCounts(q, orgId, window, start);
  }

  /** Every admission is already committed. */
  async flush(): Promise<void> {}
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

const SAVE = `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (org_id, endpoint, win) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`;

export class ProcessRateLimitStore implements RateLimitStore {
  /** orgId -> endpoint -> counters */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly dirty = new Set<Entry>();
  private readonly flushes = new Serial();

  constructor(readonly engine: StorageEngine) {}

  private entry(orgId: string, endpoint: string): Entry | Promise<Entry> {
    const e = this.entries.get(orgId)?.get(endpoint);
    if (e) return e;
    const k = `${orgId}\n${endpoint}`;
    let p = this.loading.get(k);
    if (!p) {
      p = this.load(orgId, endpoint).finally(() => this.loading.delete(k));
      this.loading.set(k, p);
    }
    return p;
  }

  private async load(orgId: string, endpoint: string): Promise<Entry> {
    const rows = await this.engine.all<{ win: WindowName; window_start: number; count: number }>(
      'SELECT win, window_start, count FROM rate_counters WHERE org_id = ? AND endpoint = ?',
      [orgId, endpoint],
    );
    const e: Entry = { orgId, endpoint, minute: { start: 0, count: 0 }, day: { start: 0, count: 0 } };
    for (const r of rows) e[r.win] = { start: r.window_start, count: r.count };
    let org = this.entries.get(orgId);
    if (!org) this.entries.set(orgId, (org = new Map()));
    org.set(endpoint, e);
    return e;
  }

  hit(orgId: string, endpoint: string, checks: readonly WindowCheck[]): HitResult | Promise<HitResult> {
    const e = this.entry(orgId, endpoint);
    return e instanceof Promise ? e.then((loaded) => this.count(loaded, checks)) : this.count(e, checks);
  }

  private count(e: Entry, checks: readonly WindowCheck[]): HitResult {
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

  uncount(orgId: string, endpoint: string, windows: readonly CountedWindow[]): void {
    const e = this.entries.get(orgId)?.get(endpoint);
    if (!e) return;
    for (const c of windows) {
      const counter = e[c.window];
      if (counter.start === c.start && counter.count > 0) counter.count--;
    }
    this.dirty.add(e);
  }

  async counts(orgId: string, window: WindowName, start: number, q: Queryable = this.engine): Promise<Record<string, number>> {
    const out = await storedCounts(q, orgId, window, start);
    const mine = this.entries.get(orgId);
    if (mine) {
      for (const e of mine.values()) {
        if (e[window].start === start) out[e.endpoint] = e[window].count;
        else delete out[e.endpoint];
      }
    }
    return out;
  }

  /** Writes the changed counters in one transaction; flushes never overlap. On failure they stay dirty. */
  flush(): Promise<void> {
    return this.flushes.run(() => this.flushOnce());
  }

  private async flushOnce(): Promise<void> {
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty].map((e) => ({ e, minute: { ...e.minute }, day: { ...e.day } }));
    this.dirty.clear();
    try {
      await this.engine.transaction(async (tx) => {
        for (const { e, minute, day } of batch) {
          await tx.run(SAVE, [e.orgId, e.endpoint, 'minute', minute.start, minute.count]);
          await tx.run(SAVE, [e.orgId, e.endpoint, 'day', day.start, day.count]);
        }
      });
    } catch (err) {
      for (const { e } of batch) this.dirty.add(e);
      throw err;
    }
  }
}
