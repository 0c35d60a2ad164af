/**
 * Spend per organization, UTC day and endpoint, for GET /v1/usage's chart (docs/billing.md). What
 * an organization paid is recorded where it is paid: read prices at admission (taken back when the
 * read fails), write prices when the transaction that paid them commits, asynchronous work when
 * its reservation is settled (at the cost charged). Amounts are summed in memory and added to
 * `spend_daily` once a second and at close (`micros = micros + ?`: additive, so several
 * instances add up exactly), like the read charges they mirror; a crash forgets at most a second.
 * Rows older than SPEND_RETENTION_DAYS are dropped once a day, with the day's first write.
 */
import type { StorageEngine } from '../storage/engine.ts';
import { Serial } from './serial.ts';

export const SPEND_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

const ADD = `INSERT INTO spend_daily (org_id, day, endpoint, micros, charges) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (org_id, day, endpoint) DO UPDATE SET micros = spend_daily.micros + excluded.micros, charges = spend_daily.charges + excluded.charges`;

/** `YYYY-MM-DD` of the UTC day containing `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface SpendRow {
  day: string;
  endpoint: string;
  micros: number;
  charges: number;
}

interface Pending {
  orgId: string;
  day: string;
  endpoint: string;
  micros: number;
  charges: number;
}

export class SpendLog {
  /**
   * day -> orgId -> endpoint -> amounts not yet written. Nested rather than one joined key: `add`
   * runs on every paid read, and these lookups use strings it already has (no key built and
   * hashed per call).
   */
  private pending = new Map<string, Map<string, Map<string, Pending>>>();
  private readonly flushes = new Serial();
  private prunedDay = '';
  /** The UTC day of the last `add`, as a number and as text (made once a day, not per call). */
  private dayNumber = NaN;
  private dayText = '';

  constructor(
    private readonly engine: StorageEngine,
    private readonly now: () => number,
  ) {}

  /**
   * Records `micros` paid (negative: given back) for one request of `endpoint`; `charges` counts
   * the request (1, or -1 when a paid read is refunded, 0 for a later adjustment).
   */
  add(orgId: string, endpoint: string, micros: number, charges = micros > 0 ? 1 : micros < 0 ? -1 : 0): void {
    if (micros === 0 && charges === 0) return;
    const ms = this.now();
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.dayNumber) {
      this.dayNumber = day;
      this.dayText = utcDay(ms);
    }
    this.merge(orgId, this.dayText, endpoint, micros, charges);
  }

  private merge(orgId: string, day: string, endpoint: string, micros: number, charges: number): void {
    let orgs = this.pending.get(day);
    if (!orgs) this.pending.set(day, (orgs = new Map()));
    let endpoints = orgs.get(orgId);
    if (!endpoints) orgs.set(orgId, (endpoints = new Map()));
    const p = endpoints.get(endpoint);
    if (p) {
      p.micros += micros;
      p.charges += charges;
    } else endpoints.set(endpoint, { orgId, day, endpoint, micros, charges });
  }

  flush(): Promise<void> {
    return this.flushes.run(async () => {
      // Nothing to add, nothing written (pruning waits for the next write: no write at an idle close).
      if (this.pending.size === 0) return;
      const today = utcDay(this.now());
      const prune = today !== this.prunedDay;
      const batch: Pending[] = [];
      for (const orgs of this.pending.values()) for (const endpoints of orgs.values()) batch.push(...endpoints.values());
      // Sorted: instances flushing the same rows lock them in the same order.
      batch.sort((a, b) => compare(a.orgId, b.orgId) || compare(a.day, b.day) || compare(a.endpoint, b.endpoint));
      this.pending = new Map();
      try {
        // Immediate: a write transaction on SQLite that starts as a read fails at once (busy) when
        // another process wrote meanwhile, instead of waiting its turn.
        await this.engine.transaction(
          async (tx) => {
            for (const p of batch) await tx.run(ADD, [p.orgId, p.day, p.endpoint, p.micros, p.charges]);
            if (prune) await tx.run('DELETE FROM spend_daily WHERE day < ?', [utcDay(this.now() - SPEND_RETENTION_DAYS * DAY_MS)]);
          },
          { immediate: true },
        );
        if (prune) this.prunedDay = today;
      } catch (e) {
        for (const p of batch) this.merge(p.orgId, p.day, p.endpoint, p.micros, p.charges);
        throw e;
      }
    });
  }

  /**
   * An organization's spend from `fromDay` to `toDay` (inclusive, `YYYY-MM-DD`), stored plus what
   * this process holds unwritten.
   */
  async read(orgId: string, fromDay: string, toDay: string): Promise<SpendRow[]> {
    const rows = await this.engine.all<SpendRow>(
      'SELECT day, endpoint, micros, charges FROM spend_daily WHERE org_id = ? AND day >= ? AND day <= ? ORDER BY day, endpoint',
      [orgId, fromDay, toDay],
    );
    const byKey = new Map(rows.map((r) => [`${r.day}\u0000${r.endpoint}`, { ...r, micros: Number(r.micros), charges: Number(r.charges) }]));
    for (const [day, orgs] of this.pending) {
      if (day < fromDay || day > toDay) continue;
      for (const p of orgs.get(orgId)?.values() ?? []) {
        const k = `${p.day}\u0000${p.endpoint}`;
        const r = byKey.get(k);
        if (r) {
          r.micros += p.micros;
          r.charges += p.charges;
        } else byKey.set(k, { day: p.day, endpoint: p.endpoint, micros: p.micros, charges: p.charges });
      }
    }
    return [...byKey.values()];
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
