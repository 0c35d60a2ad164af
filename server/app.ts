/**
 * Wires the service together: storage, domains, the HTTP app and the server. Used by main.ts,
 * by the tests (real server on an ephemeral port) and by the benchmarks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { requireApiKey } from './auth/middleware.ts';
import { systemClock, type Clock } from './billing/clock.ts';
import { meterRequests } from './billing/middleware.ts';
import { billingRoutes } from './billing/routes.ts';
import { BillingService } from './billing/service.ts';
import { ProcessRateLimitStore } from './billing/rate-limit-store.ts';
import type { Config } from './config.ts';
import { errorHandler, HttpError } from './http/errors.ts';
import { guardJsonBody } from './http/json-guard.ts';
import { requestContext } from './http/middleware.ts';
import { JournalRegistry } from './journals/registry.ts';
import { journalRoutes } from './journals/routes.ts';
import { MarkdownConverter } from './journals/markdown-offload.ts';
import { WorkerPool } from './workers/pool.ts';
import { JournalService } from './journals/service.ts';
import { JournalStore } from './journals/store.ts';
import { GroupCommitter } from './journals/group-commit.ts';
import { RedisBus } from './cluster/bus.ts';
import { flashcardRoutes } from './flashcards/routes.ts';
import { createLogger, type Logger } from './logger.ts';
import { createAsyncDomains, type AsyncDomains } from './practice/domain.ts';
import { practiceRoutes } from './practice/routes.ts';
import { CloseCode } from './realtime/close-codes.ts';
import { EditorTokens, loadTokenSecret } from './realtime/credentials.ts';
import { RealtimeHub } from './realtime/hub.ts';
import { realtimeRoutes } from './realtime/routes.ts';
import { openStorageEngine, type StorageEngine } from './storage/engine.ts';
import { createVideoDomain } from './video/domain.ts';
import { shutdownSpeech } from './video/engine/index.ts';
import { videoRoutes } from './video/routes.ts';
import type { VideoService } from './video/service.ts';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ServiceContext {
  config: Config;
  logger: Logger;
  /** The store of record (server/storage/engine.ts): SQLite, or PostgreSQL with DATABASE_URL. */
  engine: StorageEngine;
  /** Worker threads for markdown conversion and flashcard extraction (server/workers). */
  workers: WorkerPool;
  journals: JournalService;
  registry: JournalRegistry;
  /** Rate limits and credits (server/billing). */
  billing: BillingService;
  /** Time of the billing windows; tests inject a ManualClock. */
  clock: Clock;
  editorTokens: EditorTokens;
  /** Durable jobs, webhook outbox, practice sets (server/jobs, server/webhooks, server/practice). */
  jobs: AsyncDomains['jobs'];
  webhooks: AsyncDomains['webhooks'];
  practice: AsyncDomains['practice'];
  /** Videos on the same job worker and outbox (server/video). */
  videos: VideoService;
}

export interface ContextOptions {
  clock?: Clock;
}

export async function createContext(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  options: ContextOptions = {},
): Promise<ServiceContext> {
  const engine = await openStorageEngine({
    databaseUrl: config.databaseUrl,
    sqliteFile: config.dbPath,
    sqliteSynchronous: config.sqliteSynchronous,
    poolSize: config.databasePoolSize,
  });
  const store = new JournalStore(engine);
  const committer = new GroupCommitter(engine, store);
  const bus = config.cluster?.redisUrl ? new RedisBus(config.cluster.redisUrl, config.cluster.redisKeyPrefix, logger) : undefined;
  const registry = new JournalRegistry(
    store,
    committer,
    { compactAfterUpdates: config.compactAfterUpdates, compactAfterBytes: config.compactAfterBytes, idleMs: config.journalIdleMs, memoryCapBytes: config.journalMemoryCapBytes },
    logger,
    { bus, resyncMs: config.cluster?.resyncMs ?? 0 },
  );
  const workers = new WorkerPool(config.workers);
  const journals = new JournalService(engine, store, registry, config.publicBaseUrl, new MarkdownConverter(workers), logger);
  const clock = options.clock ?? systemClock;
  // One process on embedded SQLite: rate-limit counts in memory, written each second (no I/O per
  // request). Shared stores: one conditional upsert per admission, exact across instances.
  const billing = new BillingService(engine, clock, config.databaseUrl === undefined ? new ProcessRateLimitStore(engine) : undefined);
  const editorTokens = new EditorTokens(await loadTokenSecret(engine, config.dataDir, config.editorTokenSecret), config.editorTokenTtlSeconds);
  const { jobs, webhooks, practice } = createAsyncDomains(engine, config, logger, journals, billing.credits);
  const videos = createVideoDomain(engine, config, logger, { journals, credits: billing.credits, jobs, webhooks });
  return { config, logger, engine, workers, journals, registry, editorTokens, billing, clock, jobs, webhooks, practice, videos };
}

