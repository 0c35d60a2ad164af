/**
 * The SSRF guard of outgoing webhooks. A target must be http(s) without credentials, and every
 * address it resolves to must be public: loopback, private, link-local, CGNAT, multicast,
 * reserved and unspecified ranges (IPv4, IPv6, and IPv4 inside IPv6) are refused unless
 * WEBHOOK_ALLOW_PRIVATE=true. The check runs twice: on the URL at create time (syntax, IP
 * literals, localhost names) and after DNS resolution at delivery time, where the connection then
 * goes to the checked address itself (no second lookup that a rebinding DNS could answer
 * differently).
 */
import net from 'node:net';
import * as z from 'zod';

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv4');
}
for (const [addr, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback (IPv4-mapped and NAT64 addresses are checked as the IPv4 inside them)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** IPv4 carried inside an IPv6 address (mapped, NAT64 well-known prefix, 6to4), if any. */
function embeddedIpv4(addr: string): string | undefined {
  const lower = addr.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const words = expandIpv6(lower);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // ::ffff:a.b.c.d written in hex, 64:ff9b::/96
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!);
  // 6to4: 2002:AABB:CCDD::/48
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

function expandIpv6(addr: string): number[] | undefined {
  if (net.isIPv6(addr) === false) return undefined;
  let a = addr;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const p = dotted[1]!.split('.').map(Number);
    a = a.slice(0, -dotted[1]!.length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  const words = [...h, ...fill, ...t].map((w) => parseInt(w || '0', 16));
  return words.length === 8 ? words : undefined;
}

/** True when `address` (an IP literal) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    if (blocked.check(ip, 'ipv6')) return true;
    const v4 = embeddedIpv4(ip);
    return v4 !== undefined && blocked.check(v4, 'ipv4');
  }
  return true; // not an IP address at all: refuse
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * `webhook_url` in a request body: an absolute http(s) URL of at most MAX_WEBHOOK_URL_LENGTH
 * characters without spaces or control characters, as the document says; the route then applies
 * checkWebhookUrl (credentials, private targets).
 */
export const webhookUrl = z
  .string()
  .max(MAX_WEBHOOK_URL_LENGTH, `webhook_url is limited to ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .refine((s) => !/[\u0000-\u0020\u007f]/.test(s), 'webhook_url must not contain spaces or control characters')
  .refine((s) => /^https?:\/\//i.test(s), 'webhook_url must be an absolute http:// or https:// URL')
  .meta({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\u0000-\\u0020\\u007f]+$',
    description: 'an absolute http:// or https:// URL without credentials; private, loopback and link-local targets are refused unless WEBHOOK_ALLOW_PRIVATE=true',
  });

/**
 * Create-time check of a webhook URL: a message saying what is wrong, or undefined when the URL
 * may be stored. Names are only resolved at delivery time.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): string | undefined {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `webhook_url is limited to ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhook_url must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'webhook_url must use http:// or https://';
  if (url.username || url.password) return 'webhook_url must not contain credentials';
  if (!url.hostname) return 'webhook_url must name a host';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIP(host)) {
    if (isPrivateAddress(host)) return `webhook_url points to a private, loopback or link-local address (${host}); such targets are refused (WEBHOOK_ALLOW_PRIVATE=true allows them)`;
    return undefined;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.')) {
    return `webhook_url host "${host}" is a local name; such targets are refused (WEBHOOK_ALLOW_PRIVATE=true allows them)`;
  }
  return undefined;
}

export class RefusedTarget extends Error {}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

// Loaded on the first delivery: a service that sends no webhooks does not load the resolver.
export const systemResolver: Resolver = async (host) => (await import('node:dns/promises')).lookup(host, { all: true, verbatim: true });

/**
 * Resolves the URL's host and checks every address; returns the address to connect to. Throws
 * RefusedTarget when any address is refused (a name with one private address among public ones
 * is refused as a whole: the attacker could choose which one we use).
 */
export async function resolveTarget(url: URL, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(host);
  const addrs = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addrs.length === 0) throw new RefusedTarget(`${host} did not resolve to any address`);
  if (!allowPrivate) {
    const bad = addrs.find((a) => isPrivateAddress(a.address));
    if (bad) throw new RefusedTarget(`${host} resolves to ${bad.address}, a private, loopback or link-local address; refused (WEBHOOK_ALLOW_PRIVATE=true allows it)`);
  }
  const first = addrs[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
