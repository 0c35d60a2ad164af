/**
 * A body sent to a JSON endpoint must say it is JSON. Without this, express.json() skips a body
 * labelled text/plain (or not labelled at all) and the route sees none: a create made "Untitled",
 * an import answering "markdown: Field required" although it was sent. Refused with 415 before
 * anything is done or charged.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

export const JSON_TYPES = ['application/json', 'application/*+json'];

export function requireJsonBodies(): RequestHandler {
  return (req, _res, next) => {
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody || req.is(JSON_TYPES)) {
      next();
      return;
    }
    const sent = req.headers['content-type'];
    next(
      new HttpError(
        415,
        sent
          ? `Unsupported Content-Type '${sent}': request bodies must be JSON, sent with Content-Type: application/json`
          : 'Missing Content-Type: request bodies must be JSON, sent with Content-Type: application/json',
      ),
    );
  };
}
