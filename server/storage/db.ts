/**
 * The SQLite database: WAL mode so readers (the admin command line, a second process) never block
 * the server, a busy timeout so concurrent writers wait instead of failing, and versioned migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations.ts';

export type DB = Database.Database;

export function openDatabase(file: string, opts: { synchronous?: 'normal' | 'full' } = {}): DB {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: DB): void {
  // BEGIN IMMEDIATE: two processes starting at once must not both apply the same migration.
  const apply = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    for (let v = current; v < migrations.length; v++) {
      db.exec(migrations[v]!.sql);
      db.pragma(`user_version = ${v + 1}`);
    }
  });
  apply.immediate();
}
