const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A short, url-safe block id: 10 base62 characters (~59 bits), from Web Crypto so the same code
 * runs in Node and in browsers. Uniqueness within a journal is checked by the caller.
 */
export function newBlockId(): string {
  const bytes = new Uint8Array(16);
  let out = '';
  while (out.length < 10) {
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (b < 248 && out.length < 10) out += ALPHABET[b % 62];
    }
  }
  return out;
}
