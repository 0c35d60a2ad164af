/**
 * Configuration from environment variables, validated once at start. Every variable is documented
 * in the README; an invalid value stops the process with a message naming the variable.
 */
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SQLITE_SYNCHRONOUS: z.enum(['normal', 'full']).default('normal'),
  /** Compact a journal's update log into its snapshot past this many updates or bytes. */
  COMPACT_AFTER_UPDATES: z.coerce.number().int().min(1).default(500),
  COMPACT_AFTER_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Seconds a journal with no editors and no REST use stays in memory. */
  JOURNAL_IDLE_SECONDS: z.coerce.number().min(0).default(30),
  /** Print the bootstrap key on first start (set false for unattended deployments). */
  BOOTSTRAP_PRINT_KEY: bool.default(true),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  publicBaseUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  sqliteSynchronous: 'normal' | 'full';
  compactAfterUpdates: number;
  compactAfterBytes: number;
  journalIdleMs: number;
  bootstrapPrintKey: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbPath: path.join(dataDir, 'study.db'),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    compactAfterUpdates: e.COMPACT_AFTER_UPDATES,
    compactAfterBytes: e.COMPACT_AFTER_BYTES,
    journalIdleMs: e.JOURNAL_IDLE_SECONDS * 1000,
    bootstrapPrintKey: e.BOOTSTRAP_PRINT_KEY,
  };
}
