/**
 * The write-ahead log is checkpointed by a worker thread once it grows (wal-checkpointer.ts), not
 * in the event loop's commits: the server's connection leaves it to the worker, nothing is lost,
 * and the log stops growing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteEngine } from '../../server/storage/sqlite-engine.ts';
import { BACKSTOP_PAGES } from '../../server/storage/wal-checkpointer.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('copies the log into the database from a worker, keeping every row', async () => {
  const file = path.join(dir, 'study.db');
  const engine = openSqliteEngine(file);
  try {
    expect(engine.db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    await engine.run('CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
    const blob = Buffer.alloc(512 * 1024, 7);
    for (let i = 0; i < 24; i++) await engine.run('INSERT INTO blobs (data) VALUES (?)', [blob]); // 12 MB
    const checkpointer = (engine as unknown as { checkpointer: { stats: { checkpoints: number; frames: number; errors: number } } }).checkpointer;
    for (let i = 0; i < 200 && checkpointer.stats.frames === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(checkpointer.stats.errors).toBe(0);
    expect(checkpointer.stats.frames).toBeGreaterThan(12 * 256); // pages of 4 KiB
    // The database file itself now holds the rows (read without the log by a fresh connection after close).
    const walBefore = fs.statSync(`${file}-wal`).size;
    for (let i = 0; i < 24; i++) await engine.run('INSERT INTO blobs (data) VALUES (?)', [blob]);
    for (let i = 0; i < 200 && checkpointer.stats.checkpoints < 2; i++) await new Promise((r) => setTimeout(r, 25));
    // Reused from its start after a complete checkpoint: the log did not double.
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(walBefore * 1.5);
    expect(await engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM blobs')).toEqual({ n: 48 });
  } finally {
    await engine.close();
  }
  const again = openSqliteEngine(file);
  expect(await again.get<{ n: number }>('SELECT COUNT(*) AS n FROM blobs')).toEqual({ n: 48 });
  await again.close();
});
