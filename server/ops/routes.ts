/**
 * Operations endpoints, outside /v1 and without an API key: `/healthz` (the process answers),
 * `/readyz` (the store of record takes a write and the service is not shutting down; 503
 * otherwise, for load balancers), `/metrics` (Prometheus text; with METRICS_TOKEN set, only for
 * `Authorization: Bearer <token>`).
 */
import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { methodNotAllowed } from '../http/allowed-methods.ts';
import { route } from '../http/endpoint.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { opsEndpoints as e } from './endpoints.ts';
import type { ServiceMetrics } from './metrics.ts';

/** A readiness probe slower than this is a failure: a load balancer must not wait on a stuck store. */
const READY_TIMEOUT_MS = 2_000;

export interface Lifecycle {
  shuttingDown: boolean;
}

const PROBE = `INSERT INTO readiness_probe (instance, checked_at) VALUES (?, ?)
  ON CONFLICT (instance) DO UPDATE SET checked_at = excluded.checked_at`;

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export function opsRoutes(deps: { engine: StorageEngine; metrics: ServiceMetrics; lifecycle: Lifecycle; instance: string; metricsToken?: string }): Router {
  const r = Router();
  // Another method on these paths: 405 with Allow; OPTIONS: 204 with Allow (server/http/allowed-methods.ts).
  r.use(methodNotAllowed(r, { staticPaths: true }));
  route(r, e.healthz, (_call, res) => {
    res.json({ ok: true });
  });
  route(r, e.readyz, async (_call, res) => {
    if (deps.lifecycle.shuttingDown) {
      res.status(503).json({ ready: false, reason: 'shutting down' });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        deps.engine.run(PROBE, [deps.instance, new Date().toISOString()]),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
        }),
      ]);
      res.json({ ready: true });
    } catch (err) {
      // The reason names what failed, never a connection string.
      res.status(503).json({ ready: false, reason: `the store of record does not take writes: ${(err as Error).name}: ${(err as Error).message.split('\n')[0]!.slice(0, 200)}` });
    } finally {
      clearTimeout(timer);
    }
  });
  route(r, e.metrics, async (call, res) => {
    if (deps.metricsToken !== undefined && !tokenMatches(call.req.get('authorization'), deps.metricsToken)) {
      res.status(401).json({ error: 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>' });
      return;
    }
    res.type(deps.metrics.contentType).send(await deps.metrics.text());
  });
  return r;
}
