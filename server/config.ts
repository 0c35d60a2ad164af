/**
 * Configuration from environment variables, validated once at start. Every variable is documented
 * in the README; an invalid value stops the process with a message naming the variable.
 */
import path from 'node:path';
import * as z from 'zod';
import { defaultMaxConnections, type EditorLimits } from './realtime/limits.ts';
import { ORG_QUOTAS, type OrgQuota } from './billing/limits.ts';
import type { Tier } from './auth/keys.ts';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** Three byte counts, `developer,scale,enterprise` (each a positive integer). */
const perTierBytes = z
  .string()
  .regex(/^\d+,\d+,\d+$/, 'three byte counts: developer,scale,enterprise (e.g. 16777216,134217728,1073741824)')
  .transform((v) => v.split(',').map(Number) as [number, number, number])
  .refine((v) => v.every((n) => Number.isSafeInteger(n) && n > 0), 'each must be a positive integer');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SQLITE_SYNCHRONOUS: z.enum(['normal', 'full']).default('normal'),
  /** PostgreSQL as the store of record (docs/deployment.md); unset = embedded SQLite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** PostgreSQL connections per instance. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Redis for live traffic between instances (needs DATABASE_URL); its channels are named with REDIS_KEY_PREFIX. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//i, 'must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_KEY_PREFIX: z.string().max(100).default('study:'),
  /** With DATABASE_URL: how often loaded journals catch up with what other instances committed (0 = only through Redis). */
  CLUSTER_RESYNC_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  /** Compact a journal's update log into its snapshot past this many updates or bytes. */
  COMPACT_AFTER_UPDATES: z.coerce.number().int().min(1).default(500),
  COMPACT_AFTER_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Seconds a journal with no editors and no REST use stays in memory. */
  JOURNAL_IDLE_SECONDS: z.coerce.number().min(0).default(30),
  /** Unload least recently used idle journals once loaded journals are estimated above this (0 = no cap). */
  JOURNAL_MEMORY_CAP_MB: z.coerce.number().min(0).default(512),
  /** Journals whose stored state is at least this many bytes load in slices, a log merged in a worker (0 = never; docs/realtime.md). */
  JOURNAL_SLICED_LOAD_BYTES: z.coerce.number().int().min(0).default(256 * 1024),
  /** Worker threads for heavy conversions (docs/security.md), and the time limit of one task (base + per KiB of input). */
  WORKER_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  WORKER_TIME_LIMIT_BASE_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  WORKER_TIME_LIMIT_MS_PER_KIB: z.coerce.number().min(0).max(10_000).default(25),
  /** Realtime editors (docs/realtime.md): largest WebSocket message, connection limits, token lifetime. */
  WS_MAX_PAYLOAD_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  WS_MAX_CONNECTIONS_PER_JOURNAL: z.coerce.number().int().min(1).default(1000),
  WS_MAX_CONNECTIONS_PER_ORG: z.coerce.number().int().min(1).default(2000),
  /** Editor connections of the whole process; default 80% of the open-files limit (realtime/limits.ts). */
  WS_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  /** Trashed journals are purged with their history after this many days (0: at the next sweep), checked every TRASH_SWEEP_SECONDS. */
  TRASH_RETENTION_DAYS: z.coerce.number().min(0).max(36_500).default(30),
  TRASH_SWEEP_SECONDS: z.coerce.number().min(1).max(86_400).default(3600),
  /** A journal edited and then quiet for this long gets an automatic version (a checkpoint); 0 = none. */
  VERSION_QUIET_SECONDS: z.coerce.number().min(0).max(86_400).default(300),
  /** When set, GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. Never logged. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  /** Flood guard: requests refused before doing any work (402, 405, 413, 415, 422) allowed per API key and minute, per instance. */
  REFUSED_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Per-organization quotas by tier (server/billing/limits.ts ORG_QUOTAS): realtime bytes per minute, stored bytes. */
  ORG_REALTIME_BYTES_PER_MINUTE: perTierBytes.optional(),
  ORG_STORED_BYTES: perTierBytes.optional(),
  EDITOR_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(600),
  /** Key that signs editor tokens (hex, at least 32 bytes); unset = one the first instance makes in the store of record (server/realtime/credentials.ts). */
  EDITOR_TOKEN_SECRET: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){32,}$/, 'must be at least 64 hexadecimal characters (32 bytes), e.g. from `openssl rand -hex 32`')
    .optional(),
  /**
   * Per-editor limits (docs/realtime.md, "Limits for editors"): updates held for missing
   * dependencies per journal, message and byte rates per connection (0 = no limit) and their
   * bursts, awareness client ids per connection and awareness state size.
   */
  WS_MAX_PENDING_BYTES: z.coerce.number().int().min(1024).default(256 * 1024),
  WS_MAX_UPDATE_ITEMS: z.coerce.number().int().min(100).default(20_000),
  WS_MAX_QUEUED_BYTES: z.coerce.number().int().min(65536).default(16 * 1024 * 1024),
  WS_MAX_MESSAGES_PER_SECOND: z.coerce.number().min(0).default(100),
  WS_MAX_MESSAGES_BURST: z.coerce.number().int().min(1).default(500),
  WS_MAX_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(1024 * 1024),
  WS_MAX_BYTES_BURST: z.coerce.number().int().min(1024).default(16 * 1024 * 1024),
  WS_MAX_AWARENESS_CLIENTS: z.coerce.number().int().min(1).max(1000).default(4),
  WS_MAX_AWARENESS_STATE_BYTES: z.coerce.number().int().min(256).max(1024 * 1024).default(16 * 1024),
  /** Print the bootstrap key on first start (set false for unattended deployments). */
  BOOTSTRAP_PRINT_KEY: bool.default(true),
  /** Durable jobs (docs/practice-api.md): parallel jobs, lease length, claims before a job is given up, poll interval. */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  JOB_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** Optional OpenAI-compatible LLM provider (docs/practice-api.md); LLM_BASE_URL and LLM_MODEL go together. */
  LLM_BASE_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  LLM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  LLM_RETRY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /** Webhooks (docs/webhooks.md): private targets, timeout, attempts, first retry delay. */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  /** Videos (docs/video-api.md): largest MP4 inlined as b64_video, ffmpeg threads per render. */
  VIDEO_B64_MAX_BYTES: z.coerce.number().int().min(0).max(64 * 1024 * 1024).default(8 * 1024 * 1024),
  VIDEO_FFMPEG_THREADS: z.coerce.number().int().min(1).max(16).default(1),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  /** Where clients reach the service; defaults to http://HOST:PORT (the bound port when PORT=0). */
  publicBaseUrl: string;
  publicBaseUrlExplicit: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  sqliteSynchronous: 'normal' | 'full';
  /** postgres:// URL of the store of record; undefined = SQLite at dbPath. Never logged (it may hold a password). */
  databaseUrl?: string;
  databasePoolSize: number;
  /** Several instances on one PostgreSQL database (docs/deployment.md); absent with SQLite. */
  cluster?: { redisUrl?: string; redisKeyPrefix: string; resyncMs: number };
  compactAfterUpdates: number;
  compactAfterBytes: number;
  journalIdleMs: number;
  bootstrapPrintKey: boolean;
  journalMemoryCapBytes: number;
  /** Stored state at or above this many bytes loads in slices, a log merged in a worker (0 = never). */
  journalSlicedLoadBytes: number;
  workers: { workers: number; baseMs: number; perKibMs: number };
  wsMaxPayloadBytes: number;
  wsMaxConnectionsPerJournal: number;
  wsMaxConnectionsPerOrg: number;
  /** Editor connections of the whole process (503 on the upgrade beyond). */
  wsMaxConnections: number;
  editorTokenTtlSeconds: number;
  /** RefusalGuard's limit (server/billing/refusal-guard.ts). */
  refusedRequestsPerMinute: number;
  /** Realtime bytes per minute and stored bytes per organization, by tier (server/billing/quotas.ts). */
  orgQuotas: Record<Tier, OrgQuota>;
  /** Trash: how long a trashed journal is kept, how often the sweep runs (server/journals/service.ts purgeTrash). */
  trash: { retentionMs: number; sweepMs: number };
  /** Quiet time before a checkpoint version (0 = no checkpoints); see docs/versions.md. */
  versionQuietMs: number;
  /** Bearer token GET /metrics requires; undefined = open (docs/deployment.md). */
  metricsToken?: string;
  /** Hex key for editor tokens, shared by every instance; undefined = a file in DATA_DIR. */
  editorTokenSecret?: string;
  /** Per-editor limits of the realtime endpoint (server/realtime/limits.ts). */
  wsEditorLimits: Omit<EditorLimits, 'awarenessProbeMs'>;
  jobs: { concurrency: number; leaseMs: number; maxAttempts: number; pollMs: number };
  /** Undefined when no LLM provider is configured (the offline engines do everything). */
  llm?: { baseUrl: string; apiKey?: string; model: string; timeoutMs: number; maxAttempts: number; retryBaseMs: number };
  webhooks: { allowPrivate: boolean; timeoutMs: number; maxAttempts: number; retryBaseMs: number; pollMs: number; concurrency: number };
  video: { b64MaxBytes: number; ffmpegThreads: number };
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.LLM_BASE_URL === undefined) !== (e.LLM_MODEL === undefined)) {
    throw new ConfigError('Invalid configuration:\n  LLM_BASE_URL and LLM_MODEL must be set together (LLM_API_KEY too, unless the provider needs no key)');
  }
  if (e.REDIS_URL !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError('Invalid configuration:\n  REDIS_URL needs DATABASE_URL: instances share journals through PostgreSQL (SQLite serves one instance)');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbPath: path.join(dataDir, 'study.db'),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    publicBaseUrlExplicit: e.PUBLIC_BASE_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    cluster: e.DATABASE_URL === undefined ? undefined : { redisUrl: e.REDIS_URL, redisKeyPrefix: e.REDIS_KEY_PREFIX, resyncMs: e.CLUSTER_RESYNC_MS },
    compactAfterUpdates: e.COMPACT_AFTER_UPDATES,
    compactAfterBytes: e.COMPACT_AFTER_BYTES,
    journalIdleMs: e.JOURNAL_IDLE_SECONDS * 1000,
    bootstrapPrintKey: e.BOOTSTRAP_PRINT_KEY,
    journalMemoryCapBytes: Math.round(e.JOURNAL_MEMORY_CAP_MB * 1024 * 1024),
    journalSlicedLoadBytes: e.JOURNAL_SLICED_LOAD_BYTES,
    workers: { workers: e.WORKER_THREADS, baseMs: e.WORKER_TIME_LIMIT_BASE_MS, perKibMs: e.WORKER_TIME_LIMIT_MS_PER_KIB },
    wsMaxPayloadBytes: e.WS_MAX_PAYLOAD_BYTES,
    wsMaxConnectionsPerJournal: e.WS_MAX_CONNECTIONS_PER_JOURNAL,
    wsMaxConnectionsPerOrg: e.WS_MAX_CONNECTIONS_PER_ORG,
    wsMaxConnections: e.WS_MAX_CONNECTIONS ?? defaultMaxConnections(),
    editorTokenTtlSeconds: e.EDITOR_TOKEN_TTL_SECONDS,
    refusedRequestsPerMinute: e.REFUSED_REQUESTS_PER_MINUTE,
    orgQuotas: quotasFrom(e.ORG_REALTIME_BYTES_PER_MINUTE, e.ORG_STORED_BYTES),
    metricsToken: e.METRICS_TOKEN,
    versionQuietMs: Math.round(e.VERSION_QUIET_SECONDS * 1000),
    trash: { retentionMs: Math.round(e.TRASH_RETENTION_DAYS * 86_400_000), sweepMs: Math.round(e.TRASH_SWEEP_SECONDS * 1000) },
    editorTokenSecret: e.EDITOR_TOKEN_SECRET,
    wsEditorLimits: {
      maxPendingBytes: e.WS_MAX_PENDING_BYTES,
      maxUpdateItems: e.WS_MAX_UPDATE_ITEMS,
      maxQueuedBytes: e.WS_MAX_QUEUED_BYTES,
      maxMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
      messageBurst: e.WS_MAX_MESSAGES_BURST,
      maxBytesPerSecond: e.WS_MAX_BYTES_PER_SECOND,
      byteBurst: e.WS_MAX_BYTES_BURST,
      maxAwarenessClients: e.WS_MAX_AWARENESS_CLIENTS,
      maxAwarenessStateBytes: e.WS_MAX_AWARENESS_STATE_BYTES,
    },
    jobs: { concurrency: e.JOB_CONCURRENCY, leaseMs: Math.round(e.JOB_LEASE_SECONDS * 1000), maxAttempts: e.JOB_MAX_ATTEMPTS, pollMs: e.JOB_POLL_MS },
    llm:
      e.LLM_BASE_URL && e.LLM_MODEL
        ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS, maxAttempts: e.LLM_MAX_ATTEMPTS, retryBaseMs: e.LLM_RETRY_BASE_MS }
        : undefined,
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      pollMs: Math.min(1000, e.WEBHOOK_RETRY_BASE_MS),
      concurrency: 4,
    },
    video: { b64MaxBytes: e.VIDEO_B64_MAX_BYTES, ffmpegThreads: e.VIDEO_FFMPEG_THREADS },
  };
}

function quotasFrom(realtime: [number, number, number] | undefined, stored: [number, number, number] | undefined): Record<Tier, OrgQuota> {
  const tiers = ['developer', 'scale', 'enterprise'] as const;
  const out = { ...ORG_QUOTAS };
  tiers.forEach((tier, i) => {
    out[tier] = { realtimeBytesPerMinute: realtime?.[i] ?? ORG_QUOTAS[tier].realtimeBytesPerMinute, storedBytes: stored?.[i] ?? ORG_QUOTAS[tier].storedBytes };
  });
  return out;
}
