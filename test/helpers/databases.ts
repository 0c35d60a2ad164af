/**
 * Databases for tests: a fresh SQLite file, or a fresh PostgreSQL database on the server named by
 * TEST_DATABASE_URL, and `engineCases()` to run one suite against both engines (describe.each).
 *
 * PostgreSQL: TEST_DATABASE_URL=postgres://127.0.0.1:5432/test (any database of a server where
 * the user may CREATE DATABASE). Unset, the default URL is tried; when nothing answers there the
 * PostgreSQL suites are skipped with a message. Set but unusable, they fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EngineKind, StorageEngine } from '../../server/storage/engine.ts';
import { openPostgresEngine, type PostgresEngineOptions } from '../../server/storage/postgres-engine.ts';
import { openSqliteEngine } from '../../server/storage/sqlite-engine.ts';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://127.0.0.1:5432/test';
export const POSTGRES_HINT = `start PostgreSQL and set TEST_DATABASE_URL=${DEFAULT_TEST_DATABASE_URL} (a server where this user may CREATE DATABASE)`;

export interface PostgresAvailability {
  /** The server's admin URL when PostgreSQL suites can run. */
  url?: string;
  skipReason?: string;
}

let availability: Promise<PostgresAvailability> | undefined;

/**
 * node-postgres takes the user from the URL, else PGUSER, else USER, which some environments
 * leave unset; psql falls back to the OS account, and so do we (trust auth: user root).
 */
function withDefaultUser(url: string): string {
  const u = new URL(url);
  if (!u.username && !process.env.PGUSER && !process.env.USER) u.username = os.userInfo().username;
  return u.toString();
}

