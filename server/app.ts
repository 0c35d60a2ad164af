/**
 * Wires the service together: storage, domains, the HTTP app and the server. Used by main.ts,
 * by the tests (real server on an ephemeral port) and by the benchmarks.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { requireApiKey } from './auth/middleware.ts';
import { systemClock, type Clock } from './billing/clock.ts';
import { meterRequests } from './billing/middleware.ts';
import { RefusalGuard } from './billing/refusal-guard.ts';
import { billingRoutes } from './billing/routes.ts';
import { BillingService } from './billing/service.ts';
import { ProcessRateLimitStore } from './billing/rate-limit-store.ts';
import type { ClusterSync } from './cluster/sync.ts';
import type { Config } from './config.ts';
import { ENDPOINT_CATALOG, ENDPOINTS } from './endpoints.ts';
import { errorHandler, HttpError } from './http/errors.ts';
import { methodNotAllowed } from './http/allowed-methods.ts';
import { JSON_TYPES, requireJsonBodies } from './http/content-type.ts';
import { guardJsonBody } from './http/json-guard.ts';
import { routeTemplates } from './http/endpoint.ts';
import { requestContext } from './http/middleware.ts';
import { refuseControlPaths } from './http/path-guard.ts';
import { ServiceMetrics } from './ops/metrics.ts';
import { opsRoutes, type Lifecycle } from './ops/routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { webApp } from './web/routes.ts';
import { JournalRegistry } from './journals/registry.ts';
import { LastUsedRecorder } from './keys/last-used.ts';
import { keyRoutes } from './keys/routes.ts';
import { KeyService } from './keys/service.ts';
import { commentRoutes } from './journals/comments/routes.ts';
import { CommentService } from './journals/comments/service.ts';
import { journalRoutes } from './journals/routes.ts';
import { nestingRoutes } from './journals/nesting/routes.ts';
import { NestingService } from './journals/nesting/service.ts';
import { publishedPages, publishRoutes } from './journals/publish/routes.ts';
import { PublishService } from './journals/publish/service.ts';
import { versionRoutes } from './journals/versions/routes.ts';
import { VersionService } from './journals/versions/service.ts';
import { MarkdownConverter } from './journals/markdown-offload.ts';
import { WorkerPool } from './workers/pool.ts';
import { JournalService } from './journals/service.ts';
import { JournalStore } from './journals/store.ts';
import { GroupCommitter } from './journals/group-commit.ts';
import { flashcardRoutes } from './flashcards/routes.ts';
import { FlashcardService } from './flashcards/service.ts';
import { createLogger, type Logger } from './logger.ts';
import { JobStore } from './jobs/store.ts';
import { JobWorker } from './jobs/worker.ts';
import { JournalSearch } from './journals/search.ts';
import { LlmClient } from './llm/client.ts';
import { PracticeService } from './practice/service.ts';
import { PracticeStore } from './practice/store.ts';
import { practiceRoutes } from './practice/routes.ts';
import { CloseCode } from './realtime/close-codes.ts';
import { EditorTokens, loadTokenSecret } from './realtime/credentials.ts';
import { HocuspocusEndpoint } from './realtime/hocuspocus/server.ts';
import { RealtimeHub } from './realtime/hub.ts';
import { realtimeRoutes } from './realtime/routes.ts';
import type { StorageEngine } from './storage/engine.ts';
import { openStorageEngine } from './storage/open.ts';
import { shutdownSpeech } from './video/engine/speech.ts';
import { videoRoutes } from './video/routes.ts';
import { VideoService } from './video/service.ts';
import { VideoStore } from './video/store.ts';
import { WebhookOutbox } from './webhooks/outbox.ts';
import { WebhookSecrets } from './webhooks/secrets.ts';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The worker threads' entry, beside this file (server/worker.mjs from source, dist/server/worker.mjs in the build). */
export const WORKER_ENTRY = new URL('./worker.mjs', import.meta.url);
/** The sliced cold load's own worker entry (load-worker.mjs from source and in the build). */
export const LOAD_WORKER_ENTRY = new URL('./load-worker.mjs', import.meta.url);
/** This process among the instances on one store (the readiness probe's row). */
const INSTANCE_ID = randomUUID();

