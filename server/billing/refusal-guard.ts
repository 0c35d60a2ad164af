/**
 * The flood guard behind "quotas are spent only on work": requests refused before doing anything
 * (402, 405, 413, 415, 422) give their rate-limit slot back, so without a guard a client could
 * send bad requests without end. Each API key may have at most `perMinute` such refusals per
 * minute window; past that every request of the key is answered 429 until the window ends.
 * Counted in this process's memory (per instance; a cluster of N instances allows up to N times
 * as many), forgotten each new minute.
 */
export class RefusalGuard {
  private window = -1;
  private readonly refused = new Map<string, number>();

  constructor(readonly perMinute: number) {}

  private roll(nowMs: number): void {
    const window = Math.floor(nowMs / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.refused.clear();
    }
  }

  /** Seconds until the key may send again, or 0 when it is under the guard's limit. */
  blockedFor(keyId: string, nowMs: number): number {
    this.roll(nowMs);
    if ((this.refused.get(keyId) ?? 0) < this.perMinute) return 0;
    return Math.max(1, Math.ceil(((this.window + 1) * 60_000 - nowMs) / 1000));
  }

  note(keyId: string, nowMs: number): void {
    this.roll(nowMs);
    this.refused.set(keyId, (this.refused.get(keyId) ?? 0) + 1);
  }
}
