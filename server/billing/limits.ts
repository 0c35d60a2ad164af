/**
 * Rate limits per tier, as enforced: each endpoint declares its class (the specification's
 * section 8 tables), the others have the default. Fixed windows: a minute window ends at the end
 * of each UTC minute, a day window at 00:00 UTC.
 */
import type { Tier } from '../auth/keys.ts';

export const WINDOWS = ['minute', 'day'] as const;
export type WindowName = (typeof WINDOWS)[number];
export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, day: 86_400 };

/** Enterprise entries the specification marks "custom": this until set per organization. */
export const ENTERPRISE_CUSTOM_DEFAULT = 1_000;

export type PerTier = Record<Tier, number>;
/** Requests per window at each tier: developer, scale, enterprise. */
export const perTier = (developer: number, scale: number, enterprise: number): PerTier => ({ developer, scale, enterprise });

/** An endpoint's limits: per minute and per day, at each tier; a window left out has the default. */
export interface LimitClass {
  minute?: PerTier;
  day?: PerTier;
}

/**
 * What an organization may use beside requests, at each tier (docs/billing.md, "Realtime bytes and
 * stored bytes"): bytes received from its editors per UTC minute (past it: editors closed 1013,
 * upgrades 429), and bytes its journals keep in the store of record (past it: journal writes 413,
 * editor updates closed 4402). ORG_REALTIME_BYTES_PER_MINUTE and ORG_STORED_BYTES replace them.
 */
export interface OrgQuota {
  realtimeBytesPerMinute: number;
  storedBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const ORG_QUOTAS: Record<Tier, OrgQuota> = {
  developer: { realtimeBytesPerMinute: 16 * MiB, storedBytes: 256 * MiB },
  scale: { realtimeBytesPerMinute: 128 * MiB, storedBytes: 10 * GiB },
  enterprise: { realtimeBytesPerMinute: 1 * GiB, storedBytes: 100 * GiB },
};

/** Endpoints the specification's tables do not list. */
export const DEFAULT_MINUTE_LIMIT: PerTier = perTier(60, 600, 6_000);

/** Per-organization settings (`org set-limit`); they win over the tier's table. */
export type LimitOverrides = Partial<Record<WindowName, number>>;

export interface EffectiveLimits {
  minute: number;
  /** Undefined: the endpoint has no daily limit (its day usage is still counted). */
  day?: number;
  custom: boolean;
}

/** Start (epoch seconds) and seconds left of the window containing `nowMs`. */
export function windowAt(window: WindowName, nowMs: number): { start: number; resetIn: number } {
  const size = WINDOW_SECONDS[window];
  const sec = Math.floor(nowMs / 1000);
  const start = sec - (sec % size);
  // Seconds until the boundary, rounded up so a client that waits this long is in the next window.
  return { start, resetIn: Math.max(1, Math.ceil(((start + size) * 1000 - nowMs) / 1000)) };
}

