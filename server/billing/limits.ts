/**
 * Rate limits of the specification (section 8) per tier, as enforced. Fixed windows: a minute
 * window ends at the end of each UTC minute, a day window at 00:00 UTC.
 */
import type { Tier } from '../auth/keys.ts';
import { ENDPOINTS, type EndpointKey } from './endpoints.ts';

export const WINDOWS = ['minute', 'day'] as const;
export type WindowName = (typeof WINDOWS)[number];
export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, day: 86_400 };

/** Enterprise entries the specification marks "custom": this until set per organization. */
export const ENTERPRISE_CUSTOM_DEFAULT = 1_000;
const CUSTOM = ENTERPRISE_CUSTOM_DEFAULT;

type PerTier = Record<Tier, number>;
const t = (developer: number, scale: number, enterprise: number): PerTier => ({ developer, scale, enterprise });

/** Per-minute table of the specification. */
export const MINUTE_LIMITS: Partial<Record<EndpointKey, PerTier>> = {
  'GET /journals/list': t(25, 100, 10_000),
  'GET /journals/content/{id}': t(10, 100, 1_000),
  'POST /video/create': t(3, 10, 100),
  'POST /interactives/flashcards/create': t(5, 50, 500),
  'POST /interactives/practice/create': t(3, 10, CUSTOM),
  'POST /interactives/practice/grade': t(2, 10, CUSTOM),
};

/** Per-day table of the specification. */
export const DAY_LIMITS: Partial<Record<EndpointKey, PerTier>> = {
  'POST /video/create': t(50, 1_000, 10_000),
  'POST /interactives/flashcards/create': t(100, 2_000, 20_000),
};

/** Endpoints the specification's tables do not list. */
export const DEFAULT_MINUTE_LIMIT: PerTier = t(60, 600, 6_000);

/** Per-organization settings (`org set-limit`); they win over the tier's table. */
export type LimitOverrides = Partial<Record<WindowName, number>>;

export interface EffectiveLimits {
  minute: number;
  /** Undefined: the endpoint has no daily limit (its day usage is still counted). */
  day?: number;
  custom: boolean;
}

export function limitsFor(tier: Tier, endpoint: EndpointKey, overrides?: LimitOverrides): EffectiveLimits {
  const minute = overrides?.minute ?? MINUTE_LIMITS[endpoint]?.[tier] ?? DEFAULT_MINUTE_LIMIT[tier];
  const day = overrides?.day ?? DAY_LIMITS[endpoint]?.[tier];
  return { minute, day, custom: overrides?.minute !== undefined || overrides?.day !== undefined };
}

/** Start (epoch seconds) and seconds left of the window containing `nowMs`. */
export function windowAt(window: WindowName, nowMs: number): { start: number; resetIn: number } {
  const size = WINDOW_SECONDS[window];
  const sec = Math.floor(nowMs / 1000);
  const start = sec - (sec % size);
  // Seconds until the boundary, rounded up so a client that waits this long is in the next window.
  return { start, resetIn: Math.max(1, Math.ceil(((start + size) * 1000 - nowMs) / 1000)) };
}

export const ALL_ENDPOINTS: readonly EndpointKey[] = ENDPOINTS;
