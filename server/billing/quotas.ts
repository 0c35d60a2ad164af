/**
 * Quotas of an organization beside its request limits (docs/billing.md, "Realtime bytes and
 * stored bytes"): bytes received from its editors per minute, and bytes its journals keep in the
 * store of record. The tier values are ORG_QUOTAS (limits.ts).
 *
 * Realtime bytes are counted in memory, synchronously on every editor message (no I/O on that
 * path), and added every second to the organization's counter in the rate-limit table
 * (`rate_counters`, endpoint REALTIME_BYTES_COUNTER, window `minute`) with one upsert that returns
 * the total of every instance: each instance refuses once that total plus what it received since
 * reaches the quota. Exact with one instance; several instances on one database can together go
 * past it by at most what they receive in one flush interval.
 *
 * Stored bytes are measured from the store of record (snapshots, update logs and versions of the
 * organization's journals, trash included), at most every STORED_REFRESH_MS per organization,
 * plus the bytes of editor updates this instance admitted since: every instance sees the others'
 * writes within that interval.
 */
import type { Principal, Tier } from '../auth/keys.ts';
import type { StorageEngine } from '../storage/engine.ts';
import type { Clock } from './clock.ts';
import { ORG_QUOTAS, windowAt, type OrgQuota } from './limits.ts';
import { Serial } from './serial.ts';

/** The `rate_counters` row (endpoint column) of an organization's realtime bytes. */
export const REALTIME_BYTES_COUNTER = 'realtime bytes received';
/** How often counts held in memory are added to the store. */
export const QUOTA_FLUSH_MS = 1_000;
/** How long a measured stored size is trusted. */
export const STORED_REFRESH_MS = 5_000;

/** A refusal: what to tell the client, and when to try again (seconds; undefined: not before storage is freed). */
export interface QuotaRefusal {
  message: string;
  retryAfter?: number;
}

interface RealtimeCount {
  start: number;
  /** Received here and not yet added to the store. */
  pending: number;
  /** The store's total for the window, all instances, as of the last flush. */
  known: number;
  /** A message was refused in this window: upgrades are refused until it ends. */
  refused?: boolean;
}

interface StoredSize {
  bytes: number;
  /** Bytes of editor updates admitted since the measure (an upper bound of what they added). */
  since: number;
  measuredAt: number;
  refreshing?: Promise<number>;
}

const ADD = `INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, ?, 'minute', ?, ?)
  ON CONFLICT (org_id, endpoint, win) DO UPDATE
    SET count = CASE WHEN rate_counters.window_start = excluded.window_start THEN rate_counters.count + excluded.count ELSE excluded.count END,
        window_start = excluded.window_start
  RETURNING count`;
const COUNT = `SELECT window_start, count FROM rate_counters WHERE org_id = ? AND endpoint = ? AND win = 'minute'`;

/** Bytes of the organization's journals in the store: snapshots, update logs, versions (trash included). */
const STORED = `SELECT
  COALESCE((SELECT SUM(LENGTH(s.data)) FROM journal_snapshots s JOIN journals j ON j.seq = s.journal_seq WHERE j.org_id = ?), 0)
  + COALESCE((SELECT SUM(LENGTH(u.data)) FROM journal_updates u JOIN journals j ON j.seq = u.journal_seq WHERE j.org_id = ?), 0)
  + COALESCE((SELECT SUM(LENGTH(v.data)) FROM journal_versions v JOIN journals j ON j.seq = v.journal_seq WHERE j.org_id = ?), 0) AS bytes`;

export type QuotaTable = Record<Tier, OrgQuota>;

