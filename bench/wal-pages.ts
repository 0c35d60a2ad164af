/**
 * Pages written per transaction, read from a SQLite write-ahead log (docs/performance.md): each
 * frame of the log is one page a COMMIT wrote (two `pwrite` calls), and the frame that ends a
 * transaction carries the database size. Usage, while a bench runs (the closed loop's file is
 * /tmp/study-bench-hp-loop-<random>/study.db): `npx tsx bench/wal-pages.ts <file.db> [frames]`
 * reads the last `frames` frames (default 8,000) of the log's current generation and prints
 * frames per transaction, their size histogram, and frames by table or index (named by the
 * database's `dbstat` as it is now: a page freed and reused since is named by its new owner).
 */
import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/wal-pages.ts <file.db> [frames]');
const want = Number(process.argv[3] ?? 8000);
const wal = fs.readFileSync(`${file}-wal`);
const pageSize = wal.readUInt32BE(8);
const salt = wal.readUInt32BE(16);
const frameSize = 24 + pageSize;
const total = Math.floor((wal.length - 32) / frameSize);
// Frames of the current generation only (a restarted log keeps older frames past its new end).
const frames: { page: number; commit: boolean }[] = [];
for (let i = 0; i < total; i++) {
  const at = 32 + i * frameSize;
  if (wal.readUInt32BE(at + 8) !== salt) break;
  frames.push({ page: wal.readUInt32BE(at), commit: wal.readUInt32BE(at + 4) !== 0 });
}
const recent = frames.slice(-want);
// Start at a transaction's first frame.
const first = recent.findIndex((f) => f.commit) + 1;
const counted = recent.slice(first);
const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
const owner = new Map((db.prepare('SELECT pageno, name FROM dbstat').all() as { pageno: number; name: string }[]).map((r) => [r.pageno, r.name]));
db.close();
const byOwner = new Map<string, number>();
const sizes = new Map<number, number>();
let transactions = 0;
let inTransaction = 0;
for (const f of counted) {
  const name = owner.get(f.page) ?? '(free or new)';
  byOwner.set(name, (byOwner.get(name) ?? 0) + 1);
  inTransaction++;
  if (f.commit) {
    transactions++;
    sizes.set(inTransaction, (sizes.get(inTransaction) ?? 0) + 1);
    inTransaction = 0;
  }
}
console.log(`${file}-wal: page size ${pageSize}, ${frames.length} frames in the current generation; the last ${counted.length} in ${transactions} transactions`);
console.log(`frames per transaction: ${(counted.length / Math.max(transactions, 1)).toFixed(1)}`);
console.log(`transactions by frames: ${[...sizes].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([n, c]) => `${n}: ${c}`).join(', ')}`);
for (const [name, n] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`  ${(n / Math.max(transactions, 1)).toFixed(2).padStart(6)} per transaction  ${name}`);
