/**
 * The price table, in integer micro-dollars (1,000,000 = $1). Reads cost a small flat price,
 * writes a base price plus a part that grows with the work asked for; asynchronous jobs reserve
 * their price when created and settle the real cost when they finish. Only successful (2xx)
 * requests pay; an idempotent replay does not pay again.
 */
import type { EndpointKey } from './endpoints.ts';

export const MICROS_PER_USD = 1_000_000;
/** Balance of a new organization: $5. */
export const STARTING_CREDIT_MICROS = 5 * MICROS_PER_USD;

export interface PriceRule {
  /** Charged per request. */
  base: number;
  /** Plus this much per unit (operation, started KiB, problem). */
  perUnit?: { unit: string; micros: number };
  /** `request`: paid with the response; `reserve`: held at creation, settled when the job ends. */
  billing: 'request' | 'reserve';
  note?: string;
}

const read = (micros: number): PriceRule => ({ base: micros, billing: 'request' });

export const PRICES: Record<EndpointKey, PriceRule> = {
  'GET /journals/list': read(10),
  'GET /journals/content/{id}': read(10),
  'GET /journals/editor/model/{journal_id}': read(10),
  'PUT /journals/editor/create': { base: 100, billing: 'request' },
  'PATCH /journals/editor/rename': { base: 50, billing: 'request' },
  'DELETE /journals/editor/delete/{journal_id}': { base: 50, billing: 'request' },
  'PUT /journals/editor/import_from_markdown': {
    base: 200,
    perUnit: { unit: 'KiB of markdown (started)', micros: 20 },
    billing: 'request',
  },
  'PATCH /journals/editor/edit': { base: 100, perUnit: { unit: 'operation', micros: 10 }, billing: 'request' },
  'GET /journals/realtime/{journal_id}': { base: 100, billing: 'request', note: 'per editor connection opened' },
  'POST /interactives/practice/create': {
    base: 0,
    perUnit: { unit: 'problem', micros: 10_000 },
    billing: 'reserve',
    note: 'reserved at creation; the set carries the settled cost',
  },
  'GET /interactives/practice/status/{set_id}': read(10),
  'POST /interactives/practice/grade': { base: 2_000, billing: 'request' },
  'POST /interactives/flashcards/create': { base: 5_000, billing: 'request' },
  'POST /video/create': { base: 100_000, billing: 'reserve', note: 'reserved at creation; the video carries the settled cost' },
  'GET /video/status/{video_id}': read(10),
  'GET /usage': read(0),
  'GET /interactives/practice/list': read(10),
  'DELETE /interactives/practice/delete/{set_id}': { base: 50, billing: 'request', note: 'a pending set is stopped: the problems made are charged, the rest refunded' },
  'GET /video/list': read(10),
  'DELETE /video/delete/{video_id}': { base: 50, billing: 'request', note: 'a pending video is stopped and its reservation refunded' },
  'GET /interactives/flashcards/list': read(10),
  'GET /interactives/flashcards/{deck_id}': read(10),
  'DELETE /interactives/flashcards/delete/{deck_id}': { base: 50, billing: 'request' },
  'GET /journals/trash': read(10),
  'POST /journals/editor/restore/{journal_id}': { base: 50, billing: 'request' },
  'POST /journals/versions/{journal_id}': { base: 50, billing: 'request' },
  'GET /journals/versions/{journal_id}': read(10),
  'GET /journals/versions/{journal_id}/diff': read(20),
  'GET /journals/versions/{journal_id}/{version_id}': read(10),
  'POST /journals/versions/{journal_id}/{version_id}/restore': { base: 100, billing: 'request', note: 'the version taken before the restore is included' },
  'GET /keys': read(0),
  'POST /keys': { base: 0, billing: 'request' },
  'DELETE /keys/{key_id}': { base: 0, billing: 'request' },
  OTHER: read(0),
};

/** Price of one request of `endpoint` asking for `units` of work. */
export function priceOf(endpoint: EndpointKey, units = 0): number {
  const rule = PRICES[endpoint];
  return rule.base + (rule.perUnit ? rule.perUnit.micros * Math.max(0, Math.ceil(units)) : 0);
}

/**
 * Endpoints paid when they are admitted, before the handler runs: flat-priced operations with no
 * effect of their own to commit with (reads, the realtime upgrade). A read that then fails (4xx,
 * 5xx) is refunded. Every other endpoint is charged by its domain inside the transaction that
 * commits its effect.
 */
export function chargedOnAdmission(endpoint: EndpointKey): boolean {
  return endpoint.startsWith('GET ') || endpoint === 'OTHER';
}

export function usd(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** The table as published by GET /v1/usage and docs/billing.md. */
export function priceTable(): { endpoint: string; usd: number; per_unit?: { unit: string; usd: number }; billing: string; note?: string }[] {
  return (Object.entries(PRICES) as [EndpointKey, PriceRule][])
    .filter(([e]) => e !== 'OTHER')
    .map(([endpoint, r]) => ({
      endpoint,
      usd: usd(r.base),
      ...(r.perUnit ? { per_unit: { unit: r.perUnit.unit, usd: usd(r.perUnit.micros) } } : {}),
      billing: r.billing,
      ...(r.note ? { note: r.note } : {}),
    }));
}
