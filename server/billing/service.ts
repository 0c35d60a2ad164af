/**
 * The billing domain: admission of a request against its organization's rate limits, metering
 * of its price, and the usage report. Admission reads SQLite (the organization's balance and own
 * limits, one indexed SELECT) and writes nothing: counts and read charges are kept in memory
 * and written together once a second and at shutdown (`flush`). Writes pay inside the
 * transaction of their effect (CreditLedger.debit), which also writes the pending read charges.
 */
import type { Statement } from 'better-sqlite3';
import type { Principal, Tier } from '../auth/keys.ts';
import type { DB } from '../storage/db.ts';
import type { Clock } from './clock.ts';
import { CreditLedger } from './credits.ts';
import { ENDPOINTS, type EndpointKey } from './endpoints.ts';
import { limitsFor, WINDOW_SECONDS, windowAt, type EffectiveLimits, type LimitOverrides, type WindowName } from './limits.ts';
import { chargedOnAdmission, PRICES, priceTable, usd } from './prices.ts';
import { SqliteRateLimitStore, type RateLimitStore, type WindowCheck } from './rate-limit-store.ts';

/** How often counts and read charges held in memory are written to SQLite. */
export const FLUSH_INTERVAL_MS = 1_000;
/** Changes made by another process (the admin command line) reach admission within this long. */
export const DATA_VERSION_CHECK_MS = 20;

/** Response headers of an admitted or refused request (IETF httpapi ratelimit-headers draft). */
export interface RateLimitHeaders {
  'RateLimit-Policy': string;
  RateLimit: string;
  'Retry-After'?: string;
}

export type Admission =
  | { ok: true; endpoint: EndpointKey; headers: RateLimitHeaders; /** micro-dollars paid on admission */ charged: number }
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

