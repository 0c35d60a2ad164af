/**
 * Checks every parsed JSON body once, before any route sees it: nesting at most MAX_JSON_DEPTH
 * (deeper bodies overflow the stack of recursive code such as request hashing) and no lone
 * UTF-16 surrogates in any string or key (`"a\ud800b"` is valid JSON, but the text cannot be
 * stored as UTF-8: it would silently become U+FFFD, and readers would disagree). Iterative, linear
 * in the body.
 */
import type { RequestHandler } from 'express';
import { invalid, type Loc } from './errors.ts';

export const MAX_JSON_DEPTH = 64;

/** With the u flag a valid surrogate pair is one code point, so this matches only lone halves. */
const LONE_SURROGATE = /\p{Cs}/u;

export function guardJsonBody(): RequestHandler {
  return (req, _res, next) => {
    if (req.body !== undefined && typeof req.body === 'object' && req.body !== null) checkJson(req.body);
    next();
  };
}

/** Throws a 422 naming the first offending place in `body`. */
export function checkJson(body: unknown): void {
  const stack: { value: unknown; loc: Loc }[] = [{ value: body, loc: ['body'] }];
  while (stack.length > 0) {
    const { value, loc } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) throw invalid(loc, 'text must be valid Unicode: it holds a lone UTF-16 surrogate', 'string_unicode');
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (loc.length > MAX_JSON_DEPTH) {
      throw invalid(loc.slice(0, 4), `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, 'value_error.json_depth');
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, loc: [...loc, i] }));
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      if (LONE_SURROGATE.test(k)) throw invalid(loc, 'keys must be valid Unicode: one holds a lone UTF-16 surrogate', 'string_unicode');
      stack.push({ value: v, loc: [...loc, k] });
    }
  }
}
