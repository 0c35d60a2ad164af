import type { NextFunction, Request, Response } from 'express';
import type { DB } from '../storage/db.ts';
import { resolveApiKey, type Principal } from './keys.ts';

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

export function requireApiKey(db: DB) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'Missing API key: send Authorization: Bearer <key>' });
      return;
    }
    const principal = resolveApiKey(db, token);
    if (!principal) {
      res.status(401).set('WWW-Authenticate', 'Bearer error="invalid_token"').json({ error: 'Invalid or revoked API key' });
      return;
    }
    req.principal = principal;
    next();
  };
}

/** The principal of an authenticated request (set by requireApiKey). */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error('route mounted without requireApiKey');
  return req.principal;
}
