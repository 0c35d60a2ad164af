/**
 * 405 for a known path asked with a method it does not have, with the `Allow` header; read from
 * the routes Express registered (routers nested with `use`, each mounted at its parent's root),
 * so it cannot fall out of step with them. A static path is a reserved name: `GET
 * /interactives/flashcards/create` is a 405 (create is POST), not a GET of a deck called "create".
 * `OPTIONS` on a known path, static or with parameters, answers 204 with the same `Allow`.
 */
import type { Request, RequestHandler, Router } from 'express';
import { HttpError } from './errors.ts';

interface RouteLayer {
  /** One path, or several (`router.get(['/docs', '/docs/'], …)`). */
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: RouteLayer[] };
  match(path: string): boolean;
}

function routeLayers(stack: readonly RouteLayer[], out: RouteLayer[] = []): RouteLayer[] {
  for (const layer of stack) {
    if (layer.route) out.push(layer);
    else if (layer.handle.stack) routeLayers(layer.handle.stack, out);
  }
  return out;
}

const isStatic = (path: string) => !/[:*{]/.test(path);
/** Express matches paths case-insensitively, with or without a trailing slash. */
const staticKey = (path: string) => path.toLowerCase().replace(/\/+$/, '') || '/';

function allowHeader(methods: Iterable<string>): string {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort().join(', ');
}

function refuse(req: Request, allow: string): HttpError {
  return new HttpError(405, `Method ${req.method} not allowed on ${req.baseUrl}${req.path}; allowed: ${allow}`, {}, { Allow: allow });
}

function methodsOf(layer: RouteLayer): string[] {
  return Object.entries(layer.route!.methods)
    .filter(([method, on]) => on && method !== '_all')
    .map(([method]) => method.toUpperCase());
}

/**
 * Mount on `router` before its routes with `staticPaths: true` (a request for a static path with a
 * method that path lacks; one map lookup per request; and OPTIONS on any known path), and last
 * without (a request that matched no route of its method).
 */
export function methodNotAllowed(router: Router, opts: { staticPaths?: boolean } = {}): RequestHandler {
  let routes: RouteLayer[] | undefined;
  let statics: Map<string, { methods: Set<string>; allow: string }> | undefined;
  const layers = () => routeLayers((router as unknown as { stack: RouteLayer[] }).stack);
  /** Methods of the routes whose path matches (parameters included). */
  const matching = (path: string) => {
    routes ??= layers();
    const allowed = new Set<string>();
    for (const layer of routes) if (layer.match(path)) for (const m of methodsOf(layer)) allowed.add(m);
    return allowed;
  };
  if (opts.staticPaths) {
    return (req, res, next) => {
      if (!statics) {
        const byPath = new Map<string, Set<string>>();
        for (const layer of layers()) {
          const paths = Array.isArray(layer.route!.path) ? layer.route!.path : [layer.route!.path];
          for (const path of paths) {
            if (!isStatic(path)) continue;
            const key = staticKey(path);
            const set = byPath.get(key) ?? new Set<string>();
            for (const m of methodsOf(layer)) set.add(m);
            byPath.set(key, set);
          }
        }
        statics = new Map([...byPath].map(([k, methods]) => [k, { methods, allow: allowHeader(methods) }]));
      }
      const known = statics.get(staticKey(req.path));
      if (req.method === 'OPTIONS') {
        // Answered here for every known path alike (Express would answer 200 on parameterised ones only).
        const allow = known?.allow ?? (() => {
          const allowed = matching(req.path);
          return allowed.size > 0 ? allowHeader(allowed) : undefined;
        })();
        if (allow === undefined) next();
        else res.set('Allow', allow).status(204).end();
        return;
      }
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (!known || known.methods.has(method)) next();
      else next(refuse(req, known.allow));
    };
  }
  return (req, _res, next) => {
    const allowed = matching(req.path);
    if (allowed.size === 0 || allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET'))) next();
    else next(refuse(req, allowHeader(allowed)));
  };
}
