const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A short, url-safe block id: 10 base62 characters (~59 bits), from Web Crypto so the same code
 * runs in Node and in browsers. Uniqueness within a journal is checked by the caller.
 */
export function newBlockId(): string {
  let out = '';
  while (out.length < 10) {
    const b = randomByte();
    // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

// Random bytes are drawn in batches: one getRandomValues call per id cost more than the rest of
// a markdown import's per-block work.
const pool = new Uint8Array(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++]!;
}
