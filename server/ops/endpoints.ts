/** The operations endpoints (routes.ts): outside /v1, without an API key, not metered. */
import * as z from 'zod';
import { endpoints } from '../http/endpoint.ts';

export const opsEndpoints = endpoints('Operations', {
  healthz: {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'The process is alive',
    auth: 'none',
    success: { status: 200, description: 'alive', schema: z.object({ ok: z.literal(true) }) },
    errors: [],
  },
  readyz: {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'The store of record takes writes and the service is not shutting down',
    auth: 'none',
    success: { status: 200, description: 'ready', schema: z.object({ ready: z.literal(true) }) },
    errors: [],
    extra: { 503: { description: 'not ready', schema: z.object({ ready: z.literal(false), reason: z.string() }) } },
  },
  metrics: {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics (text exposition format)',
    auth: 'metrics',
    success: { status: 200, description: 'Prometheus text', contentType: 'text/plain; version=0.0.4; charset=utf-8' },
    errors: [],
  },
});
