/**
 * Time source of the billing domain. Rate-limit windows are computed from it, so tests move
 * across minute and day boundaries by setting a clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests and benchmarks. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2030, 0, 1, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  set(ms: number | Date): void {
    this.ms = typeof ms === 'number' ? ms : ms.getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
