/**
 * An endpoint, declared once by the domain that owns it: method and path, request and answer
 * schemas, the OpenAPI text. Its route is derived from it (`route`), the OpenAPI document
 * (server/openapi) and, for metered endpoints, the price table and rate limits (server/billing)
 * are read from the same declaration; server/endpoints.ts lists them all.
 */
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { parseOr422 } from './errors.ts';

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** Error statuses an operation can answer besides those every /v1 operation has (401, 405, 429, 500, 503). */
export type ErrorStatus = 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 502;

/** A documented answer: JSON of `schema`, or a body of `contentType`. */
export interface Answer {
  status: number;
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

export interface Endpoint {
  method: Method;
  /** The whole path, `{name}` for parameters (`/v1/journals/content/{journal_id}`). */
  path: string;
  operationId: string;
  /** The section of the OpenAPI document. */
  tag: string;
  summary: string;
  description?: string;
  /** `key`: Authorization: Bearer <API key>, under /v1 (metered); `none`; `metrics`: METRICS_TOKEN when set. */
  auth: 'key' | 'none' | 'metrics';
  /** Path parameters and what each is. */
  params?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** An example body; test/openapi checks that `body` accepts it. */
  example?: unknown;
  /** Takes an Idempotency-Key header. */
  idempotent?: boolean;
  success: Answer;
  errors: ErrorStatus[];
  /** Other documented answers (e.g. 503 of /readyz). */
  extra?: Record<number, Omit<Answer, 'status'>>;
  /** A WebSocket upgrade: metered like the others, but no REST route and not in the OpenAPI document. */
  upgrade?: true;
}

/** An endpoint as a domain writes it: the tag comes from its group, `auth` is `key` unless it says otherwise. */
export type Declared = Omit<Endpoint, 'tag' | 'auth'> & { auth?: Endpoint['auth'] };

/** A domain's endpoints of one tag, by name; each keeps its own type (its schemas type its route). */
export function endpoints<T extends Record<string, Declared>>(tag: string, declared: T): { [K in keyof T]: T[K] & Pick<Endpoint, 'tag' | 'auth'> } {
  const out: Record<string, Endpoint> = {};
  for (const [name, e] of Object.entries(declared)) out[name] = { ...e, tag, auth: e.auth ?? 'key' };
  return out as { [K in keyof T]: T[K] & Pick<Endpoint, 'tag' | 'auth'> };
}

/** Error answers of the usual kinds of /v1 operation. */
export const READ_ERRORS: ErrorStatus[] = [402, 404, 422];
export const WRITE_ERRORS: ErrorStatus[] = [402, 404, 413, 415, 422];
export const CREATE_ERRORS: ErrorStatus[] = [402, 413, 415, 422];

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request to an endpoint: its body and query parsed by the endpoint's schemas when first read (422 otherwise). */
export class Call<E extends Endpoint> {
  private parsedBody?: { value: Parsed<E['body']> };
  private parsedQuery?: { value: Parsed<E['query']> };

  constructor(
    readonly endpoint: E,
    readonly req: Request,
  ) {}

  /** The body as sent, a missing one as `{}` (what an Idempotency-Key hashes). */
  get raw(): unknown {
    return this.req.body === undefined ? {} : this.req.body;
  }

  get body(): Parsed<E['body']> {
    const schema = this.endpoint.body;
    this.parsedBody ??= { value: (schema ? parseOr422(schema, this.raw, ['body']) : undefined) as Parsed<E['body']> };
    return this.parsedBody.value;
  }

  get query(): Parsed<E['query']> {
    const schema = this.endpoint.query;
    this.parsedQuery ??= { value: (schema ? parseOr422(schema, this.req.query, ['query']) : undefined) as Parsed<E['query']> };
    return this.parsedQuery.value;
  }

  /** A path parameter (the router has decoded it). */
  param(name: keyof NonNullable<E['params']> & string): string {
    return String(this.req.params[name]);
  }
}

/** Where an endpoint's route stands in its router: /v1 endpoints in the router mounted at /v1, the others at the root. */
export function routePath(e: Endpoint): string {
  const path = e.auth === 'key' ? e.path.replace(/^\/v1(?=\/)/, '') : e.path;
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The route template of the request's matched route, with the prefix of its router
 * (`/v1/journals/content/:journal_id`), as noted when the route ran; undefined when none ran.
 * Noted at once because Express resets `req.baseUrl` when an error leaves the router.
 */
export function matchedRoute(req: Request, res: Response): string | undefined {
  return (res.locals.matchedRoute as string | undefined) ?? (req.route?.path !== undefined ? `${req.baseUrl}${req.route.path}` : undefined);
}

/**
 * The route template (`/v1/journals/content/:journal_id`) of the declared operation a method and
 * path ask for, or undefined when they ask for none (an unknown path, another method). A static
 * path wins over a parameter, as in the routers. For requests answered before their route ran.
 */
export function routeTemplates(declared: readonly Endpoint[]): (method: string, path: string) => string | undefined {
  const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const operations = declared
    .filter((e) => !e.upgrade)
    .map((e) => ({
      method: e.method.toUpperCase(),
      template: e.path.replace(/\{(\w+)\}/g, ':$1'),
      pattern: new RegExp(`^${escape(e.path).replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
      params: (e.path.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  return (method, path) => {
    const m = method === 'HEAD' ? 'GET' : method;
    return operations.find((o) => o.method === m && o.pattern.test(path))?.template;
  };
}

/** Registers the route of `e` on `router`: its method and path, and a Call for the handler. */
export function route<E extends Endpoint>(router: Router, e: E, handler: (call: Call<E>, res: Response) => unknown): void {
  router[e.method](routePath(e), (req: Request, res: Response) => {
    res.locals.matchedRoute = `${req.baseUrl}${req.route.path}`;
    return handler(new Call(e, req), res);
  });
}
