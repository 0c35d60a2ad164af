/**
 * Metered endpoints: what billing reads of an endpoint's declaration (server/http/endpoint.ts) —
 * its price and its limit class — and the catalog of every metered endpoint by its metering name
 * (method and path without /v1, path parameters named as in the specification's tables), with a
 * matcher from a request's method and path to that name. Nothing here lists an endpoint: the
 * catalog is built from the declarations the domains make (server/endpoints.ts gathers them).
 */
import type { Tier } from '../auth/keys.ts';
import { endpoints, type Declared, type Endpoint } from '../http/endpoint.ts';
import { DEFAULT_MINUTE_LIMIT, type EffectiveLimits, type LimitClass, type LimitOverrides } from './limits.ts';
import { priceOf, read, usd, type PriceRule } from './prices.ts';

/** What an endpoint of /v1 declares for billing. */
export interface Metering {
  price: PriceRule;
  /** Its rate limits per tier; without, the default class (DEFAULT_MINUTE_LIMIT, no daily limit). */
  limits?: LimitClass;
  /** Its metering name when the specification's tables spell its path otherwise (`GET /journals/content/{id}`). */
  meterName?: string;
}

export type MeteredEndpoint = Endpoint & Metering;

/** A domain's metered endpoints of one tag: `endpoints` with a price required of each. */
export function meteredEndpoints<T extends Record<string, Declared & Metering>>(tag: string, declared: T) {
  return endpoints(tag, declared);
}

/** Requests under /v1 that match no endpoint (they end as 404) share this bucket. */
export const OTHER_ENDPOINT = 'OTHER';
/** A metering name: `PATCH /journals/editor/edit`, or OTHER_ENDPOINT. */
export type EndpointKey = string;

export function meterNameOf(e: MeteredEndpoint): string {
  return e.meterName ?? `${e.method.toUpperCase()} ${e.path.replace(/^\/v1(?=\/)/, '')}`;
}

/**
 * Most paths are static or a static prefix plus one trailing parameter, matched by string
 * comparison with no splitting or allocation on the request path; the others (several
 * parameters, or segments after one) are matched segment by segment.
 */
interface Pattern {
  key: string;
  /** The whole path (static) or everything before the parameter, lower-cased. */
  prefix: string;
  param: boolean;
  /** For the other paths: each segment, null for a parameter (one non-empty segment). */
  segments?: (string | null)[];
}

/** `GET /journals/content/{id}` and `GET /journals/content/{journal_id}` name the same endpoint. */
function shape(name: string): string {
  return name.trim().replace(/\s+/, ' ').replace(/\{[^}]*\}/g, '{}').toLowerCase();
}

const OTHER_RULE: PriceRule = read(0);

export class EndpointCatalog {
  /** Metering names, in the order of the declarations. */
  readonly names: readonly string[];
  private readonly byKey = new Map<string, MeteredEndpoint>();
  private readonly byShape = new Map<string, string>();
  private readonly byMethod = new Map<string, Pattern[]>();
  private readonly byReservation = new Map<string, string>();

  /** Takes every endpoint; those of /v1 (API key) are metered and must declare a price. */
  constructor(all: readonly Endpoint[]) {
    const metered = all.filter((e) => e.auth === 'key') as MeteredEndpoint[];
    for (const e of metered) {
      if (!e.price) throw new Error(`${e.method.toUpperCase()} ${e.path} declares no price`);
      const key = meterNameOf(e);
      this.byKey.set(key, e);
      this.byShape.set(shape(key), key);
      if (e.price.reservation) this.byReservation.set(e.price.reservation, key);
    }
    this.names = [...this.byKey.keys()];
    // A static path before a parameter path that would take its segment ("list" as a deck id):
    // fewer parameters first, declaration order otherwise.
    const params = (key: string) => (key.match(/\{/g) ?? []).length;
    for (const key of [...this.names].sort((a, b) => params(a) - params(b))) {
      const [method, path] = key.split(' ') as [string, string];
      const brace = path.indexOf('{');
      let list = this.byMethod.get(method);
      if (!list) this.byMethod.set(method, (list = []));
      const simple = brace === -1 || (path.endsWith('}') && path.indexOf('{', brace + 1) === -1 && !path.slice(brace).includes('/'));
      list.push({
        key,
        prefix: (brace === -1 ? path : path.slice(0, brace)).toLowerCase(),
        param: brace !== -1,
        ...(simple ? {} : { segments: path.toLowerCase().split('/').map((seg) => (seg.startsWith('{') ? null : seg)) }),
      });
    }
  }

  /** The metering name of an endpoint given in any parameter spelling, or undefined. */
  byName(name: string): string | undefined {
    return this.byShape.get(shape(name));
  }

  /**
   * Metering name of a request. `path` is relative to /v1 (Express's req.path inside the router).
   * Matching follows Express's defaults: case-insensitive, an optional trailing slash.
   */
  match(method: string, path: string): EndpointKey {
    const candidates = this.byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (!candidates) return OTHER_ENDPOINT;
    const found = matchIn(candidates, path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path);
    // Paths are lower-case in practice; other spellings pay for a lower-cased retry.
    return found ?? matchIn(candidates, path.toLowerCase().replace(/(.)\/$/, '$1')) ?? OTHER_ENDPOINT;
  }

  price(key: EndpointKey): PriceRule {
    return this.byKey.get(key)?.price ?? OTHER_RULE;
  }

  /** Price of one request of `key` asking for `units` of work. */
  priceOf(key: EndpointKey, units = 0): number {
    return priceOf(this.price(key), units);
  }

  limits(tier: Tier, key: EndpointKey, overrides?: LimitOverrides): EffectiveLimits {
    const cls = this.byKey.get(key)?.limits;
    const minute = overrides?.minute ?? cls?.minute?.[tier] ?? DEFAULT_MINUTE_LIMIT[tier];
    const day = overrides?.day ?? cls?.day?.[tier];
    return { minute, day, custom: overrides?.minute !== undefined || overrides?.day !== undefined };
  }

  /** The endpoint whose request made a credit reservation, by the reservation's purpose (`practice_set <id>`). */
  reservationEndpoint(purpose: string): EndpointKey {
    return this.byReservation.get(purpose.split(' ')[0]!) ?? OTHER_ENDPOINT;
  }

  /** The price table as published by GET /v1/usage and docs/billing.md. */
  priceTable(): { endpoint: string; usd: number; per_unit?: { unit: string; usd: number }; billing: string; note?: string }[] {
    return this.names.map((endpoint) => {
      const r = this.price(endpoint);
      return {
        endpoint,
        usd: usd(r.base),
        ...(r.perUnit ? { per_unit: { unit: r.perUnit.unit, usd: usd(r.perUnit.micros) } } : {}),
        billing: r.billing,
        ...(r.note ? { note: r.note } : {}),
      };
    });
  }
}

function matchSegments(segments: readonly (string | null)[], path: string): boolean {
  const parts = path.split('/');
  return parts.length === segments.length && segments.every((seg, i) => (seg === null ? parts[i]!.length > 0 : parts[i] === seg));
}

function matchIn(candidates: Pattern[], path: string): string | undefined {
  for (const p of candidates) {
    if (p.segments) {
      if (path.startsWith(p.prefix) && matchSegments(p.segments, path)) return p.key;
    } else if (!p.param) {
      if (path === p.prefix) return p.key;
    } else if (path.length > p.prefix.length && path.startsWith(p.prefix) && path.indexOf('/', p.prefix.length) === -1) {
      return p.key;
    }
  }
  return undefined;
}