export class OrgQuotas {
  private readonly realtime = new Map<string, RealtimeCount>();
  private readonly dirty = new Set<string>();
  private readonly stored = new Map<string, StoredSize>();
  private readonly flushes = new Serial();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly engine: StorageEngine,
    readonly clock: Clock,
    readonly table: QuotaTable = ORG_QUOTAS,
  ) {
    this.timer = setInterval(() => this.flush().catch(() => {}), QUOTA_FLUSH_MS);
    this.timer.unref();
  }

  quota(tier: Tier): OrgQuota {
    return this.table[tier];
  }

  // ---- realtime bytes per minute ----

  private count(orgId: string, now: number): RealtimeCount {
    const start = windowAt('minute', now).start;
    let c = this.realtime.get(orgId);
    if (!c || c.start !== start) {
      // A new window: what the last one held unflushed no longer counts against anything.
      c = { start, pending: 0, known: 0 };
      this.realtime.set(orgId, c);
    }
    return c;
  }

  /**
   * Counts `bytes` received from an editor of `p`'s organization; a refusal (not counted) when
   * they would take the minute's total past the tier's quota. Synchronous: the hot path.
   */
  receive(p: Principal, bytes: number): QuotaRefusal | undefined {
    const now = this.clock.now();
    const c = this.count(p.orgId, now);
    const limit = this.table[p.tier].realtimeBytesPerMinute;
    if (c.known + c.pending + bytes > limit) {
      c.refused = true;
      return this.realtimeRefusal(p.tier, limit, now);
    }
    c.pending += bytes;
    this.dirty.add(p.orgId);
    return undefined;
  }

  /**
   * A refusal when `p`'s organization has used its realtime bytes of this minute, or had a message
   * refused in it (the upgrade asks). Reads every instance's total first, so that an instance new
   * to the organization knows it from its first message.
   */
  async realtimeFull(p: Principal): Promise<QuotaRefusal | undefined> {
    const c = this.count(p.orgId, this.clock.now());
    const row = await this.engine.get<{ window_start: number; count: number }>(COUNT, [p.orgId, REALTIME_BYTES_COUNTER]);
    if (this.realtime.get(p.orgId) === c && row && Number(row.window_start) === c.start) c.known = Math.max(c.known, Number(row.count));
    const now = this.clock.now();
    const limit = this.table[p.tier].realtimeBytesPerMinute;
    return c.refused || c.known + c.pending >= limit ? this.realtimeRefusal(p.tier, limit, now) : undefined;
  }

  private realtimeRefusal(tier: Tier, limit: number, now: number): QuotaRefusal {
    const retryAfter = windowAt('minute', now).resetIn;
    return {
      message: `organization realtime quota: ${limit} bytes per minute from its editors (${tier} tier); retry after ${retryAfter} s`,
      retryAfter,
    };
  }

  /** Realtime bytes of the current minute, every instance's flushed counts and this one's since. */
  async realtimeUsed(orgId: string): Promise<{ used: number; windowStart: number; resetIn: number }> {
    const now = this.clock.now();
    const { start, resetIn } = windowAt('minute', now);
    const row = await this.engine.get<{ window_start: number; count: number }>(COUNT, [orgId, REALTIME_BYTES_COUNTER]);
    const stored = row && Number(row.window_start) === start ? Number(row.count) : 0;
    const c = this.realtime.get(orgId);
    return { used: stored + (c && c.start === start ? c.pending : 0), windowStart: start, resetIn };
  }

  /**
   * Adds what was received since the last flush to the store, and learns every instance's total
   * (for organizations whose editors sent nothing here since, by reading it); forgets windows that
   * ended.
   */
  flush(): Promise<void> {
    return this.flushes.run(async () => {
      const start = windowAt('minute', this.clock.now()).start;
      for (const [orgId, c] of [...this.realtime]) {
        if (c.start !== start) {
          this.realtime.delete(orgId);
          this.dirty.delete(orgId);
        } else if (!this.dirty.has(orgId)) {
          const row = await this.engine.get<{ window_start: number; count: number }>(COUNT, [orgId, REALTIME_BYTES_COUNTER]);
          if (this.realtime.get(orgId) === c && row && Number(row.window_start) === c.start) c.known = Math.max(c.known, Number(row.count));
        }
      }
      for (const orgId of [...this.dirty]) {
        this.dirty.delete(orgId);
        const c = this.realtime.get(orgId);
        if (!c || c.pending === 0) continue;
        const delta = c.pending;
        c.pending = 0;
        try {
          const row = await this.engine.get<{ count: number }>(ADD, [orgId, REALTIME_BYTES_COUNTER, c.start, delta]);
          if (this.realtime.get(orgId) === c && row) c.known = Number(row.count);
        } catch (err) {
          c.pending += delta;
          this.dirty.add(orgId);
          throw err;
        }
      }
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  // ---- stored bytes ----

  /** Measures the organization's stored bytes now (and keeps the measure). */
  async storedBytes(orgId: string): Promise<number> {
    const row = await this.engine.get<{ bytes: number | string | null }>(STORED, [orgId, orgId, orgId]);
    const bytes = Number(row?.bytes ?? 0);
    this.stored.set(orgId, { bytes, since: 0, measuredAt: performance.now() });
    return bytes;
  }

  /**
   * A refusal when `p`'s organization stores its tier's quota or more. Synchronous from a recent
   * measure (one older than STORED_REFRESH_MS is refreshed meanwhile); the first ask measures.
   * `incoming`: bytes of an editor update about to be stored, added to the estimate when admitted.
   */
  storageFull(p: Principal, incoming = 0): QuotaRefusal | undefined | Promise<QuotaRefusal | undefined> {
    const s = this.stored.get(p.orgId);
    if (!s) return this.storedBytes(p.orgId).then(() => this.storageRefusal(p));
    if (performance.now() - s.measuredAt > STORED_REFRESH_MS && !s.refreshing) {
      s.refreshing = this.storedBytes(p.orgId);
      s.refreshing.catch(() => {
        s.refreshing = undefined;
      });
    }
    const refusal = this.storageRefusal(p);
    if (!refusal) s.since += incoming;
    return refusal;
  }

  /** A write that stores bytes was admitted: the next check measures again (meanwhile it answers from the last measure). */
  noteWrite(orgId: string): void {
    const s = this.stored.get(orgId);
    if (s) s.measuredAt = -Infinity;
  }

  private storageRefusal(p: Principal): QuotaRefusal | undefined {
    const s = this.stored.get(p.orgId);
    const limit = this.table[p.tier].storedBytes;
    if (!s || s.bytes + s.since < limit) return undefined;
    return {
      message: `organization storage quota: its journals store ${s.bytes + s.since} bytes, the ${p.tier} tier allows ${limit}; delete journals (permanently, or let the trash purge them) or versions to free storage`,
    };
  }
}