export class BillingService {
  readonly credits: CreditLedger;
  private readonly overridesStmt: Statement;
  private readonly setOverride: Statement;
  private readonly clearOverride: Statement;
  private readonly orgState: Statement;
  private readonly dataVersion: Statement;
  private seenDataVersion = -1;
  private dataVersionCheckedAt = -Infinity;
  /**
   * Stored balance and own limits per organization and endpoint, so that admission runs no SQL.
   * Dropped per organization when this process changes them (CreditLedger, setLimit), and
   * entirely when another connection (the admin command line) has committed anything, which is
   * checked at most every DATA_VERSION_CHECK_MS: a check is a read transaction, with its locks.
   */
  private readonly orgCache = new Map<string, { balance: number; overrides: Map<string, LimitOverrides | undefined> }>();
  private readonly flushTx: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly db: DB,
    readonly clock: Clock,
    readonly store: RateLimitStore = new SqliteRateLimitStore(db),
  ) {
    this.credits = new CreditLedger(db, (orgId) => this.orgCache.delete(orgId));
    this.overridesStmt = db.prepare('SELECT win, limit_value FROM org_limits WHERE org_id = ? AND endpoint = ?').raw();
    this.setOverride = db.prepare(
      `INSERT INTO org_limits (org_id, endpoint, win, limit_value) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_id, endpoint, win) DO UPDATE SET limit_value = excluded.limit_value`,
    );
    this.clearOverride = db.prepare('DELETE FROM org_limits WHERE org_id = ? AND endpoint = ? AND win = ?');
    // Balance and this endpoint's own limits in one statement: the only SQL of an admission.
    this.orgState = db
      .prepare(
        `SELECT o.credit_balance_micros, l.win, l.limit_value FROM organizations o
           LEFT JOIN org_limits l ON l.org_id = o.id AND l.endpoint = ? WHERE o.id = ?`,
      )
      .raw();
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.flushTx = db.transaction(() => {
      this.store.flush();
      this.credits.flush();
    });
    this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Writes the counts and read charges held in memory, in one transaction. */
  flush(): void {
    if (this.db.open) this.flushTx();
  }

  /** Final flush; call before closing the database. */
  close(): void {
    clearInterval(this.timer);
    this.flush();
  }

  overrides(orgId: string, endpoint: EndpointKey): LimitOverrides | undefined {
    const rows = this.overridesStmt.all(orgId, endpoint) as [WindowName, number][];
    if (rows.length === 0) return undefined;
    const o: LimitOverrides = {};
    for (const [w, v] of rows) o[w] = v;
    return o;
  }

  limits(orgId: string, tier: Tier, endpoint: EndpointKey): EffectiveLimits {
    return limitsFor(tier, endpoint, this.overrides(orgId, endpoint));
  }

  /** Sets (or with `undefined` removes) an organization's own limit for one endpoint and window. */
  setLimit(orgId: string, endpoint: EndpointKey, window: WindowName, limit: number | undefined): void {
    if (limit === undefined) this.clearOverride.run(orgId, endpoint, window);
    else this.setOverride.run(orgId, endpoint, window, limit);
    this.orgCache.delete(orgId);
  }

  /**
   * Counts one request of `endpoint` for the principal's organization and, when the endpoint is
   * paid on admission, charges its price. Refused requests are not counted.
   * A request refused for credit (402) still counts against the rate limits: it was served.
   */
  admit(p: Principal, endpoint: EndpointKey): Admission {
    const price = chargedOnAdmission(endpoint) ? PRICES[endpoint].base : 0;
    const now = this.clock.now();
    const { storedBalance, overrides } = this.orgView(p.orgId, endpoint);
    const limits = limitsFor(p.tier, endpoint, overrides);
    const minute = windowAt('minute', now);
    const day = windowAt('day', now);
    // Day first: when both are full, the day is what the client has to wait for.
    const checks: WindowCheck[] = [
      { window: 'day', start: day.start, limit: limits.day ?? Infinity },
      { window: 'minute', start: minute.start, limit: limits.minute },
    ];
    const hit = this.store.hit(p.orgId, endpoint, checks);
    if (!hit.ok) {
      const w = hit.window === 'day' ? day : minute;
      const limit = hit.window === 'day' ? limits.day! : limits.minute;
      const headers = formatHeaders({ window: hit.window, limit, used: limit, resetIn: w.resetIn });
      headers['Retry-After'] = String(w.resetIn);
      return {
        ok: false,
        endpoint,
        status: 429,
        headers,
        body: {
          error: `Rate limit exceeded: ${limit} requests per ${hit.window} for ${endpoint} on the ${p.tier} tier; retry after ${w.resetIn} s`,
          retry_after: w.resetIn,
          limit_type: hit.window,
        },
        charged: 0,
      };
    }
    const states: WindowState[] = [{ window: 'minute', limit: limits.minute, used: hit.counts.minute!, resetIn: minute.resetIn }];
    if (limits.day !== undefined) states.push({ window: 'day', limit: limits.day, used: hit.counts.day!, resetIn: day.resetIn });
    const headers = formatHeaders(tightest(states));
    if (price > 0 && !this.credits.chargeRead(p.orgId, price, storedBalance)) {
      return {
        ok: false,
        endpoint,
        status: 402,
        headers,
        body: { error: 'Insufficient credit: the balance does not cover the price of this request', balance: usd(this.credits.balance(p.orgId)), required: usd(price) },
        charged: 0,
      };
    }
    return { ok: true, endpoint, headers, charged: price };
  }

  /** The organization's stored balance and own limits for `endpoint`, from the cache or SQLite. */
  private orgView(orgId: string, endpoint: EndpointKey): { storedBalance: number; overrides: LimitOverrides | undefined } {
    const t = performance.now();
    if (t - this.dataVersionCheckedAt >= DATA_VERSION_CHECK_MS) {
      this.dataVersionCheckedAt = t;
      const version = this.dataVersion.get() as number;
      if (version !== this.seenDataVersion) {
        this.orgCache.clear();
        this.seenDataVersion = version;
      }
    }
    let org = this.orgCache.get(orgId);
    let overrides = org?.overrides.get(endpoint);
    if (!org || (overrides === undefined && !org.overrides.has(endpoint))) {
      const rows = this.orgState.all(endpoint, orgId) as [number, WindowName | null, number | null][];
      if (rows.length === 0) throw new Error(`no organization with id ${orgId}`);
      overrides = undefined;
      for (const [, win, value] of rows) if (win !== null) (overrides ??= {})[win] = value!;
      if (!org) this.orgCache.set(orgId, (org = { balance: rows[0]![0], overrides: new Map() }));
      org.overrides.set(endpoint, overrides);
    }
    return { storedBalance: org.balance, overrides };
  }

  /**
   * For handlers outside the REST router, e.g. the realtime upgrade:
   * `ctx.billing.checkRateLimit(principal, 'GET /journals/realtime/{journal_id}')`. Counts the
   * request and pays its flat price like `admit`; on `ok: false` answer with `status`, `headers`
   * and the JSON `body` (see `rejectUpgrade`). When the upgrade then fails for another reason,
   * call `refundAdmission(p, a.charged)`.
   */
  checkRateLimit(p: Principal, endpoint: EndpointKey): Admission {
    return this.admit(p, endpoint);
  }

  /** Gives back what `admit` charged, when the request then failed. */
  refundAdmission(p: Principal, charged: number): void {
    if (charged > 0) this.credits.refundRead(p.orgId, charged);
  }

  /** The GET /v1/usage report. */
  usage(p: Principal) {
    const org = { id: p.orgId, name: p.orgName, tier: p.tier };
    const now = this.clock.now();
    const minute = windowAt('minute', now);
    const day = windowAt('day', now);
    const read = this.db.transaction(() => ({
      balance: this.credits.balance(p.orgId),
      minute: this.store.counts(p.orgId, 'minute', minute.start),
      day: this.store.counts(p.orgId, 'day', day.start),
      limits: ENDPOINTS.map((endpoint) => {
        const l = this.limits(p.orgId, org.tier, endpoint);
        return { endpoint, per_minute: l.minute, per_day: l.day ?? null, custom: l.custom };
      }),
    }));
    const r = read();
    const window = (name: WindowName, start: number, counts: Record<string, number>) => ({
      window_start: new Date(start * 1000).toISOString(),
      resets_at: new Date((start + WINDOW_SECONDS[name]) * 1000).toISOString(),
      requests: counts,
    });
    return {
      success: true,
      organization: { id: org.id, name: org.name, tier: org.tier },
      credit_balance: usd(r.balance),
      credit_balance_micros: r.balance,
      limits: r.limits,
      usage: { minute: window('minute', minute.start, r.minute), day: window('day', day.start, r.day) },
      prices: priceTable(),
    };
  }
}

/** The window closest to refusing: fewest requests left; on a tie, the one that resets later. */
function tightest(states: WindowState[]): WindowState {
  let best = states[0]!;
  for (let i = 1; i < states.length; i++) {
    const s = states[i]!;
    const left = s.limit - s.used;
    const bestLeft = best.limit - best.used;
    if (left < bestLeft || (left === bestLeft && s.resetIn > best.resetIn)) best = s;
  }
  return best;
}

/** Structured-field form of draft-ietf-httpapi-ratelimit-headers: `"minute";q=10;w=60`, `"minute";r=7;t=42`. */
function formatHeaders(s: WindowState): RateLimitHeaders {
  const w = WINDOW_SECONDS[s.window];
  return {
    'RateLimit-Policy': `"${s.window}";q=${s.limit};w=${w}`,
    RateLimit: `"${s.window}";r=${Math.max(0, s.limit - s.used)};t=${s.resetIn}`,
  };
}
