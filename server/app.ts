/**
 * Wires the service together: storage, domains, the HTTP app and the server. Used by main.ts,
 * by the tests (real server on an ephemeral port) and by the benchmarks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { requireApiKey } from './auth/middleware.ts';
import type { Config } from './config.ts';
import { errorHandler, HttpError } from './http/errors.ts';
import { requestContext } from './http/middleware.ts';
import { JournalRegistry } from './journals/registry.ts';
import { journalRoutes } from './journals/routes.ts';
import { JournalService } from './journals/service.ts';
import { JournalStore } from './journals/store.ts';
import { createLogger, type Logger } from './logger.ts';
import { openDatabase, type DB } from './storage/db.ts';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ServiceContext {
  config: Config;
  logger: Logger;
  db: DB;
  journals: JournalService;
  registry: JournalRegistry;
}

export function createContext(config: Config, logger: Logger = createLogger(config.logLevel)): ServiceContext {
  const db = openDatabase(config.dbPath, { synchronous: config.sqliteSynchronous });
  const store = new JournalStore(db);
  const registry = new JournalRegistry(
    store,
    { compactAfterUpdates: config.compactAfterUpdates, compactAfterBytes: config.compactAfterBytes, idleMs: config.journalIdleMs },
    logger,
  );
  const journals = new JournalService(db, store, registry, config.publicBaseUrl);
  return { config, logger, db, journals, registry };
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
  v1.use(requireApiKey(ctx.db));
  v1.use(express.json({ limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'] }));
  v1.use(journalRoutes(ctx.journals));
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
  /** Stops accepting requests, finishes in-flight ones, compacts and closes journals and storage. */
  close(): Promise<void>;
}

export async function startService(config: Config, logger?: Logger): Promise<RunningService> {
  const ctx = createContext(config, logger);
  const app = createApp(ctx);
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => {
        ctx.registry.closeAll('server shutting down');
        ctx.db.close();
        resolve();
      });
      server.closeIdleConnections();
    }));
  return { ctx, server, port, url: `http://${host}:${port}`, close };
}