export interface ServiceContext {
  config: Config;
  logger: Logger;
  /** The store of record (server/storage/engine.ts): SQLite, or PostgreSQL with DATABASE_URL. */
  engine: StorageEngine;
  /** Worker threads for markdown conversion, flashcard extraction and grading long answers (server/workers). */
  workers: WorkerPool;
  journals: JournalService;
  registry: JournalRegistry;
  /** Cross-instance sync, when several instances share the store (server/cluster). */
  cluster?: ClusterSync;
  /** Rate limits and credits (server/billing). */
  billing: BillingService;
  /** Time of the billing windows; tests inject a ManualClock. */
  clock: Clock;
  editorTokens: EditorTokens;
  /** Durable jobs, webhook outbox, practice sets (server/jobs, server/webhooks, server/practice). */
  jobs: JobWorker;
  webhooks: WebhookOutbox;
  practice: PracticeService;
  /** Videos on the same job worker and outbox (server/video). */
  videos: VideoService;
  /** Version history of journals (server/journals/versions). */
  versions: VersionService;
  /** GET /metrics (server/ops). */
  metrics: ServiceMetrics;
  /** Key management by admin keys, and when each key was last used (server/keys). */
  keys: KeyService;
  lastUsed: LastUsedRecorder;
  /** Set when shutdown begins: GET /readyz answers 503 from then on. */
  lifecycle: Lifecycle;
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
  // SQLite commits synchronously: a transaction waits for the turn's messages (group-commit.ts).
  const committer = new GroupCommitter(engine, store, engine.kind === 'sqlite');
  const workers = new WorkerPool(WORKER_ENTRY, config.workers);
  const registry = new JournalRegistry(
    store,
    committer,
    {
      compactAfterUpdates: config.compactAfterUpdates,
      compactAfterBytes: config.compactAfterBytes,
      idleMs: config.journalIdleMs,
      memoryCapBytes: config.journalMemoryCapBytes,
      // Large journals load in slices, a log merged in a worker (docs/realtime.md#cold-loads).
      loader: {
        pool: workers,
        entry: LOAD_WORKER_ENTRY,
        minBytes: config.journalSlicedLoadBytes,
        onFallback: (err) => logger.warn({ err }, 'sliced journal load failed; applied the state in one piece'),
      },
    },
    logger,
  );
  // Several instances on one store of record (DATABASE_URL); ioredis loads only then.
  const cluster = config.cluster ? new (await import('./cluster/sync.ts')).ClusterSync(registry, store, config.cluster, logger) : undefined;
  if (cluster) registry.use(cluster);
  const journals = new JournalService(engine, store, registry, config.publicBaseUrl, new MarkdownConverter(workers), logger);
  const clock = options.clock ?? systemClock;
  // One process on embedded SQLite: rate-limit counts in memory, written each second (no I/O per
  // request). Shared stores: one conditional upsert per admission, exact across instances.
  const billing = new BillingService(engine, clock, ENDPOINT_CATALOG, config.databaseUrl === undefined ? new ProcessRateLimitStore(engine) : undefined, config.orgQuotas);
  const editorTokens = new EditorTokens(await loadTokenSecret(engine, config.dataDir, config.editorTokenSecret), config.editorTokenTtlSeconds);
  // One job worker and one webhook outbox for every feature: each registers its job kind and event types.
  const jobs = new JobWorker(new JobStore(engine), config.jobs, logger);
  const webhooks = new WebhookOutbox(engine, new WebhookSecrets(engine), config.webhooks, logger);
  const practice = new PracticeService({
    store: new PracticeStore(engine),
    jobs,
    outbox: webhooks,
    credits: billing.credits,
    search: new JournalSearch(engine, journals),
    llm: config.llm ? new LlmClient(config.llm) : undefined,
    logger,
    workers,
  });
  const videos = new VideoService({
    store: new VideoStore(engine),
    jobs,
    outbox: webhooks,
    credits: billing.credits,
    journals,
    logger,
    options: {
      videosDir: join(config.dataDir, 'videos'),
      b64MaxBytes: config.video.b64MaxBytes,
      ffmpegThreads: config.video.ffmpegThreads,
      publicBaseUrl: config.publicBaseUrl,
    },
  });
  const versions = new VersionService(engine, journals);
  // A request refused before its route ran is labelled with the operation it was for.
  const metrics = new ServiceMetrics(engine, registry, routeTemplates(ENDPOINTS));
  committer.onCommit = (seconds, updates) => metrics.observeCommit(seconds, updates);
  const keys = new KeyService(engine);
  const lastUsed = new LastUsedRecorder(engine);
  return {
    config,
    logger,
    engine,
    workers,
    journals,
    registry,
    cluster,
    editorTokens,
    billing,
    clock,
    jobs,
    webhooks,
    practice,
    videos,
    versions,
    metrics,
    keys,
    lastUsed,
    lifecycle: { shuttingDown: false },
  };
}