/** Whether PostgreSQL suites run (probed once per test process). */
export function postgresAvailability(): Promise<PostgresAvailability> {
  availability ??= (async () => {
    const explicit = process.env.TEST_DATABASE_URL?.trim();
    const url = withDefaultUser(explicit || DEFAULT_TEST_DATABASE_URL);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return { url };
    } catch (e) {
      const why = (e as Error).message || String((e as { code?: unknown }).code ?? e);
      if (explicit) throw new Error(`TEST_DATABASE_URL=${explicit} is set, but PostgreSQL cannot be used there: ${why}`);
      const skipReason = `PostgreSQL suites skipped: nothing usable at ${url} (${why}). To run them, ${POSTGRES_HINT}.`;
      console.warn(skipReason);
      return { skipReason };
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return availability;
}

async function withAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface FreshPostgres {
  url: string;
  name: string;
  /** Drops the database, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

/** A new, uniquely named, empty database on the TEST_DATABASE_URL server. */
export async function freshPostgres(): Promise<FreshPostgres> {
  const { url: adminUrl, skipReason } = await postgresAvailability();
  if (!adminUrl) throw new Error(skipReason);
  const name = `study_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE "${name}"`);
        return;
      } catch (e) {
        // 55006: someone else is connected to the template database right now.
        if ((e as { code?: string }).code !== '55006' || attempt >= 10) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  });
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    drop: () => withAdmin(adminUrl, async (c) => void (await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

/** A new empty database of one engine; every engine opened on it is closed by drop(). */
export interface FreshDatabase {
  /** Opens an engine on this database (applying pending migrations), as a starting instance would. */
  open(opts?: Partial<PostgresEngineOptions>): Promise<StorageEngine>;
  drop(): Promise<void>;
}

export interface EngineCase {
  kind: EngineKind;
  /** Names the case in describe.each titles ('$title'). */
  title: string;
  /** Set when this engine's suites cannot run here (PostgreSQL not available). */
  skipReason?: string;
  freshDatabase(): Promise<FreshDatabase>;
}

function sqliteCase(): EngineCase {
  return {
    kind: 'sqlite',
    title: 'sqlite',
    async freshDatabase() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-storage-'));
      const file = path.join(dir, 'study.db');
      const opened: StorageEngine[] = [];
      return {
        async open() {
          const e = openSqliteEngine(file);
          opened.push(e);
          return e;
        },
        async drop() {
          await Promise.all(opened.map((e) => e.close()));
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

function postgresCase(skipReason: string | undefined): EngineCase {
  return {
    kind: 'postgres',
    title: skipReason ? `postgres (skipped: ${POSTGRES_HINT})` : 'postgres',
    skipReason,
    async freshDatabase() {
      const db = await freshPostgres();
      const opened: StorageEngine[] = [];
      return {
        async open(opts = {}) {
          const e = await openPostgresEngine({ poolSize: 5, ...opts, url: db.url });
          opened.push(e);
          return e;
        },
        async drop() {
          await Promise.all(opened.map((e) => e.close()));
          await db.drop();
        },
      };
    },
  };
}

/**
 * Both engines, for `describe.each(await engineCases())('$title engine', (c) => ...)`; wrap the
 * body in `describe.skipIf(!!c.skipReason)`. The PostgreSQL case is marked skipped (with the way
 * to enable it) when no server is available.
 */
export async function engineCases(): Promise<EngineCase[]> {
  const { skipReason } = await postgresAvailability();
  return [sqliteCase(), postgresCase(skipReason)];
}

/**
 * The tables and columns of an engine's schema as the engine's own catalog tells them, with each
 * column's type family and whether it may hold NULL. SQLite: sqlite_schema and pragma_table_info
 * (the implicit rowid of FTS tables included, FTS shadow tables left out); PostgreSQL:
 * information_schema.columns of the current schema (schema_migrations left out).
 */
export interface ColumnInfo {
  table: string;
  column: string;
  type: 'integer' | 'text' | 'blob' | 'real' | 'other';
  nullable: boolean;
}

export async function schemaColumns(engine: StorageEngine): Promise<ColumnInfo[]> {
  if (engine.kind === 'sqlite') {
    const tables = await engine.all<{ name: string; type: string }>(
      `SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`,
    );
    const out: ColumnInfo[] = [];
    for (const t of tables) {
      if (t.type === 'virtual') out.push({ table: t.name, column: 'rowid', type: 'integer', nullable: false });
      const cols = await engine.all<{ name: string; type: string; notnull: number; pk: number }>(
        'SELECT name, type, "notnull" AS "notnull", pk FROM pragma_table_info(?) ORDER BY cid',
        [t.name],
      );
      for (const c of cols) {
        out.push({ table: t.name, column: c.name, type: sqliteFamily(c.type, t.type), nullable: c.notnull === 0 && c.pk === 0 });
      }
    }
    return out;
  }
  const rows = await engine.all<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
      ORDER BY table_name, ordinal_position`,
  );
  return rows.map((r) => ({ table: r.table_name, column: r.column_name, type: postgresFamily(r.data_type), nullable: r.is_nullable === 'YES' }));
}

function sqliteFamily(declared: string, tableType: string): ColumnInfo['type'] {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('TEXT') || (t === '' && tableType === 'virtual')) return 'text';
  if (t.includes('BLOB')) return 'blob';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  return 'other';
}

function postgresFamily(dataType: string): ColumnInfo['type'] {
  switch (dataType) {
    case 'bigint':
      return 'integer';
    case 'text':
      return 'text';
    case 'bytea':
      return 'blob';
    case 'double precision':
      return 'real';
    default:
      return 'other';
  }
}

/** Index and trigger names (automatic ones of primary keys and UNIQUE constraints left out). */
export async function schemaObjects(engine: StorageEngine): Promise<{ indexes: string[]; triggers: string[] }> {
  if (engine.kind === 'sqlite') {
    const rows = await engine.all<{ type: string; name: string }>(
      `SELECT type, name FROM sqlite_schema WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name`,
    );
    return { indexes: rows.filter((r) => r.type === 'index').map((r) => r.name), triggers: rows.filter((r) => r.type === 'trigger').map((r) => r.name) };
  }
  const indexes = await engine.all<{ name: string }>(
    `SELECT i.indexname AS name FROM pg_indexes i
      WHERE i.schemaname = current_schema()
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype IN ('p', 'u'))
      ORDER BY i.indexname`,
  );
  const triggers = await engine.all<{ name: string }>(
    `SELECT DISTINCT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = current_schema() ORDER BY trigger_name`,
  );
  return { indexes: indexes.map((r) => r.name), triggers: triggers.map((r) => r.name) };
}

/** The recorded schema version: PRAGMA user_version / the highest schema_migrations version. */
export async function schemaVersion(engine: StorageEngine): Promise<{ version: number; records: number }> {
  if (engine.kind === 'sqlite') {
    const r = await engine.get<{ user_version: number }>('PRAGMA user_version');
    return { version: r!.user_version, records: r!.user_version };
  }
  const r = await engine.get<{ version: number; records: number }>('SELECT MAX(version) AS version, COUNT(*) AS records FROM schema_migrations');
  return r!;
}
