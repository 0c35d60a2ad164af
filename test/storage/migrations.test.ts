/**
 * One migration list per engine, same names: the PostgreSQL schema must be the SQLite schema
 * translated (same tables, columns, type families, nullability, index and trigger names), and
 * instances starting at once on a fresh database apply each migration once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { migrations } from '../../server/storage/migrations.ts';
import { migratePostgres, type PostgresEngine } from '../../server/storage/postgres-engine.ts';
import { postgresMigrations } from '../../server/storage/postgres-migrations.ts';
import { engineCases, schemaColumns, schemaObjects, schemaVersion, type EngineCase, type FreshDatabase } from '../helpers/databases.ts';

const cases = await engineCases();
const [sqliteCase, postgresCase] = cases as [EngineCase, EngineCase];

/** Columns PostgreSQL has and SQLite has not: the tsvector that stands in for the FTS5 index. */
const POSTGRES_ONLY_COLUMNS = ['journal_search.document'];
const POSTGRES_ONLY_INDEXES = ['journal_search_document'];

it('has a PostgreSQL migration for every SQLite migration, with distinct names', () => {
  expect(postgresMigrations).toHaveLength(migrations.length);
  expect(postgresMigrations.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
  expect(new Set(postgresMigrations.map((m) => m.name)).size).toBe(postgresMigrations.length);
});

describe.each(cases)('$title engine migrations', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    const dropLater: FreshDatabase[] = [];
    afterAll(async () => {
      await Promise.all(dropLater.map((d) => d.drop()));
    });

    it('instances opening a fresh database at once apply each migration once', async () => {
      const db = await c.freshDatabase();
      dropLater.push(db);
      const engines = await Promise.all([db.open(), db.open(), db.open()]);
      for (const e of engines) expect(await schemaVersion(e)).toEqual({ version: migrations.length, records: migrations.length });
      // A restart finds nothing to do.
      const again = await db.open();
      expect(await schemaVersion(again)).toEqual({ version: migrations.length, records: migrations.length });
    });

    it('the search trigger forgets a deleted journal (portable SQL against the FTS stand-in)', async () => {
      const db = await c.freshDatabase();
      dropLater.push(db);
      const e = await db.open();
      const orgId = randomUUID();
      const keyId = randomUUID();
      await e.run("INSERT INTO organizations (id, name, tier, created_at) VALUES (?, 'o', 'developer', 'now')", [orgId]);
      await e.run("INSERT INTO api_keys (id, org_id, key_hash, prefix, created_at) VALUES (?, ?, ?, 'sk_', 'now')", [keyId, orgId, randomUUID()]);
      const { seq } = (await e.get<{ seq: number }>(
        "INSERT INTO journals (id, key_id, org_id, title, created_at, updated_at) VALUES (?, ?, ?, 'T', 'now', 'now') RETURNING seq",
        [randomUUID(), keyId, orgId],
      ))!;
      await e.run('INSERT INTO journal_search (rowid, title, body) VALUES (?, ?, ?)', [seq, 'Photosynthesis', 'chlorophyll and light']);
      await e.run('INSERT INTO journal_search_state (journal_seq, revision) VALUES (?, ?)', [seq, 1]);
      expect(await e.get('SELECT title, body FROM journal_search WHERE rowid = ?', [seq])).toEqual({ title: 'Photosynthesis', body: 'chlorophyll and light' });
      await e.run('DELETE FROM journals WHERE seq = ?', [seq]);
      expect(await e.get('SELECT COUNT(*) AS n FROM journal_search WHERE rowid = ?', [seq])).toEqual({ n: 0 });
      expect(await e.get('SELECT COUNT(*) AS n FROM journal_search_state WHERE journal_seq = ?', [seq])).toEqual({ n: 0 });
    });
  });
});

describe.skipIf(!!postgresCase.skipReason)('postgres migration runner', () => {
  it('applies every migration exactly once across runners racing on a fresh database', async () => {
    const db = await postgresCase.freshDatabase();
    try {
      const engines = (await Promise.all([1, 2, 3, 4].map(() => db.open({ migrate: false })))) as PostgresEngine[];
      const applied = await Promise.all(engines.map((e) => migratePostgres(e.pool)));
      expect(applied.reduce((a, b) => a + b, 0)).toBe(postgresMigrations.length);
      const rows = await engines[0]!.all('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows).toEqual(postgresMigrations.map((m, i) => ({ version: i + 1, name: m.name })));
      expect(await migratePostgres(engines[1]!.pool)).toBe(0);
    } finally {
      await db.drop();
    }
  });
});

describe.skipIf(!!postgresCase.skipReason)('schema parity', () => {
  let sqlite: FreshDatabase;
  let postgres: FreshDatabase;
  let s: StorageEngine;
  let p: StorageEngine;
  afterAll(async () => {
    await sqlite?.drop();
    await postgres?.drop();
  });

  it('every SQLite table exists on PostgreSQL with the same columns, type families and nullability', async () => {
    sqlite = await sqliteCase.freshDatabase();
    postgres = await postgresCase.freshDatabase();
    [s, p] = await Promise.all([sqlite.open(), postgres.open()]);
    const describeColumns = (cols: Awaited<ReturnType<typeof schemaColumns>>) =>
      cols.map((col) => `${col.table}.${col.column} ${col.type}${col.nullable ? ' null' : ' not null'}`).sort();
    const sqliteColumns = await schemaColumns(s);
    const postgresColumns = (await schemaColumns(p)).filter((col) => !POSTGRES_ONLY_COLUMNS.includes(`${col.table}.${col.column}`));
    expect(new Set(sqliteColumns.map((col) => col.table)).size).toBeGreaterThanOrEqual(18);
    expect(sqliteColumns.filter((col) => col.type === 'other')).toEqual([]);
    expect(describeColumns(postgresColumns)).toEqual(describeColumns(sqliteColumns));
    expect((await schemaColumns(p)).filter((col) => col.table === 'journal_search').map((col) => col.column)).toEqual(['rowid', 'title', 'body', 'document']);
  });

  it('has the same index and trigger names', async () => {
    const so = await schemaObjects(s);
    const po = await schemaObjects(p);
    expect(po.indexes.filter((n) => !POSTGRES_ONLY_INDEXES.includes(n))).toEqual(so.indexes);
    expect(po.triggers).toEqual(so.triggers);
    expect(so.indexes.length).toBeGreaterThan(5);
    expect(so.triggers).toEqual(['journal_search_forget']);
  });
});
