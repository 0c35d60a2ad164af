/**
 * The billing domain: admission of a request against its organization's rate limits, metering
 * of its price, and the usage report. Admission reads the organization's balance and own limits
 * from a cache (one indexed SELECT on a miss), counts the request in the rate-limit store (see
 * rate-limit-store.ts: exact across instances by default, in memory for one process), and holds a
 * read's price in memory (CreditLedger, written once a second and at shutdown). Writes pay inside
 * the transaction of their effect (CreditLedger.debit with the caller's transaction).
 */
import type { Principal, Tier } from '../auth/keys.ts';
import { changeWatch, noteChange, type ChangeWatch } from '../auth/changes.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import type { Clock } from './clock.ts';
import { CreditLedger } from './credits.ts';
import type { EndpointCatalog, EndpointKey } from './endpoints.ts';
import { WINDOW_SECONDS, windowAt, type EffectiveLimits, type LimitOverrides, type WindowName } from './limits.ts';
import { chargedOnAdmission, usd } from './prices.ts';
import { SpendLog, utcDay, type SpendRow } from './spend.ts';
import { DEFAULT_SPEND_DAYS, type UsageReport } from './usage-schema.ts';
import { OrgQuotas, REALTIME_BYTES_COUNTER, type QuotaTable } from './quotas.ts';
import { SharedRateLimitStore, type CountedWindow, type HitResult, type RateLimitStore, type WindowCheck } from './rate-limit-store.ts';

/** How often counts and read charges held in memory are written. */
export const FLUSH_INTERVAL_MS = 1_000;
/**
 * How long admission trusts a cached balance and custom limits. Changes this process makes drop
 * the entry at once, admin changes made elsewhere reach it within CHANGE_CHECK_MS (changes.ts);
 * this bounds what is left: debits, refunds and flushed read charges of OTHER instances.
 */
export const ORG_CACHE_TTL_MS = 1_000;

/** Response headers of an admitted or refused request (IETF httpapi ratelimit-headers draft). */
export interface RateLimitHeaders {
  'RateLimit-Policy': string;
  RateLimit: string;
  'Retry-After'?: string;
}

export type Admission =
  | {
      ok: true;
      endpoint: EndpointKey;
      headers: RateLimitHeaders;
      /** micro-dollars paid on admission */
      charged: number;
      /** The windows the request was counted in (see `release`). */
      counted: readonly CountedWindow[];
    }
  | {
      ok: false;
      endpoint: EndpointKey;
      status: 429 | 402;
      headers: RateLimitHeaders;
      body: { error: string; retry_after: number; limit_type: WindowName } | { error: string; balance: number; required: number };
      charged: 0;
    };

interface WindowState {
  window: WindowName;
  limit: number;
  used: number;
  resetIn: number;
}

interface OrgEntry {
  balance: number;
  loadedAt: number;
  /** What admission needs per endpoint, kept whole so that a cached admission allocates none of it. */
  views: Map<string, OrgView>;
}

/** An organization's stored balance (its entry) and own limits for one endpoint. */
interface OrgView {
  org: OrgEntry;
  overrides: LimitOverrides | undefined;
  /** The catalog's limits(tier, endpoint, overrides), made for this tier (the key's, known per request). */
  tier?: Tier;
  limits?: EffectiveLimits;
}

/** The rate-limit windows of one second of the clock (see BillingService.windowsAt). */
interface Windows {
  sec: number;
  minute: { start: number; resetIn: number };
  day: { start: number; resetIn: number };
  /** Both windows, as an admitted request is counted in them. */
  counted: readonly CountedWindow[];
}

// Balance and this endpoint's own limits in one statement: the only SQL of an admission on a miss.
const ORG_STATE = `SELECT o.credit_balance_micros AS b, l.win AS win, l.limit_value AS limit_value FROM organizations o
  LEFT JOIN org_limits l ON l.org_id = o.id AND l.endpoint = ? WHERE o.id = ?`;

