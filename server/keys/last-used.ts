/**
 * `last_used_at` of API keys without a write per request: authentication notes the key in memory
 * (one Map.set), and the keys used since the last flush are written once a second (and at close)
 * in one transaction. A write never moves a key's time backwards, so instances flushing in any
 * order agree. A crash forgets at most the last second of use.
 */
import type { StorageEngine } from '../storage/engine.ts';
import { Serial } from '../billing/serial.ts';

export const LAST_USED_FLUSH_MS = 1_000;

const TOUCH = 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)';

export class LastUsedRecorder {
  /** keyId -> epoch ms of its latest request not yet written. */
  private pending = new Map<string, number>();
  private readonly flushes = new Serial();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly engine: StorageEngine,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  /** Notes a request of `keyId` (the hot path: no I/O). */
  note(keyId: string): void {
    this.pending.set(keyId, this.now());
  }

  /** Writes what was noted; on failure it stays noted for the next round. */
  flush(): Promise<void> {
    return this.flushes.run(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      this.pending = new Map();
      try {
        // Immediate: see SpendLog.flush (a write that starts as a read is refused when another process wrote).
        await this.engine.transaction(
          async (tx) => {
            for (const [keyId, ms] of batch) {
              // Whole seconds: the time is a coarse "last used", and equal strings skip the write.
              const at = new Date(ms - (ms % 1000)).toISOString();
              await tx.run(TOUCH, [at, keyId, at]);
            }
          },
          { immediate: true },
        );
      } catch (e) {
        for (const [keyId, ms] of batch) if ((this.pending.get(keyId) ?? 0) < ms) this.pending.set(keyId, ms);
        throw e;
      }
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
