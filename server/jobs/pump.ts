/**
 * The lifecycle shared by the job worker and the webhook outbox: `fill` runs when kicked
 * (coalesced into one setImmediate) and every `pollMs` (for retries that came due, leases that
 * expired, and work queued by other instances), from start until stop; stop aborts the running
 * tasks and waits for them. `fill` is async (it claims from the store): one runs at a time, and a
 * kick that arrives meanwhile runs it once more afterwards.
 */
export class Pump {
  /** Tasks running now, by id, each with the controller that stops it. */
  readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private kickPending = false;
  private started = false;
  private stopping = false;
  private filling: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly fill: () => Promise<void>,
    private readonly pollMs: number,
  ) {}

  get running(): boolean {
    return this.started && !this.stopping;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.run(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (!this.running || this.kickPending) return;
    this.kickPending = true;
    setImmediate(() => {
      this.kickPending = false;
      this.run();
    });
  }

  /** Stops filling, aborts every running task with `reason` and waits until each has ended. */
  async stop(reason: Error): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    // A claim in flight ends first: what it took is then running (and aborted below) or put back.
    await this.filling;
    const running = [...this.active.values()];
    for (const r of running) r.controller.abort(reason);
    await Promise.allSettled(running.map((r) => r.done));
  }

  private run(): void {
    if (!this.running) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = (async () => {
      try {
        do {
          this.again = false;
          await this.fill();
        } while (this.again && this.running);
      } catch {
        // fill reports its own errors; the next poll tries again
      } finally {
        this.filling = undefined;
      }
    })();
  }
}
