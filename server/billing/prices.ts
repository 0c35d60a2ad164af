/**
 * Prices, in integer micro-dollars (1,000,000 = $1), as each endpoint declares its own (the table
 * is the catalog's, server/billing/endpoints.ts). Reads cost a small flat price, writes a base
 * price plus a part that grows with the work asked for; asynchronous jobs reserve their price
 * when created and settle the real cost when they finish. Only successful (2xx) requests pay; an
 * idempotent replay does not pay again.
 */
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
  /** With `reserve`: the purpose of the credit reservations it makes (`practice_set`), so that their settlement is the endpoint's spend. */
  reservation?: string;
  note?: string;
}

/** A flat-priced read. */
export const read = (micros: number): PriceRule => ({ base: micros, billing: 'request' });

/** Price of one request under `rule` asking for `units` of work. */
export function priceOf(rule: PriceRule, units = 0): number {
  return rule.base + (rule.perUnit ? rule.perUnit.micros * Math.max(0, Math.ceil(units)) : 0);
}

/**
 * Endpoints paid when they are admitted, before the handler runs: flat-priced operations with no
 * effect of their own to commit with (reads, the realtime upgrade). A read that then fails (4xx,
 * 5xx) is refunded. Every other endpoint is charged by its domain inside the transaction that
 * commits its effect.
 */
export function chargedOnAdmission(endpoint: string): boolean {
  return endpoint.startsWith('GET ') || endpoint === 'OTHER';
}

export function usd(micros: number): number {
  return micros / MICROS_PER_USD;
}
