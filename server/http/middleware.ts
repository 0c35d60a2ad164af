/** Lean per-request middleware: request id, server timing, one access-log line per request. */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logger.ts';
import { admissionOf } from './errors.ts';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** `observe` is told each finished request and its duration (the /metrics histogram). */
export function requestContext(logger: Logger, observe?: (req: Request, res: Response, seconds: number) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    const incoming = req.get('X-Request-Id');
    const id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    // Server-Timing is set when headers go out, so it covers the whole handler.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!this.headersSent) this.setHeader('Server-Timing', `app;dur=${ms.toFixed(3)}`);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
    res.on('finish', () => {
      // A refused or failed request's admission is settled (server/billing/middleware.ts).
      if (res.statusCode >= 400) void admissionOf(res)?.settle(res.statusCode);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      // req.path has no query string: browser editors may carry a token there.
      logger.info({ request_id: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
      observe?.(req, res, ms / 1000);
    });
    next();
  };
}
