/**
 * Per-request metering for the /v1 router, mounted right after authentication: one call to
 * BillingService.admit counts the request against its organization's limits, pays for
 * flat-priced reads (in memory), and sets the RateLimit headers. Writes are paid by their domain
 * inside the transaction that commits their effect, through `chargeFor(req, units)`.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { principalOf } from '../auth/middleware.ts';
import type { Principal } from '../auth/keys.ts';
import type { AdmissionSettlement } from '../http/errors.ts';
import type { Queryable } from '../storage/engine.ts';
import type { EndpointKey } from './endpoints.ts';
import type { QuotaRefusal } from './quotas.ts';
import type { RefusalGuard } from './refusal-guard.ts';
import type { Admission, BillingService } from './service.ts';

/**
 * One per admitted request: what a route needs to pay for its effect (the caller and the
 * endpoint's price), and what gives back the admission's slot and charge when the request is
 * refused or fails (`settle`, once).
 */
export class Meter implements AdmissionSettlement {
  private settled = false;

  constructor(
    private readonly billing: BillingService,
    private readonly guard: RefusalGuard,
    readonly principal: Principal,
    private readonly admission: Extract<Admission, { ok: true }>,
  ) {}

  get endpoint(): EndpointKey {
    return this.admission.endpoint;
  }

  /**
   * A function that debits this request's price for `units` of work (rejects with 402 when the
   * balance is short). Await it first inside the transaction that commits the request's effect,
   * passing that transaction, so both commit or neither does.
   */
  charger(units = 0): Charge {
    const micros = this.billing.catalog.priceOf(this.endpoint, units);
    return async (q) => {
      if (micros <= 0) return;
      const on = q ?? this.billing.engine;
      await this.billing.credits.debit(this.principal.orgId, micros, on);
      // Counted in the spend chart only once the payment committed with its effect.
      on.afterCommit(() => this.billing.spend.add(this.principal.orgId, this.endpoint, micros));
    };
  }

  async settle(status: number): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const { billing, principal: p, admission: a } = this;
    if (REFUSED_BEFORE_WORK.has(status)) {
      this.guard.note(p.keyId, billing.clock.now());
      await billing.release(p, a);
    } else if (a.charged > 0 && status >= 400) {
      // Only successful requests pay: a read that ends in 4xx/5xx gets its price back.
      await billing.refundAdmission(p, a.charged, a.endpoint);
    }
  }
}

/** Pays for a request's effect inside `q`, the transaction that commits it (402 when the balance is short). */
export type Charge = (q?: Queryable) => Promise<void>;

/** The charge of this request's effect, or undefined when the route runs without metering. */
export function chargeFor(req: Request, units = 0): Charge | undefined {
  const meter = req.res?.locals.admission;
  return meter instanceof Meter ? meter.charger(units) : undefined;
}

function setHeaders(res: Response, a: Admission): void {
  res.setHeader('RateLimit-Policy', a.headers['RateLimit-Policy']);
  res.setHeader('RateLimit', a.headers.RateLimit);
  if (a.headers['Retry-After'] !== undefined) res.setHeader('Retry-After', a.headers['Retry-After']);
}

/**
 * Answers that mean the request was refused before it did any work: it gives back its rate-limit
 * slot and what it paid on admission, and counts against the key's RefusalGuard instead.
 */
const REFUSED_BEFORE_WORK = new Set([402, 405, 413, 415, 422]);

