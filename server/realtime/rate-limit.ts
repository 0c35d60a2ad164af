/**
 * Token buckets for one connection's incoming messages: `ratePerSecond` tokens flow in, up to
 * `capacity`; every message takes one token from the message bucket and its size from the byte
 * bucket. A rate of 0 means no limit. Time is monotonic (performance.now), never the wall clock.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerSecond: number,
    readonly capacity: number,
    now: number = performance.now(),
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Takes `n` tokens if there are that many; false (nothing taken) otherwise. */
  take(n: number, now: number = performance.now()): boolean {
    if (this.ratePerSecond <= 0) return true;
    if (now > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
      this.last = now;
    }
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** The two buckets of one connection; `admit` says which limit a message would break, if any. */
export class MessageRateLimiter {
  private readonly messages: TokenBucket;
  private readonly bytes: TokenBucket;

  constructor(limits: { maxMessagesPerSecond: number; messageBurst: number; maxBytesPerSecond: number; byteBurst: number }, now = performance.now()) {
    this.messages = new TokenBucket(limits.maxMessagesPerSecond, Math.max(1, limits.messageBurst), now);
    this.bytes = new TokenBucket(limits.maxBytesPerSecond, Math.max(1, limits.byteBurst), now);
  }

  admit(byteLength: number, now = performance.now()): 'ok' | 'messages' | 'bytes' {
    if (!this.messages.take(1, now)) return 'messages';
    if (!this.bytes.take(byteLength, now)) return 'bytes';
    return 'ok';
  }
}
