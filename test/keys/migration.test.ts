/**
 * The key-roles migration on a database that already has keys (both engines): every existing key
 * becomes an admin, so that no organization loses key management; keys made afterwards are members
 * unless asked otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createApiKey, resolveApiKey } from '../../server/auth/keys.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { migrations } from '../../server/storage/migrations.ts';
import { openPostgresEngine } from '../../server/storage/postgres-engine.ts';
import { postgresMigrations } from '../../server/storage/postgres-migrations.ts';
import { openSqliteEngine } from '../../server/storage/sqlite-engine.ts';
import { freshPostgres, postgresAvailability } from '../helpers/databases.ts';

const postgres = await postgresAvailability();
const ROLES_MIGRATION = migrations.findIndex((m) => m.name === 'key-roles-and-daily-spend');
const ORG = "INSERT INTO organizations (id, name, tier, created_at) VALUES ('o1', 'Old org', 'developer', '2029-01-01T00:00:00.000Z')";
const KEY = (id: string, hash: string) =>
  `INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES ('${id}', 'o1', 'old', '${hash}', 'sk_study_old', '2029-01-01T00:00:00.000Z')`;

async function checkMigrated(engine: StorageEngine): Promise<void> {
  const rows = await engine.all<{ id: string; role: string; last_used_at: string | null }>('SELECT id, role, last_used_at FROM api_keys ORDER BY id');
  expect(rows).toEqual([
    { id: 'k1', role: 'admin', last_used_at: null },
    { id: 'k2', role: 'admin', last_used_at: null },
  ]);
  const made = await createApiKey(engine, 'o1', 'new');
  expect(made.role).toBe('member');
  expect((await resolveApiKey(engine, made.api_key))!.role).toBe('member');
  await expect(engine.run("UPDATE api_keys SET role = 'owner' WHERE id = 'k1'")).rejects.toThrow();
}

describe('key roles migration', () => {
  it('sqlite: keys that existed become admins', async () => {
    expect(ROLES_MIGRATION).toBeGreaterThan(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-roles-'));
    const file = path.join(dir, 'study.db');
    const db = new Database(file);
    for (const m of migrations.slice(0, ROLES_MIGRATION)) db.exec(m.sql);
    db.pragma(`user_version = ${ROLES_MIGRATION}`);
    db.exec(ORG);
    db.exec(KEY('k1', 'h1'));
    db.exec(KEY('k2', 'h2'));
    db.close();
    const engine = openSqliteEngine(file);
    try {
      await checkMigrated(engine);
    } finally {
      await engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgres.url)('postgres: keys that existed become admins', async () => {
    const fresh = await freshPostgres();
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    let engine: StorageEngine | undefined;
    try {
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const [i, m] of postgresMigrations.slice(0, ROLES_MIGRATION).entries()) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [i + 1, m.name, new Date().toISOString()]);
      }
      await client.query(ORG);
      await client.query(KEY('k1', 'h1'));
      await client.query(KEY('k2', 'h2'));
      await client.end();
      engine = await openPostgresEngine({ url: fresh.url, poolSize: 2 });
      await checkMigrated(engine);
    } finally {
      await client.end().catch(() => {});
      await engine?.close();
      await fresh.drop();
    }
  });
});