export function createApp(ctx: ServiceContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestContext(ctx.logger));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  const v1 = express.Router();
  v1.use(requireApiKey(ctx.engine));
  v1.use(meterRequests(ctx.billing));
  v1.use(express.json({ limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'] }));
  v1.use(guardJsonBody());
  v1.use(journalRoutes(ctx.journals));
  v1.use(practiceRoutes(ctx.practice, { allowPrivateWebhooks: ctx.config.webhooks.allowPrivate }));
  v1.use(videoRoutes(ctx.videos, { allowPrivateWebhooks: ctx.config.webhooks.allowPrivate }));
  v1.use(flashcardRoutes(ctx.journals, ctx.workers));
  v1.use(billingRoutes(ctx.billing));
  v1.use(realtimeRoutes(ctx.journals, ctx.editorTokens, ctx.config.publicBaseUrl));
  app.use('/v1', v1);
  app.use((_req, _res, next) => next(new HttpError(404, 'Not found')));
  app.use(errorHandler(ctx.logger));
  return app;
}

export interface RunningService {
  ctx: ServiceContext;
  server: http.Server;
  port: number;
  url: string;
  realtime: RealtimeHub;
  /** Stops accepting requests, finishes in-flight ones, compacts and closes journals and storage. */
  close(): Promise<void>;
}

export async function startService(config: Config, logger?: Logger, options: ContextOptions = {}): Promise<RunningService> {
  // Bind first: with PORT=0 and no PUBLIC_BASE_URL, links handed to clients need the real port.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  if (!config.publicBaseUrlExplicit && config.port === 0) config = { ...config, publicBaseUrl: `http://${host}:${port}` };
  let ctx: ServiceContext;
  try {
    ctx = await createContext(config, logger, options);
  } catch (err) {
    server.close();
    throw err;
  }
  // Attached in the same tick as the listen callback, before any request can be read.
  server.on('request', createApp(ctx));
  const realtime = new RealtimeHub(
    ctx.engine,
    ctx.journals.store,
    ctx.registry,
    ctx.editorTokens,
    {
      maxPayloadBytes: config.wsMaxPayloadBytes,
      maxConnectionsPerJournal: config.wsMaxConnectionsPerJournal,
      maxConnectionsPerOrg: config.wsMaxConnectionsPerOrg,
      limits: config.wsEditorLimits,
    },
    ctx.logger,
    ctx.billing,
  );
  realtime.attach(server);
  ctx.jobs.start();
  ctx.webhooks.start();
  let closing: Promise<void> | undefined;
  // Stop accepting, let in-flight requests finish, close editors (1001), compact, close storage.
  const close = () =>
    (closing ??= (async () => {
      realtime.stopAccepting();
      const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await realtime.closeAll(CloseCode.GOING_AWAY, 'server shutting down');
      await httpClosed;
      // Running jobs stop at their next step and go back to the queue; deliveries are retried later.
      await Promise.all([ctx.jobs.stop(), ctx.webhooks.stop()]);
      await shutdownSpeech(); // the video engine's speech worker, if it ran
      await ctx.workers.close();
      await ctx.registry.closeAll('server shutting down');
      await ctx.registry.bus?.close();
      await ctx.billing.close(); // writes the rate-limit counts and read charges held in memory
      await ctx.engine.close();
    })());
  return { ctx, server, port, url: `http://${host}:${port}`, realtime, close };
}
