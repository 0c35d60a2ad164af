/**
 * The SSRF guard: private, loopback and link-local targets are refused at create time (IP
 * literals, local names) and at delivery time after DNS resolution (names resolving to them);
 * the connection goes to the checked address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPrivateAddress, RefusedTarget, resolveTarget } from '../../server/webhooks/ssrf.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { CREATE, createSet, until, waitForSet } from '../practice-api/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

describe('address classification', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '10.255.1.2', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:a00:1::1', 'not-an-ip',
  ])('%s is refused', (a) => expect(isPrivateAddress(a)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('%s is public', (a) =>
    expect(isPrivateAddress(a)).toBe(false),
  );

  it('URL checks at create time', () => {
    for (const u of ['http://127.0.0.1/x', 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/', 'http://localhost:3000/', 'http://api.localhost/', 'http://intranet/hook', 'http://[::ffff:127.0.0.1]/']) {
      expect(checkWebhookUrl(u, false), u).toBeDefined();
      expect(checkWebhookUrl(u, true), u).toBeUndefined();
    }
    for (const u of ['ftp://example.com/x', 'not a url', 'http://user:pw@example.com/', 'file:///etc/passwd']) expect(checkWebhookUrl(u, true), u).toBeDefined();
    expect(checkWebhookUrl('https://hooks.example.com/x?y=1', false)).toBeUndefined();
    expect(checkWebhookUrl('http://8.8.8.8/x', false)).toBeUndefined();
  });

  it('after resolution every address is checked; one private address refuses the name', async () => {
    const resolver = (map: Record<string, string[]>) => async (h: string) => (map[h] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const r = resolver({ 'a.example.com': ['93.184.216.34'], 'b.example.com': ['93.184.216.34', '10.0.0.7'], 'c.example.com': ['::1'], 'd.example.com': [] });
    await expect(resolveTarget(new URL('http://a.example.com/'), false, r)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveTarget(new URL('http://b.example.com/'), false, r)).rejects.toThrow(/10\.0\.0\.7/);
    await expect(resolveTarget(new URL('http://c.example.com/'), false, r)).rejects.toBeInstanceOf(RefusedTarget);
    await expect(resolveTarget(new URL('http://d.example.com/'), false, r)).rejects.toThrow(/did not resolve/);
    await expect(resolveTarget(new URL('http://c.example.com/'), true, r)).resolves.toEqual({ address: '::1', family: 6 });
  });
});

describe('through the service', () => {
  let guarded: TestServer;
  let open: TestServer;
  let rx: Receiver;
  let client: Client;
  /** Test DNS: names under example.test resolve to loopback. */
  const loopbackDns = async (host: string) => (host.endsWith('.example.test') ? [{ address: '127.0.0.1', family: 4 }] : []);

  beforeAll(async () => {
    guarded = await startTestServer({ env: { WEBHOOK_RETRY_BASE_MS: '20' } });
    open = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '20' } });
    guarded.svc.ctx.webhooks.resolver = loopbackDns;
    open.svc.ctx.webhooks.resolver = loopbackDns;
    rx = await startReceiver();
    client = await guarded.newClient();
  });
  afterAll(async () => {
    await guarded.close();
    await open.close();
    await rx.close();
  });

  it('create refuses private, loopback and link-local targets with 422', async () => {
    for (const url of [`${rx.url}/x`, 'http://10.0.0.5/hook', 'http://169.254.169.254/latest', `http://[::1]:${rx.port}/`, `http://localhost:${rx.port}/`]) {
      const r = await client.post(CREATE, { set_description: 'fractions', webhook_url: url });
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'webhook_url'], type: 'url_refused' });
      expect(r.body.detail[0].msg).toMatch(/refused/);
    }
  });

  it('a name that resolves to loopback is refused at delivery time; nothing reaches the address', async () => {
    const id = await createSet(client, { set_description: 'fractions', count: 1, webhook_url: `http://hooks.example.test:${rx.port}/x` });
    await waitForSet(client, id);
    const row = await until(
      async () => (await guarded.svc.ctx.engine.get<any>("SELECT * FROM webhook_outbox WHERE body LIKE ? AND state = 'failed'", [`%${id}%`])) ?? false,
      'the refused delivery',
    );
    expect(row.last_error).toMatch(/resolves to 127\.0\.0\.1.*refused/);
    expect(row.attempts).toBe(1);
    expect(rx.received).toHaveLength(0);
  });

  it('when private targets are allowed, the connection goes to the resolved and checked address', async () => {
    const c = await open.newClient();
    const id = await createSet(c, { set_description: 'fractions', count: 1, webhook_url: `http://hooks.example.test:${rx.port}/pinned` });
    await waitForSet(c, id);
    await until(() => rx.received.length >= 1, 'a delivery');
    // hooks.example.test exists only in the test resolver: the request reached the checked address
    expect(rx.received[0]!.headers.host).toBe(`hooks.example.test:${rx.port}`);
    expect(rx.received[0]!.path).toBe('/pinned');
  });
});
