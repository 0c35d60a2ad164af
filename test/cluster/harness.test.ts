/**
 * The cluster harness itself (test/cluster/harness.ts): the PostgreSQL proxy cuts and restores,
 * our own redis-server dies and comes back on its port, MONITOR sees the prefix, and N instances
 * start on one database and Redis and accept the key made before they started.
 */
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import pg from 'pg';
import { Redis } from 'ioredis';
import { freshPostgres, type FreshPostgres } from '../helpers/databases.ts';
import { Cluster, clusterAvailability, eventually, OwnRedisServer, redisProblem, RedisMonitor, TcpProxy, uniquePrefix } from './harness.ts';

const avail = await clusterAvailability({ ownRedisServer: true });

async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  c.on('error', () => {});
  await c.connect();
  return c;
}

async function connectError(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('SELECT 1');
    return 'connected';
  } catch (e) {
    return String((e as { code?: string }).code ?? (e as Error).message);
  } finally {
    await c.end().catch(() => {});
  }
}

describe.skipIf(!!avail.skipReason)('cluster harness', () => {
  let db: FreshPostgres;
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f();
    await db?.drop();
  });

  it.each(['refuse', 'reset'] as const)('TcpProxy (%s): forwards to PostgreSQL, cut drops and refuses, restore serves again', async (mode) => {
    db ??= await freshPostgres();
    const u = new URL(db.url);
    const proxy = await TcpProxy.start({ host: u.hostname, port: Number(u.port || 5432) });
    cleanup.push(() => proxy.close());
    const url = proxy.urlFor(db.url);
    const before = await pgClient(url);
    expect((await before.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    expect(proxy.openConnections).toBe(1);

    await proxy.cut(mode);
    // The open connection is gone, and no new one gets through.
    await expect(before.query('SELECT 1')).rejects.toThrow();
    await before.end().catch(() => {});
    const refused = await connectError(url);
    expect(refused).not.toBe('connected');
    if (mode === 'refuse') expect(refused).toBe('ECONNREFUSED');
    else expect(proxy.dropped).toBeGreaterThan(0);

    await proxy.restore();
    const after = await pgClient(url);
    expect((await after.query('SELECT 2 AS two')).rows[0].two).toBe(2);
    await after.end();
    // The server itself never went away.
    expect(await connectError(db.url)).toBe('connected');
  });

  it('OwnRedisServer: SIGKILL makes it unreachable, restart brings it back empty on the same port; ioredis reconnects', async () => {
    const redis = await OwnRedisServer.start();
    cleanup.push(() => redis.stop());
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    client.on('error', () => {});
    cleanup.push(() => void client.disconnect());
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    const pid = redis.child!.pid;

    await redis.kill();
    expect(redis.running).toBe(false);
    expect(await redisProblem(redis.url, 500)).toBeDefined();

    await redis.restart();
    expect(redis.running).toBe(true);
    expect(redis.child!.pid).not.toBe(pid);
    expect(await redisProblem(redis.url)).toBeUndefined();
    // The long-lived client finds it again by itself; nothing was kept (--save "", no AOF).
    const got = await eventually(async () => ((await client.ping()) === 'PONG' ? { v: await client.get('k') } : undefined), 'ioredis to reconnect', 10_000);
    expect(got.v).toBeNull();
  });

  it('RedisMonitor sees the commands naming the prefix, and only those', async () => {
    const redis = await OwnRedisServer.start();
    cleanup.push(() => redis.stop());
    const prefix = uniquePrefix('mon');
    const monitor = await RedisMonitor.start(redis.url, prefix);
    cleanup.push(() => monitor.close());
    const c = new Redis(redis.url);
    c.on('error', () => {});
    cleanup.push(() => void c.disconnect());
    await c.publish(`${prefix}journal:1`, 'x');
    await c.set(`${prefix}k`, '1');
    await c.set('other:k', '1');
    await eventually(() => monitor.count >= 2, 'monitored commands', 5000);
    expect(monitor.seen.map((s) => s.command).sort()).toEqual(['publish', 'set']);
    expect(monitor.seen.every((s) => s.names.every((n) => n.startsWith(prefix)))).toBe(true);
  });

  describe('three instances on one PostgreSQL database and one Redis', () => {
    let cluster: Cluster | undefined;
    afterAll(async () => {
      await cluster?.stop();
    });

    it('start, answer /healthz, talk to PostgreSQL through the proxy, and accept the key made before they started', { timeout: 120_000 }, async () => {
      cluster = await Cluster.start({ redisUrl: avail.redisUrl! });
      const c = cluster;
      onTestFailed(() => console.log(c.dumpLogs()));
      expect(c.instances).toHaveLength(3);
      expect(new Set(c.instances.map((i) => i.url)).size).toBe(3);
      for (const i of c.instances) {
        expect(i.alive()).toBe(true);
        expect(i.env.DATABASE_URL).toBe(c.databaseUrl);
        expect(i.env.REDIS_KEY_PREFIX).toBe(c.prefix);
        const h = await i.client.get('/healthz');
        expect(h.status, `${i.name} /healthz`).toBe(200);
      }
      // An instance on DATABASE_URL opens its pool through the proxy.
      expect(c.proxy.forwarded, 'connections through the PostgreSQL proxy').toBeGreaterThan(0);
      // The organization and key live in PostgreSQL only: each instance must find them there.
      for (const i of c.instances) {
        const r = await i.client.get('/v1/journals/list');
        expect(r.status, `${i.name} GET /v1/journals/list: ${JSON.stringify(r.body)}`).toBe(200);
      }
      // One database: a journal imported on A is read on B and C.
      const id = await c.instances[0]!.client.importMarkdown('# Shared\n\nhello\n');
      for (const i of c.instances.slice(1)) expect(await i.client.content(id), i.name).toBe('# Shared\n\nhello\n');
    });
  });
});
