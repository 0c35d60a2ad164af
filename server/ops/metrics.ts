/**
 * Prometheus metrics of one service instance (GET /metrics), on a registry of its own so that
 * several services in one process (the tests) do not share counters. Gauges read their value when
 * scraped (loaded journals, editors, job and webhook states), so nothing is counted twice.
 */
import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { matchedRoute } from '../http/endpoint.ts';
import type { JournalRegistry } from '../journals/registry.ts';
import type { StorageEngine } from '../storage/engine.ts';

/**
 * prom-client's gauges named like counters (`_total` is the counter suffix): the per-type gauges
 * beside them (`nodejs_active_handles{type}`, …) hold the same counts, and their sum is the total.
 */
const MISNAMED_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** Process metrics (CPU, memory, event loop, GC) belong to the process: collected once in it. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_GAUGES) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly persistDuration: Histogram;
  private readonly persistedUpdates: Counter;
  private editors: () => Record<string, number> = () => ({});

  /**
   * @param routeOf the route template of a request answered before any route ran (a 401, 402 or
   *   429 at admission, a malformed body), from the declared operations; undefined when the
   *   method and path are no operation (an unknown path, a 405).
   */
  constructor(
    engine: StorageEngine,
    journals: JournalRegistry,
    private readonly routeOf: (method: string, path: string) => string | undefined = () => undefined,
  ) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.persistDuration = new Histogram({
      name: 'journal_update_persist_seconds',
      help: 'Time to commit one group of journal updates to the store of record',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    });
    this.persistedUpdates = new Counter({ name: 'journal_updates_persisted_total', help: 'Journal updates committed', registers });
    const metrics = this;
    new Gauge({
      name: 'realtime_editor_connections',
      help: 'Open editor connections by protocol: y-websocket sockets, hocuspocus journals open on sockets',
      labelNames: ['protocol'],
      registers,
      collect() {
        for (const [protocol, n] of Object.entries(metrics.editors())) this.set({ protocol }, n);
      },
    });
    new Gauge({
      name: 'journals_loaded',
      help: 'Journals held in memory',
      registers,
      collect() {
        this.set(journals.size);
      },
    });
    new Gauge({
      name: 'job_queue_depth',
      help: 'Durable jobs by state',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        for (const state of ['queued', 'running', 'done', 'failed']) this.set({ state }, 0);
        for (const r of await engine.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state')) this.set({ state: r.state }, Number(r.n));
      },
    });
    new Gauge({
      name: 'webhook_deliveries',
      help: 'Webhook deliveries by state: pending (retrying when attempts > 0), delivered, failed (gave up)',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        for (const state of ['pending', 'retrying', 'delivered', 'failed']) this.set({ state }, 0);
        const rows = await engine.all<{ state: string; retrying: number; n: number }>(
          'SELECT state, CASE WHEN attempts > 0 THEN 1 ELSE 0 END AS retrying, COUNT(*) AS n FROM webhook_outbox GROUP BY state, CASE WHEN attempts > 0 THEN 1 ELSE 0 END',
        );
        for (const r of rows) {
          const state = r.state === 'pending' && Number(r.retrying) === 1 ? 'retrying' : r.state;
          this.inc({ state }, Number(r.n));
        }
      },
    });
  }

  /** The Prometheus text of the process's metrics and this service's. */
  text(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }

  /** The realtime endpoint is attached after the app is made. */
  watchEditors(count: () => Record<string, number>): void {
    this.editors = count;
  }

  /** Called by the request context when a response is finished. */
  observeRequest(req: Request, res: Response, seconds: number): void {
    // The route template (`/v1/journals/content/:journal_id`), never the raw path with its ids;
    // the same for an error answer, whose req.baseUrl Express has reset by now.
    const route = matchedRoute(req, res) ?? (res.statusCode >= 400 ? this.routeOf(req.method, req.originalUrl.split('?')[0]!) : undefined) ?? 'unmatched';
    this.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
  }

  /** Called by the group committer after each committed transaction. */
  observeCommit(seconds: number, updates: number): void {
    this.persistDuration.observe(seconds);
    this.persistedUpdates.inc(updates);
  }
}
