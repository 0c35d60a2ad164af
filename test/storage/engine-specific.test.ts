/**
 * What only one engine can show: SQLite's synchronous fast path, FIFO turn-taking and lock
 * errors; PostgreSQL's deadlock retries, lost connections and integer range. The shared
 * behaviour is in engine.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageUnavailableError, type StorageEngine } from '../../server/storage/engine.ts';
import { openStorageEngine } from '../../server/storage/open.ts';
import { openPostgresEngine } from '../../server/storage/postgres-engine.ts';
import { openSqliteEngine, type SqliteEngine } from '../../server/storage/sqlite-engine.ts';
import { engineCases, freshPostgres, type FreshDatabase } from '../helpers/databases.ts';

const [, postgresCase] = await engineCases();

const insertOrg = 'INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)';

describe('sqlite engine', () => {
  let dir: string;
  let engine: SqliteEngine;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-sqlite-engine-'));
    engine = openSqliteEngine(path.join(dir, 'study.db'));
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a statement synchronously when no transaction is open (its promise is already settled)', async () => {
    const id = randomUUID();
    const p = engine.run(insertOrg, [id, 'sync', 'developer', 'now']);
    expect(engine.db.prepare('SELECT name FROM organizations WHERE id = ?').get(id)).toEqual({ name: 'sync' });
    await p;
    const failing = engine.run('INSERT INTO nowhere VALUES (1)');
    await expect(failing).rejects.toThrow(/no such table/);
  });

  it('queues statements and transactions behind an open transaction, in arrival order', async () => {
    // Execution order is what rowid records; promise callbacks may run in another order.
    const tag = randomUUID();
    const add = (q: { run: SqliteEngine['run'] }, what: string) => q.run(insertOrg, [randomUUID(), `${tag}:${what}`, 'developer', 'now']);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = false;
    const first = engine.transaction(async (tx) => {
      started = true;
      await gate;
      await add(tx, 'tx1');
    });
    const a = add(engine, 'stmt a');
    const second = engine.transaction(async (tx) => void (await add(tx, 'tx2')));
    const b = add(engine, 'stmt b');
    for (let i = 0; i < 5; i++) await tick();
    expect(started).toBe(true);
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM organizations WHERE name LIKE ?').get(`${tag}:%`)).toEqual({ n: 0 });
    release();
    await Promise.all([first, a, second, b]);
    const names = (await engine.all<{ name: string }>('SELECT name FROM organizations WHERE name LIKE ? ORDER BY rowid', [`${tag}:%`])).map((r) => r.name);
    expect(names).toEqual(['tx1', 'stmt a', 'tx2', 'stmt b'].map((w) => `${tag}:${w}`));
  });

  it('runs a synchronous transaction at once when the connection is free: committed when it returns, rolled back when it throws', async () => {
    const tag = randomUUID();
    const count = () => (engine.db.prepare('SELECT COUNT(*) AS n FROM organizations WHERE name LIKE ?').get(`${tag}:%`) as { n: number }).n;
    const done = engine.transactionSync((q) => {
      q.run(insertOrg, [randomUUID(), `${tag}:one`, 'developer', 'now']);
      return q.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations WHERE name LIKE ?', [`${tag}:%`])!.n;
    });
    expect(count()).toBe(1); // committed before the promise was returned
    await expect(done).resolves.toBe(1);
    const failed = engine.transactionSync((q) => {
      q.run(insertOrg, [randomUUID(), `${tag}:two`, 'developer', 'now']);
      q.run('INSERT INTO nowhere VALUES (1)');
    });
    await expect(failed).rejects.toThrow(/no such table/);
    expect(count()).toBe(1);
    expect(engine.db.inTransaction).toBe(false);
  });

  it('queues a synchronous transaction behind an open transaction, in arrival order', async () => {
    const tag = randomUUID();
    const add = (what: string) => [randomUUID(), `${tag}:${what}`, 'developer', 'now'];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = engine.transaction(async (tx) => {
      await gate;
      await tx.run(insertOrg, add('tx'));
    });
    await tick();
    const sync = engine.transactionSync((q) => q.run(insertOrg, add('sync')).changes);
    const after = engine.run(insertOrg, add('stmt'));
    for (let i = 0; i < 5; i++) await tick();
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM organizations WHERE name LIKE ?').get(`${tag}:%`)).toEqual({ n: 0 });
    release();
    await Promise.all([first, sync, after]);
    await expect(sync).resolves.toBe(1);
    const names = (await engine.all<{ name: string }>('SELECT name FROM organizations WHERE name LIKE ? ORDER BY rowid', [`${tag}:%`])).map((r) => r.name);
    expect(names).toEqual(['tx', 'sync', 'stmt'].map((w) => `${tag}:${w}`));
  });

  it('maps a lock held by another connection to StorageUnavailableError (busy) and recovers', async () => {
    const other = new Database(path.join(dir, 'study.db'));
    const saved = engine.db.pragma('busy_timeout', { simple: true });
    engine.db.pragma('busy_timeout = 0');
    try {
      other.exec('BEGIN IMMEDIATE');
      const write = await engine.run(insertOrg, [randomUUID(), 'busy', 'developer', 'now']).catch((e) => e);
      expect(write).toBeInstanceOf(StorageUnavailableError);
      expect(write.reason).toBe('busy');
      await expect(engine.transaction(async () => 1, { immediate: true })).rejects.toBeInstanceOf(StorageUnavailableError);
      other.exec('COMMIT');
      await expect(engine.transaction(async (tx) => (await tx.run(insertOrg, [randomUUID(), 'free', 'developer', 'now'])).changes, { immediate: true })).resolves.toBe(1);
    } finally {
      engine.db.pragma(`busy_timeout = ${saved}`);
      other.close();
    }
  });
});

describe.skipIf(!!postgresCase!.skipReason)('postgres engine', () => {
  let db: FreshDatabase;
  let engine: StorageEngine;
  beforeAll(async () => {
    db = await postgresCase!.freshDatabase();
    engine = await db.open();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('re-runs a transaction that lost a deadlock; both transactions commit', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await engine.run(insertOrg, [a, 'a', 'developer', 'now']);
    await engine.run(insertOrg, [b, 'b', 'developer', 'now']);
    let holding = 0;
    let bothHold!: () => void;
    const barrier = new Promise<void>((r) => (bothHold = r));
    let runs = 0;
    const lockBoth = (first: string, second: string) =>
      engine.transaction(async (tx) => {
        runs++;
        await tx.run('UPDATE organizations SET credit_balance_micros = credit_balance_micros + 1 WHERE id = ?', [first]);
        if (++holding === 2) bothHold();
        await barrier;
        await tx.run('UPDATE organizations SET credit_balance_micros = credit_balance_micros + 1 WHERE id = ?', [second]);
      });
    await Promise.all([lockBoth(a, b), lockBoth(b, a)]);
    expect(runs).toBe(3);
    expect(await engine.all('SELECT credit_balance_micros AS c FROM organizations WHERE id IN (?, ?)', [a, b])).toEqual([{ c: 5_000_002 }, { c: 5_000_002 }]);
  });

  it('gives up after maxAttempts with StorageUnavailableError (busy)', async () => {
    const once = await db.open({ maxAttempts: 1 });
    const name = `conflict-${randomUUID()}`;
    let arrived = 0;
    let all!: () => void;
    const barrier = new Promise<void>((r) => (all = r));
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map(() =>
        once.transaction(
          async (tx) => {
            const n = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations WHERE name = ?', [name]);
            if (++arrived === 3) all();
            await barrier;
            if (n!.n === 0) await tx.run(insertOrg, [randomUUID(), name, 'developer', 'now']);
          },
          { immediate: true },
        ),
      ),
    );
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    // Write skew: at most one of them may commit its insert; the others fail without a retry.
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    expect(rejected.length).toBeGreaterThanOrEqual(2);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(StorageUnavailableError);
      expect(r.reason.reason).toBe('busy');
      expect(r.reason.cause.code).toBe('40001');
    }
  });

  it('maps a connection lost inside a transaction to StorageUnavailableError, then serves on new connections', async () => {
    const id = randomUUID();
    const failure = await engine
      .transaction(async (tx) => {
        await tx.run(insertOrg, [id, 'lost', 'developer', 'now']);
        const { pid } = (await tx.get<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!;
        // Another connection ends this one, as a server restart or a failover would.
        expect(await engine.get('SELECT 1 AS one').catch((e) => e.name)).toBe('TransactionMisuseError');
        await killBackend(db, pid);
        await tx.get('SELECT 1 AS one');
      })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect(failure.reason).toBe('unreachable');
    expect(await engine.get('SELECT COUNT(*) AS n FROM organizations WHERE id = ?', [id])).toEqual({ n: 0 });
  });

  it('maps an unreachable server to StorageUnavailableError (unreachable)', async () => {
    const failure = await openPostgresEngine({ url: 'postgres://root@127.0.0.1:1/nothing', connectionTimeoutMs: 3000 }).catch((e) => e);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect(failure.reason).toBe('unreachable');
    const lazy = await openPostgresEngine({ url: 'postgres://root@127.0.0.1:1/nothing', connectionTimeoutMs: 3000, migrate: false });
    try {
      await expect(lazy.get('SELECT 1 AS one')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(lazy.transaction(async () => 1)).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await lazy.close();
    }
  });

  it('refuses integers beyond 2^53 instead of rounding them', async () => {
    await expect(engine.get('SELECT CAST(? AS BIGINT) AS n', [2n ** 60n])).rejects.toThrow(RangeError);
    expect(await engine.get('SELECT CAST(? AS BIGINT) AS n', [2n ** 52n])).toEqual({ n: 2 ** 52 });
  });
});

async function killBackend(db: FreshDatabase, pid: number): Promise<void> {
  const killer = await db.open({ migrate: false, poolSize: 1 });
  expect(await killer.get('SELECT pg_terminate_backend(?) AS killed', [pid])).toEqual({ killed: 1 });
  await killer.close();
}

describe('openStorageEngine', () => {
  it('opens SQLite without DATABASE_URL and refuses a URL of another kind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-open-'));
    try {
      const e = await openStorageEngine({ sqliteFile: path.join(dir, 'study.db') });
      expect(e.kind).toBe('sqlite');
      expect(await e.get('SELECT COUNT(*) AS n FROM organizations')).toEqual({ n: 0 });
      await e.close();
      await expect(openStorageEngine({ databaseUrl: 'mysql://h/x', sqliteFile: path.join(dir, 'x.db') })).rejects.toThrow(/postgres/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!!postgresCase!.skipReason)('opens PostgreSQL, migrated, for a postgres:// DATABASE_URL', async () => {
    const db = await freshPostgres();
    try {
      const e = await openStorageEngine({ databaseUrl: db.url, sqliteFile: '/nonexistent/never-used.db', poolSize: 2 });
      expect(e.kind).toBe('postgres');
      expect(await e.get('SELECT COUNT(*) AS n FROM organizations')).toEqual({ n: 0 });
      await e.close();
    } finally {
      await db.drop();
    }
  });
});
