/**
 * Checkpoints SQLite's write-ahead log off the event loop. SQLite's automatic checkpoint runs in
 * the commit that crosses its threshold, on the committing thread: with better-sqlite3 that is the
 * event loop, which then stalls for the copy (30-80 ms after a 1 MB import on this project's CI
 * machine). The server's connection moves that backstop far out and this worker thread, with a
 * connection of its own, runs PASSIVE checkpoints (they never block the writer or readers) once
 * the log passes a size. Started on first need: an idle service has no extra thread.
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (m) => {
  if (m === 'close') {
    // Its locks go with the connection: a thread ended with the database open would keep them.
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ frames: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

/** Pages (of 4 KiB) the server's own connection lets the log reach before it checkpoints itself. */
export const BACKSTOP_PAGES = 100_000;

export class WalCheckpointer {
  private worker?: Worker;
  private running = false;
  private readonly timer: NodeJS.Timeout;
  /** Checkpoints run and pages copied, for tests and the bench. */
  readonly stats = { checkpoints: 0, frames: 0, errors: 0 };

  constructor(
    private readonly file: string,
    private readonly thresholdBytes = 4 << 20,
    intervalMs = 500,
  ) {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    const size = await stat(`${this.file}-wal`).then((s) => s.size, () => 0);
    if (size >= this.thresholdBytes) await this.checkpoint();
  }

  /** One PASSIVE checkpoint in the worker; resolves with the pages copied (0 when it failed). */
  async checkpoint(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const worker = (this.worker ??= this.start());
      const reply = await new Promise<{ frames?: number; error?: string }>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(null);
      });
      if (reply.error !== undefined) {
        this.stats.errors++;
        return 0;
      }
      this.stats.checkpoints++;
      this.stats.frames += reply.frames ?? 0;
      return reply.frames ?? 0;
    } finally {
      this.running = false;
    }
  }

  private start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, file: this.file } });
    worker.unref();
    // A worker that died (e.g. the file was removed) is started again on the next need.
    worker.on('error', () => {
      this.stats.errors++;
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
