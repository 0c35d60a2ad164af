import type { NextFunction, Request, Response } from 'express';
import type { StorageEngine } from '../storage/engine.ts';
import { resolveApiKeyNow, type Principal } from './keys.ts';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

/** Extracts the bearer credential; undefined when the header is missing or not a bearer. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** What runs for an authenticated request in requireApiKey's middleware, given its principal. */
export type Admitted = (req: Request, res: Response, next: NextFunction, principal: Principal) => void;

/**
 * @param onUse told of every authenticated request's key (LastUsedRecorder.note: in memory, no I/O).
 * @param then what runs next for an authenticated request (the metering of server/billing), in
 *   the same middleware: a router step less on every request than mounting it after this one.
 */
export function requireApiKey(engine: StorageEngine, onUse?: (keyId: string) => void, then?: Admitted) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'Missing API key: send Authorization: Bearer <key>' });
      return;
    }
    // Synchronous on a cache hit: no await on the path of every request.
    const resolved = resolveApiKeyNow(engine, token);
    // `catch` rather than a rejection handler: the metering runs in the callback, and what it
    // throws must reach Express too (as it did when metering was a middleware of its own).
    if (resolved instanceof Promise) resolved.then((principal) => admitKey(req, res, next, principal, onUse, then)).catch(next);
    else admitKey(req, res, next, resolved, onUse, then);
  };
}

// Module functions rather than closures made per request (the hot path of every call).
function admitKey(req: Request, res: Response, next: NextFunction, principal: Principal | undefined, onUse?: (keyId: string) => void, then?: Admitted): void {
  if (!principal) {
    res.status(401).set('WWW-Authenticate', 'Bearer error="invalid_token"').json({ error: 'Invalid or revoked API key' });
    return;
  }
  req.principal = principal;
  onUse?.(principal.keyId);
  if (then) then(req, res, next, principal);
  else next();
}

/** The principal of an authenticated request (set by requireApiKey). */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error('route mounted without requireApiKey');
  return req.principal;
}