/** The handler also takes the principal when its caller has it (requireApiKey's `then`). */
export function meterRequests(billing: BillingService, guard: RefusalGuard) {
  return (req: Request, res: Response, next: NextFunction, p: Principal = principalOf(req)): void => {
    const blocked = guard.blockedFor(p.keyId, billing.clock.now());
    if (blocked > 0) {
      res.setHeader('Retry-After', String(blocked));
      res.status(429).json({
        error: `Too many refused requests: more than ${guard.perMinute} invalid requests per minute from this API key (flood guard); retry after ${blocked} s`,
        retry_after: blocked,
        limit_type: 'minute',
      });
      return;
    }
    let endpoint: EndpointKey;
    try {
      endpoint = billing.catalog.match(req.method, pathOf(req));
    } catch (e) {
      next(e);
      return;
    }
    // A write that adds to the organization's stored bytes: refused while they are at the quota.
    const full = STORING.test(endpoint) ? billing.quotas.storageFull(p) : undefined;
    if (full instanceof Promise) {
      full.then((refusal) => {
        if (refusal) return refuseStorage(billing, guard, p, res, refusal);
        billing.quotas.noteWrite(p.orgId);
        admit(billing, guard, p, res, next, endpoint);
      }, next);
    } else if (full) refuseStorage(billing, guard, p, res, full);
    else {
      if (STORING.test(endpoint)) billing.quotas.noteWrite(p.orgId);
      admit(billing, guard, p, res, next, endpoint);
    }
  };
}

/**
 * Journal writes that store bytes (create, import, edit, rename, versions and their restore);
 * deletions, purges and restoring a trashed journal (its bytes still count) free or keep storage
 * and are never refused for it.
 */
const STORING = /^(PUT|PATCH|POST) \/journals\/(?!editor\/restore\/)/;

function admit(billing: BillingService, guard: RefusalGuard, p: Principal, res: Response, next: NextFunction, endpoint: EndpointKey): void {
  let a: Admission | Promise<Admission>;
  try {
    a = billing.admitNow(p, endpoint);
  } catch (e) {
    next(e);
    return;
  }
  // Synchronous when nothing needed storage: no await on the path of every request.
  if (a instanceof Promise) a.then((admission) => proceed(billing, guard, p, res, next, admission), next);
  else proceed(billing, guard, p, res, next, a);
}

/** 413 for a write while the organization's journals store their tier's quota (counted by the flood guard like other refusals). */
function refuseStorage(billing: BillingService, guard: RefusalGuard, p: Principal, res: Response, refusal: QuotaRefusal): void {
  guard.note(p.keyId, billing.clock.now());
  res.status(413).json({ error: `Storage quota reached: ${refusal.message}` });
}

/** Characters after which parseurl, behind Express's `req.path`, does not return the URL whole. */
const NOT_A_PLAIN_PATH = /[?#\s]/;

/**
 * `req.path`: the URL itself when it is a plain path (the router has taken /v1 off it), which
 * spares the getter's walk through Express's request prototype and parseurl's cache on every
 * request; otherwise the getter.
 */
function pathOf(req: Request): string {
  const url = req.url;
  return url.charCodeAt(0) === 47 && !NOT_A_PLAIN_PATH.test(url) ? url : req.path;
}

// Module functions and one object per request rather than closures (the hot path).
function proceed(billing: BillingService, guard: RefusalGuard, p: Principal, res: Response, next: NextFunction, a: Admission): void {
  setHeaders(res, a);
  if (!a.ok) {
    if (a.status === 402) guard.note(p.keyId, billing.clock.now());
    res.status(a.status).json(a.body);
    return;
  }
  // For chargeFor, and the admission's settlement: error answers settle before they are sent
  // (server/http/errors.ts); any other 4xx/5xx once sent, from the request's one 'finish'
  // listener (server/http/middleware.ts). In res.locals, a dictionary, rather than a new
  // property of the request, whose every added property copies its hidden class (Express gives
  // each request a class of its own).
  res.locals.admission = new Meter(billing, guard, p, a);
  next();
}

/**
 * Answers a refused WebSocket upgrade (429 or 402 from `checkRateLimit`) on the raw socket with
 * the same status, headers and JSON body as a REST response, then closes it.
 */
export function rejectUpgrade(socket: Duplex, a: Extract<Admission, { ok: false }>): void {
  const body = JSON.stringify(a.body);
  const lines = [
    `HTTP/1.1 ${a.status} ${STATUS_CODES[a.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(a.headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
