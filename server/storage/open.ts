/**
 * Opens the store of record the configuration names. Apart from engine.ts (the interface), which
 * the engines import, so that the interface never imports an engine.
 */
import type { StorageEngine } from './engine.ts';

export interface OpenStorageOptions {
  /** postgres:// or postgresql:// selects PostgreSQL; unset (or empty) selects SQLite. */
  databaseUrl?: string;
  /** The SQLite database file (DATA_DIR/study.db). */
  sqliteFile: string;
  sqliteSynchronous?: 'normal' | 'full';
  /** PostgreSQL connections (default 10). */
  poolSize?: number;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

/** Opens the engine the configuration names, with its migrations applied. */
export async function openStorageEngine(opts: OpenStorageOptions): Promise<StorageEngine> {
  if (isPostgresUrl(opts.databaseUrl)) {
    const { openPostgresEngine } = await import('./postgres-engine.ts');
    return openPostgresEngine({ url: opts.databaseUrl, poolSize: opts.poolSize });
  }
  if (opts.databaseUrl) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  const { openSqliteEngine } = await import('./sqlite-engine.ts');
  return openSqliteEngine(opts.sqliteFile, { synchronous: opts.sqliteSynchronous });
}
