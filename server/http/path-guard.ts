/**
 * A path holding a C0 control character (`%00`–`%1F` once decoded) names nothing the service has:
 * every id is printable. Such a request is a 404 before any route reads the parameter, so no id
 * with NUL ever reaches a lookup (PostgreSQL's text cannot even hold it).
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

const ENCODED_CONTROL = /%[01][0-9a-f]/i;

export function refuseControlPaths(): RequestHandler {
  return (req, _res, next) => {
    // Decoding is only needed when an escape of a control character is there at all.
    if (ENCODED_CONTROL.test(req.path) && /[\u0000-\u001f]/.test(safeDecode(req.path))) next(new HttpError(404, 'Not found'));
    else next();
  };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