/**
 * @param admission what stands before the /v1 routes to know the caller and count the request:
 *   by default the API key and billing (rate limits, flood guard, metering), in one middleware.
 *   The billing benchmark replaces it with a fixed caller to measure what it costs; nothing else
 *   differs.
 */
export function createApp(
  ctx: ServiceContext,
  admission: express.RequestHandler[] = [
    requireApiKey(
      ctx.engine,
      (keyId) => ctx.lastUsed.note(keyId),
      meterRequests(ctx.billing, new RefusalGuard(ctx.config.refusedRequestsPerMinute)),
    ),
  ],
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestContext(ctx.logger, (req, res, seconds) => ctx.metrics.observeRequest(req, res, seconds)));
  app.use(opsRoutes({ engine: ctx.engine, metrics: ctx.metrics, lifecycle: ctx.lifecycle, instance: INSTANCE_ID, metricsToken: ctx.config.metricsToken }));
  // The API description and its docs page, without a key (server/openapi).
  app.use(openApiRoutes(ENDPOINTS));
  // The browser app at /app/ and the redirects to it (server/web, built from web/).
  app.use(webApp());
  // Published journals at /p/{slug}, without a key (server/journals/publish).
  const publish = new PublishService(ctx.engine, ctx.journals);
  app.use(publishedPages(publish));
  const v1 = express.Router();
  for (const handler of admission) v1.use(handler);
  v1.use(requireJsonBodies());
  v1.use(express.json({ limit: MAX_BODY_BYTES, type: JSON_TYPES }));
  v1.use(guardJsonBody());
  v1.use(methodNotAllowed(v1, { staticPaths: true }));
  v1.use(refuseControlPaths());
  v1.use(journalRoutes(ctx.journals));
  v1.use(versionRoutes(ctx.versions));
  v1.use(commentRoutes(new CommentService(ctx.engine, ctx.journals)));
  v1.use(publishRoutes(publish));
  v1.use(nestingRoutes(new NestingService(ctx.engine, ctx.journals)));
  v1.use(practiceRoutes(ctx.practice, { allowPrivateWebhooks: ctx.config.webhooks.allowPrivate }));
  v1.use(videoRoutes(ctx.videos, { allowPrivateWebhooks: ctx.config.webhooks.allowPrivate }));
  v1.use(flashcardRoutes(new FlashcardService(ctx.engine, ctx.journals, ctx.workers)));
  v1.use(billingRoutes(ctx.billing));
  v1.use(keyRoutes(ctx.keys));
  v1.use(realtimeRoutes(ctx.journals, ctx.editorTokens, ctx.config.publicBaseUrl));
  v1.use(methodNotAllowed(v1));
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
  /** The Hocuspocus endpoint (`/v1/collaboration`), served on the hub's upgrades. */
  collaboration: HocuspocusEndpoint;
  /** Stops accepting requests, finishes in-flight ones, compacts and closes journals and storage. */
  close(): Promise<void>;
}

