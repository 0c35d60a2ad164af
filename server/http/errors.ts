/**
 * Error shapes of the contract: 422 `{detail:[{loc,msg,type}]}` (FastAPI's shape) for invalid
 * input, `{error}` for the rest, `500 {error, request_id}` without internals.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { z } from 'zod';
import { StorageUnavailableError } from '../storage/engine.ts';
import type { Logger } from '../logger.ts';

export type Loc = (string | number)[];
export interface DetailItem {
  loc: Loc;
  msg: string;
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers that go with the error (e.g. Allow on a 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export class ValidationError extends Error {
  constructor(readonly detail: DetailItem[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }
}

/**
 * Not the request's fault: something it needs is unavailable for a moment (a journal being
 * reloaded, say). Answered 503 with Retry-After; nothing was acknowledged, so a retry is safe.
 */
export class UnavailableError extends Error {}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);

/** One 422 for one field. */
export function invalid(loc: Loc, msg: string, type = 'value_error'): ValidationError {
  return new ValidationError([{ loc, msg, type }]);
}

function issueType(issue: z.core.$ZodIssue): string {
  if (/received undefined/.test(issue.message)) return 'missing';
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_value':
      return 'enum';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'invalid_union':
      return 'union_error';
    default:
      return 'value_error';
  }
}

export function zodDetail(error: z.ZodError, prefix: Loc): DetailItem[] {
  return error.issues.map((issue) => ({
    loc: [...prefix, ...(issue.path as (string | number)[])],
    msg: /received undefined/.test(issue.message) ? 'Field required' : issue.message,
    type: issueType(issue),
  }));
}

/** Parses `value` with `schema` or throws a 422 whose locations start with `prefix`. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown, prefix: Loc): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError(zodDetail(r.error, prefix));
  return r.data;
}

/**
 * A metered request's admission, set as `res.locals.admission` by the admission middleware
 * (server/billing/middleware.ts): `settle` gives back the request's rate-limit slot and admission
 * charge as the status about to be sent requires. Awaited before an error answer goes out, so a
 * client that reads the answer and sends again finds its slot given back.
 */
export interface AdmissionSettlement {
  settle(status: number): Promise<void>;
}

/** The request's admission to settle, when it went through metering. */
export function admissionOf(res: Response): AdmissionSettlement | undefined {
  return res.locals.admission as AdmissionSettlement | undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const admission = admissionOf(res);
      const send = () => {
        if (!res.headersSent) res.set(headers).status(status).json(body);
      };
      if (admission) void admission.settle(status).then(send, send);
      else send();
    };
    if (err instanceof ValidationError) {
      reply(422, { detail: err.detail });
      return;
    }
    if (err instanceof HttpError) {
      reply(err.status, { error: err.message, ...err.extra }, err.headers);
      return;
    }
    // body-parser errors carry a `type`; map them to the contract's shapes.
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      reply(413, { error: `Request body too large: the limit is ${(err as { limit: number }).limit} bytes` });
      return;
    }
    if (type === 'entity.parse.failed') {
      reply(422, { detail: [{ loc: ['body'], msg: `Malformed JSON: ${(err as Error).message}`, type: 'json_invalid' }] });
      return;
    }
    if (err instanceof URIError) {
      // The router could not percent-decode a path parameter (`%ED%A0%80`, a lone `%F0`).
      reply(422, { detail: [{ loc: ['path'], msg: 'the path is not valid percent-encoded UTF-8', type: 'value_error.path_encoding' }] });
      return;
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      reply(415, { error: (err as Error).message });
      return;
    }
    const requestId = requestIdOf(req);
    if (err instanceof StorageUnavailableError || err instanceof UnavailableError) {
      // The store (or the journal's commit) failed, not the request: nothing was acknowledged, retry.
      logger.warn({ err, request_id: requestId, method: req.method, path: req.path }, 'storage unavailable');
      reply(503, { error: 'Storage temporarily unavailable; retry', request_id: requestId }, { 'Retry-After': '1' });
      return;
    }
    logger.error({ err, request_id: requestId, method: req.method, path: req.path }, 'unhandled error');
    reply(500, { error: 'Internal server error', request_id: requestId });
  };
}

export function requestIdOf(req: Request): string {
  return (req as Request & { id?: string }).id ?? '';
}
