/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the signed content is
 * `${id}.${timestamp}.${body}`, the key is the base64 part of the `whsec_` secret, the signature
 * is `v1,` + base64(HMAC-SHA256). Several signatures are separated by spaces (used while a
 * rotated secret is still honoured).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(b64, 'base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Receiver side, as documented in docs/webhooks.md: true when one of the signatures matches. */
export function verify(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return header.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