export async function startService(config: Config, logger?: Logger, options: ContextOptions = {}): Promise<RunningService> {
  // Bind first: with PORT=0 and no PUBLIC_BASE_URL, links handed to clients need the real port.
  const server = http.createServer();
  // Requests accepted while the service starts wait for it (an unanswered 'request' event would
  // hold the connection forever); they are handed over once it is ready, or refused if it fails.
  let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;
  const waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  server.on('request', (req, res) => (handle ? handle(req, res) : waiting.push([req, res])));
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
    for (const [, res] of waiting.splice(0)) res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"The service failed to start."}');
    server.close();
    throw err;
  }
  handle = createApp(ctx);
  for (const [req, res] of waiting.splice(0)) handle(req, res);
  const realtime = new RealtimeHub(
    ctx.engine,
    ctx.journals.store,
    ctx.registry,
    ctx.editorTokens,
    {
      maxPayloadBytes: config.wsMaxPayloadBytes,
      maxConnectionsPerJournal: config.wsMaxConnectionsPerJournal,
      maxConnectionsPerOrg: config.wsMaxConnectionsPerOrg,
      maxConnections: config.wsMaxConnections,
      limits: config.wsEditorLimits,
    },
    ctx.logger,
    ctx.billing,
    ctx.cluster,
  );
  realtime.attach(server);
  const collaboration = new HocuspocusEndpoint(
    realtime,
    ctx.engine,
    ctx.journals.store,
    ctx.registry,
    ctx.editorTokens,
    { maxPayloadBytes: config.wsMaxPayloadBytes, limits: config.wsEditorLimits },
    ctx.logger,
    ctx.billing,
  );
  // A key revoked over REST closes its editor connections here at once (other instances: their poll).
  ctx.keys.onRevoked = () => {
    void realtime.closeRevoked();
    void collaboration.closeRevoked();
  };
  ctx.metrics.watchEditors(() => ({ 'y-websocket': realtime.connectionCount, hocuspocus: collaboration.connectionCount }));
  ctx.jobs.start();
  ctx.webhooks.start();
  // The trash sweep: purges journals trashed longer than TRASH_RETENTION_DAYS (each instance may
  // run it; a purge of a journal already gone changes nothing). Failures wait for the next round.
  const sweepTrash = () =>
    ctx.journals.purgeTrash(config.trash.retentionMs).then(
      (n) => n > 0 && ctx.logger.info({ purged: n }, 'trash sweep purged journals'),
      (err) => ctx.logger.warn({ err: (err as Error).message }, 'trash sweep failed'),
    );
  // On the same round: automatic versions past their tier's retention are thinned (docs/versions.md).
  const thinVersions = () =>
    ctx.versions.thin().then(
      (n) => n > 0 && ctx.logger.info({ dropped: n }, 'automatic versions thinned'),
      (err) => ctx.logger.warn({ err: (err as Error).message }, 'version thinning failed'),
    );
  const trashSweep = setInterval(() => void sweepTrash().then(thinVersions), config.trash.sweepMs);
  trashSweep.unref();
  // Checkpoint versions of journals that went quiet after editing (docs/versions.md).
  let checkpointing = false;
  const checkpoint = () => {
    if (checkpointing) return; // one round at a time
    checkpointing = true;
    ctx.versions
      .checkpointQuiet(config.versionQuietMs)
      .catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'version checkpoints failed'))
      .finally(() => (checkpointing = false));
  };
  const checkpoints = config.versionQuietMs > 0 ? setInterval(checkpoint, Math.max(1000, Math.min(60_000, config.versionQuietMs / 2))) : undefined;
  checkpoints?.unref();
  let closing: Promise<void> | undefined;
  // Stop accepting, let in-flight requests finish, close editors (1001), compact, close storage.
  const close = () =>
    (closing ??= (async () => {
      ctx.lifecycle.shuttingDown = true;
      clearInterval(trashSweep);
      clearInterval(checkpoints);
      realtime.stopAccepting();
      const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all([
        realtime.closeAll(CloseCode.GOING_AWAY, 'server shutting down'),
        collaboration.closeAll(CloseCode.GOING_AWAY, 'server shutting down'),
      ]);
      await httpClosed;
      // Running jobs stop at their next step and go back to the queue; deliveries are retried later.
      await Promise.all([ctx.jobs.stop(), ctx.webhooks.stop()]);
      await shutdownSpeech(); // the video engine's speech worker, if it ran
      await ctx.workers.close();
      await ctx.registry.closeAll(); // and stops the cluster sync
      await ctx.lastUsed.close(); // writes the last-used times held in memory
      await ctx.billing.close(); // writes the rate-limit counts and read charges held in memory
      await ctx.engine.close();
    })());
  return { ctx, server, port, url: `http://${host}:${port}`, realtime, collaboration, close };
}