export class BillingService {
  readonly credits: CreditLedger;
  /** What each organization paid per UTC day and endpoint (GET /v1/usage's `spend`). */
  readonly spend: SpendLog;
  /** Realtime bytes per minute and stored bytes per organization (quotas.ts). */
  readonly quotas: OrgQuotas;
  /**
   * Stored balance and own limits per organization and endpoint, so that admission runs no SQL.
   * Dropped per organization when this process changes them (CreditLedger, setLimit), entirely
   * when the store's change counter moved (another process or instance changed limits, tiers or
   * balances: seen within CHANGE_CHECK_MS), and trusted at most ORG_CACHE_TTL_MS.
   */
  private readonly orgCache = new Map<string, OrgEntry>();
  private readonly watch: ChangeWatch;
  private seenVersion = -1;
  /** Bumped whenever entries are dropped, so that a load that started before is not cached after. */
  private generation = 0;
  private windows: Windows | undefined;
  private readonly timer: NodeJS.Timeout;

  /**
   * @param catalog the metered endpoints: names, prices and limit classes (server/endpoints.ts)
   * @param store where rate-limit counters live: exact across instances by default; a deployment
   *   of one process (embedded SQLite) passes a ProcessRateLimitStore, which costs no I/O.
   */
  constructor(
    readonly engine: StorageEngine,
    readonly clock: Clock,
    readonly catalog: EndpointCatalog,
    readonly store: RateLimitStore = new SharedRateLimitStore(engine),
    quotaTable?: QuotaTable,
  ) {
    this.spend = new SpendLog(engine, () => clock.now());
    this.quotas = new OrgQuotas(engine, clock, quotaTable);
    this.credits = new CreditLedger(
      engine,
      (orgId) => this.drop(orgId),
      (orgId, purpose, cost) => this.spend.add(orgId, catalog.reservationEndpoint(purpose), cost),
    );
    this.watch = changeWatch(engine);
    this.timer = setInterval(() => {
      // Kept in memory on failure (the store is unreachable): retried on the next tick.
      this.flush().catch(() => {});
    }, FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Writes the counts and read charges held in memory. */
  async flush(): Promise<void> {
    const results = await Promise.allSettled([this.store.flush(), this.credits.flush(), this.spend.flush(), this.quotas.flush()]);
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  }

  /** Final flush; call before closing the engine. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.quotas.close();
    await this.flush();
  }

  private drop(orgId: string): void {
    this.orgCache.delete(orgId);
    this.generation++;
  }

  async overrides(orgId: string, endpoint: EndpointKey, q: Queryable = this.engine): Promise<LimitOverrides | undefined> {
    const rows = await q.all<{ win: WindowName; limit_value: number }>('SELECT win, limit_value FROM org_limits WHERE org_id = ? AND endpoint = ?', [
      orgId,
      endpoint,
    ]);
    if (rows.length === 0) return undefined;
    const o: LimitOverrides = {};
    for (const r of rows) o[r.win] = r.limit_value;
    return o;
  }

  async limits(orgId: string, tier: Tier, endpoint: EndpointKey, q: Queryable = this.engine): Promise<EffectiveLimits> {
    return this.catalog.limits(tier, endpoint, await this.overrides(orgId, endpoint, q));
  }

  /** Sets (or with `undefined` removes) an organization's own limit for one endpoint and window. */
  setLimit(orgId: string, endpoint: EndpointKey, window: WindowName, limit: number | undefined, q: Queryable = this.engine): Promise<void> {
    return q.transaction(async (tx) => {
      if (limit === undefined) await tx.run('DELETE FROM org_limits WHERE org_id = ? AND endpoint = ? AND win = ?', [orgId, endpoint, window]);
      else {
        await tx.run(
          `INSERT INTO org_limits (org_id, endpoint, win, limit_value) VALUES (?, ?, ?, ?)
           ON CONFLICT (org_id, endpoint, win) DO UPDATE SET limit_value = excluded.limit_value`,
          [orgId, endpoint, window, limit],
        );
      }
      await noteChange(tx);
      tx.afterCommit(() => this.drop(orgId));
    });
  }

  /**
   * Counts one request of `endpoint` for the principal's organization and, when the endpoint is
   * paid on admission, charges its price. Refused requests are not counted.
   * A request refused for credit (402) still counts against the rate limits: it was served.
   */
  async admit(p: Principal, endpoint: EndpointKey): Promise<Admission> {
    return this.admitNow(p, endpoint);
  }

  /**
   * `admit` answering synchronously when nothing needs storage (organization cached, counters in
   * memory): the /v1 middleware's hot path, where every await costs.
   */
  admitNow(p: Principal, endpoint: EndpointKey): Admission | Promise<Admission> {
    const now = this.clock.now();
    const view = this.orgView(p.orgId, endpoint);
    return view instanceof Promise ? view.then((v) => this.count(p, endpoint, now, v)) : this.count(p, endpoint, now, view);
  }

  private count(p: Principal, endpoint: EndpointKey, now: number, view: OrgView): Admission | Promise<Admission> {
    if (view.tier !== p.tier || !view.limits) {
      view.limits = this.catalog.limits(p.tier, endpoint, view.overrides);
      view.tier = p.tier;
    }
    const limits = view.limits;
    const windows = this.windowsAt(now);
    // Day first: when both are full, the day is what the client has to wait for.
    const checks: WindowCheck[] = [
      { window: 'day', start: windows.day.start, limit: limits.day ?? Infinity },
      { window: 'minute', start: windows.minute.start, limit: limits.minute },
    ];
    const hit = this.store.hit(p.orgId, endpoint, checks);
    const storedBalance = view.org.balance;
    return hit instanceof Promise
      ? hit.then((h) => this.decide(p, endpoint, storedBalance, limits, view.overrides, windows, h))
      : this.decide(p, endpoint, storedBalance, limits, view.overrides, windows, hit);
  }

  /** The windows at `nowMs`: the same for a whole second of the clock, so made once a second. */
  private windowsAt(nowMs: number): Windows {
    const sec = Math.floor(nowMs / 1000);
    let w = this.windows;
    if (w?.sec !== sec) {
      const minute = windowAt('minute', nowMs);
      const day = windowAt('day', nowMs);
      const counted = Object.freeze([
        { window: 'day' as const, start: day.start },
        { window: 'minute' as const, start: minute.start },
      ]);
      this.windows = w = { sec, minute, day, counted };
    }
    return w;
  }

  private decide(
    p: Principal,
    endpoint: EndpointKey,
    storedBalance: number,
    limits: EffectiveLimits,
    overrides: LimitOverrides | undefined,
    windows: Windows,
    hit: HitResult,
  ): Admission | Promise<Admission> {
    const { minute, day, counted } = windows;
    if (!hit.ok) {
      const w = hit.window === 'day' ? day : minute;
      const source = overrides?.[hit.window] !== undefined ? "the organization's own limit" : `the ${p.tier} tier's limit`;
      const limit = hit.window === 'day' ? limits.day! : limits.minute;
      const headers = formatHeaders({ window: hit.window, limit, used: limit, resetIn: w.resetIn });
      headers['Retry-After'] = String(w.resetIn);
      return {
        ok: false,
        endpoint,
        status: 429,
        headers,
        body: {
          error: `Rate limit exceeded: ${limit} requests per ${hit.window} for ${endpoint} (${source}); retry after ${w.resetIn} s`,
          retry_after: w.resetIn,
          limit_type: hit.window,
        },
        charged: 0,
      };
    }
    const state: WindowState = { window: 'minute', limit: limits.minute, used: hit.counts.minute!, resetIn: minute.resetIn };
    const headers = formatHeaders(limits.day === undefined ? state : tighter(state, { window: 'day', limit: limits.day, used: hit.counts.day!, resetIn: day.resetIn }));
    const price = chargedOnAdmission(endpoint) ? this.catalog.price(endpoint).base : 0;
    if (price > 0 && !this.credits.holdRead(p.orgId, price, storedBalance)) {
      // Refused for credit: nothing was done, so the request gives its rate-limit slot back.
      return Promise.resolve(this.store.uncount(p.orgId, endpoint, counted)).then(() => this.credits.balance(p.orgId)).then((balance) => ({
        ok: false as const,
        endpoint,
        status: 402 as const,
        headers,
        body: { error: 'Insufficient credit: the balance does not cover the price of this request', balance: usd(balance), required: usd(price) },
        charged: 0 as const,
      }));
    }
    if (price > 0) this.spend.add(p.orgId, endpoint, price);
    return { ok: true, endpoint, headers, charged: price, counted };
  }

  /** The organization's stored balance and own limits for `endpoint`, from the cache (no await) or storage. */
  private orgView(orgId: string, endpoint: EndpointKey): OrgView | Promise<OrgView> {
    const v = this.watch.current();
    if (typeof v !== 'number') {
      return v.then((version) => {
        this.sync(version);
        return this.cachedView(orgId, endpoint);
      });
    }
    this.sync(v);
    return this.cachedView(orgId, endpoint);
  }

  private sync(version: number): void {
    if (version === this.seenVersion) return;
    this.orgCache.clear();
    this.generation++;
    this.seenVersion = version;
  }

  private cachedView(orgId: string, endpoint: EndpointKey): OrgView | Promise<OrgView> {
    const org = this.orgCache.get(orgId);
    if (org && performance.now() - org.loadedAt < ORG_CACHE_TTL_MS) {
      const view = org.views.get(endpoint);
      if (view) return view;
    }
    return this.loadView(orgId, endpoint);
  }

  private async loadView(orgId: string, endpoint: EndpointKey): Promise<OrgView> {
    const generation = this.generation;
    const startedAt = performance.now();
    const rows = await this.engine.all<{ b: number; win: WindowName | null; limit_value: number | null }>(ORG_STATE, [endpoint, orgId]);
    if (rows.length === 0) throw new Error(`no organization with id ${orgId}`);
    let overrides: LimitOverrides | undefined;
    for (const r of rows) if (r.win !== null) (overrides ??= {})[r.win] = r.limit_value!;
    const storedBalance = rows[0]!.b;
    if (generation !== this.generation) return { org: { balance: storedBalance, loadedAt: startedAt, views: new Map() }, overrides };
    let org = this.orgCache.get(orgId);
    if (!org || startedAt - org.loadedAt >= ORG_CACHE_TTL_MS) {
      this.orgCache.set(orgId, (org = { balance: storedBalance, loadedAt: startedAt, views: new Map() }));
    }
    // Nothing dropped the entry since the load began: what was just read is its latest balance.
    org.balance = storedBalance;
    const view: OrgView = { org, overrides };
    org.views.set(endpoint, view);
    return view;
  }

  /**
   * For handlers outside the REST router, e.g. the realtime upgrade:
   * `await ctx.billing.checkRateLimit(principal, 'GET /journals/realtime/{journal_id}')`. Counts the
   * request and pays its flat price like `admit`; on `ok: false` answer with `status`, `headers`
   * and the JSON `body` (see `rejectUpgrade`). When the upgrade then fails for another reason,
   * call `refundAdmission(p, a.charged)`.
   */
  async checkRateLimit(p: Principal, endpoint: EndpointKey): Promise<Admission> {
    return this.admitNow(p, endpoint);
  }

  /**
   * Gives back what `admit` charged, when the request then failed. Never rejects (callers need
   * not await it): a refund the store cannot take now is dropped, at most one read's price.
   */
  async refundAdmission(p: Principal, charged: number, endpoint: EndpointKey): Promise<void> {
    if (charged <= 0) return;
    this.spend.add(p.orgId, endpoint, -charged);
    await this.credits.refundRead(p.orgId, charged).catch(() => {});
  }

  /**
   * Undoes an admitted request that was then refused before doing any work (402, 413, 415, 422):
   * its rate-limit slots and any price paid on admission are given back. Never rejects.
   */
  async release(p: Principal, a: Extract<Admission, { ok: true }>): Promise<void> {
    await Promise.all([Promise.resolve(this.store.uncount(p.orgId, a.endpoint, a.counted)).catch(() => {}), this.refundAdmission(p, a.charged, a.endpoint)]);
  }

  /**
   * The GET /v1/usage report: balance, the limits in force with what each window has left, the
   * requests counted per window, spend per UTC day and endpoint over the last `days` days (today
   * included, oldest first, every day listed), and the prices.
   */
  async usage(p: Principal, days = DEFAULT_SPEND_DAYS): Promise<UsageReport> {
    const org = { id: p.orgId, name: p.orgName, tier: p.tier };
    const now = this.clock.now();
    const minute = windowAt('minute', now);
    const day = windowAt('day', now);
    const dates = Array.from({ length: days }, (_, i) => utcDay(now - (days - 1 - i) * 86_400_000));
    const [balance, minuteCounts, dayCounts, overrideRows, spent, realtime, storedBytes] = await Promise.all([
      this.credits.balance(p.orgId),
      this.store.counts(p.orgId, 'minute', minute.start),
      this.store.counts(p.orgId, 'day', day.start),
      this.engine.all<{ endpoint: string; win: WindowName; limit_value: number }>('SELECT endpoint, win, limit_value FROM org_limits WHERE org_id = ?', [
        p.orgId,
      ]),
      this.spend.read(p.orgId, dates[0]!, dates[dates.length - 1]!),
      this.quotas.realtimeUsed(p.orgId),
      this.quotas.storedBytes(p.orgId),
    ]);
    // The realtime bytes counter shares the table of request counts; it is reported under `quotas`.
    delete minuteCounts[REALTIME_BYTES_COUNTER];
    delete dayCounts[REALTIME_BYTES_COUNTER];
    const quota = this.quotas.quota(org.tier);
    const own = new Map<string, LimitOverrides>();
    for (const r of overrideRows) {
      let o = own.get(r.endpoint);
      if (!o) own.set(r.endpoint, (o = {}));
      o[r.win] = r.limit_value;
    }
    const limits = this.catalog.names.map((endpoint) => {
      const l = this.catalog.limits(org.tier, endpoint, own.get(endpoint));
      const used = { minute: minuteCounts[endpoint] ?? 0, day: dayCounts[endpoint] ?? 0 };
      return {
        endpoint,
        per_minute: l.minute,
        per_day: l.day ?? null,
        custom: l.custom,
        used,
        remaining: { minute: Math.max(0, l.minute - used.minute), day: l.day === undefined ? null : Math.max(0, l.day - used.day) },
      };
    });
    const window = (name: WindowName, start: number, counts: Record<string, number>) => ({
      window_start: new Date(start * 1000).toISOString(),
      resets_at: new Date((start + WINDOW_SECONDS[name]) * 1000).toISOString(),
      requests: counts,
    });
    const byDay = new Map<string, SpendRow[]>();
    for (const r of spent) {
      // A refund recorded just after midnight for a read paid before it: never below zero.
      if (r.micros <= 0) continue;
      let list = byDay.get(r.day);
      if (!list) byDay.set(r.day, (list = []));
      list.push(r);
    }
    let totalMicros = 0;
    const spendDays = dates.map((date) => {
      const rows = (byDay.get(date) ?? []).sort((a, b) => b.micros - a.micros || (a.endpoint < b.endpoint ? -1 : 1));
      const micros = rows.reduce((n, r) => n + r.micros, 0);
      totalMicros += micros;
      return {
        date,
        usd: usd(micros),
        micros,
        endpoints: rows.map((r) => ({ endpoint: r.endpoint, usd: usd(r.micros), micros: r.micros, charges: Math.max(0, r.charges) })),
      };
    });
    return {
      success: true,
      organization: { id: org.id, name: org.name, tier: org.tier },
      credit_balance: usd(balance),
      credit_balance_micros: balance,
      limits,
      usage: { minute: window('minute', minute.start, minuteCounts), day: window('day', day.start, dayCounts) },
      quotas: {
        realtime_bytes_per_minute: {
          limit: quota.realtimeBytesPerMinute,
          used: realtime.used,
          remaining: Math.max(0, quota.realtimeBytesPerMinute - realtime.used),
          window_start: new Date(realtime.windowStart * 1000).toISOString(),
          resets_at: new Date((realtime.windowStart + WINDOW_SECONDS.minute) * 1000).toISOString(),
        },
        stored_bytes: { limit: quota.storedBytes, used: storedBytes, remaining: Math.max(0, quota.storedBytes - storedBytes) },
      },
      spend: { from: dates[0]!, to: dates[dates.length - 1]!, total_usd: usd(totalMicros), total_micros: totalMicros, days: spendDays },
      prices: this.catalog.priceTable(),
    };
  }
}

/** Of two windows, the one closer to refusing: fewer requests left; on a tie, the one that resets later. */
function tighter(a: WindowState, b: WindowState): WindowState {
  const left = b.limit - b.used;
  const aLeft = a.limit - a.used;
  return left < aLeft || (left === aLeft && b.resetIn > a.resetIn) ? b : a;
}

/** Structured-field form of draft-ietf-httpapi-ratelimit-headers: `"minute";q=10;w=60`, `"minute";r=7;t=42`. */
function formatHeaders(s: WindowState): RateLimitHeaders {
  const w = WINDOW_SECONDS[s.window];
  return {
    'RateLimit-Policy': `"${s.window}";q=${s.limit};w=${w}`,
    RateLimit: `"${s.window}";r=${Math.max(0, s.limit - s.used)};t=${s.resetIn}`,
  };
}
