/**
 * Cluster tests (issue 13, item 7): several instances of the real server, as child processes, on
 * one fresh PostgreSQL database and one Redis, with the failures a cluster meets made controllable
 * from the test:
 *
 * - `clusterAvailability()`: whether PostgreSQL (TEST_DATABASE_URL, test/helpers/databases.ts),
 *   Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379) and, for the suite that restarts
 *   Redis, the `redis-server` binary are there. Unset variables and nothing usable: the suites
 *   print how to enable them and skip. A variable set (CI) and its engine unusable: they fail.
 * - `TcpProxy`: sits between the instances and PostgreSQL; `cut()` drops every connection and
 *   refuses new ones, `restore()` serves again ("PostgreSQL briefly unreachable" without stopping
 *   the shared server).
 * - `OwnRedisServer`: a redis-server child on a free port, to SIGKILL and start again.
 * - `RedisMonitor`: MONITOR on a Redis, counting the commands that name a key or channel under
 *   the cluster's REDIS_KEY_PREFIX: shows that fan-out goes through Redis, not only in-process.
 * - `Cluster`: N instances (`startChildServer`, each its own DATA_DIR, DATABASE_URL through the
 *   proxy, REDIS_URL, a REDIS_KEY_PREFIX of its own), the organization and key made through the
 *   storage engine before they start; `witness()` starts one more instance on the same database
 *   with a Redis prefix nobody else uses: it learns only what PostgreSQL holds. `clusterSuite()`
 *   starts one for a suite (and prints its instances' logs when a test fails).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import * as Y from 'yjs';
import type { Tier } from '../../server/auth/keys.ts';
import { createOrgWithKey, keepLastLogLines, startChildServer, warnLines } from '../helpers/child-server.ts';
import { freshPostgres, POSTGRES_HINT, postgresAvailability, type FreshPostgres } from '../helpers/databases.ts';
import { blocks, Client, parseBody, tempDataDir, type Reply } from '../helpers/server.ts';
import { sleep } from '../helpers/wait.ts';
import { blockText, connectEditor, type Editor, editorBlocks, typeInto, wsUrl } from '../realtime/helpers.ts';

export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
export const REDIS_HINT =
  `start Redis (\`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\`) and set ` +
  `TEST_REDIS_URL=${DEFAULT_TEST_REDIS_URL}; the Redis-restart suite also needs the redis-server binary on PATH`;
export const CLUSTER_HINT = `To run the cluster suites: ${POSTGRES_HINT}; ${REDIS_HINT} (.ci/run does both).`;

// ------------------------------------------------------------------------------------------------
// Availability
// ------------------------------------------------------------------------------------------------

export interface ClusterAvailability {
  /** Set when the suite can run. */
  postgresUrl?: string;
  redisUrl?: string;
  /** Set when it cannot (the message says how to enable it; it was printed). */
  skipReason?: string;
}

/** Pings a Redis once, without retries; resolves with the error message, or undefined when it answered. */
export async function redisProblem(url: string, timeoutMs = 3000): Promise<string | undefined> {
  const r = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let cause: Error | undefined;
  r.on('error', (e: Error) => (cause ??= e));
  try {
    await r.connect();
    const pong = await r.ping();
    return pong === 'PONG' ? undefined : `PING answered ${pong}`;
  } catch (e) {
    // ioredis rejects with "Connection is closed."; the 'error' event had the reason (ECONNREFUSED...).
    return cause?.message || (e as Error).message || String(e);
  } finally {
    r.disconnect();
  }
}

/** Whether `redis-server` can be run (the version it prints), or undefined. */
export function redisServerVersion(): string | undefined {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) return undefined;
  return r.stdout.trim();
}

let redisProbe: Promise<string | undefined> | undefined;

/**
 * Whether the cluster suites run here. `ownRedisServer`: the suite spawns redis-server itself.
 * Throws (the suite fails) when TEST_DATABASE_URL or TEST_REDIS_URL is set and what it names (or
 * the redis-server binary) cannot be used.
 */
export async function clusterAvailability(opts: { ownRedisServer?: boolean } = {}): Promise<ClusterAvailability> {
  const pg = await postgresAvailability(); // throws when TEST_DATABASE_URL is set and unusable
  const explicitRedis = process.env.TEST_REDIS_URL?.trim();
  const redisUrl = explicitRedis || DEFAULT_TEST_REDIS_URL;
  redisProbe ??= redisProblem(redisUrl);
  const redisWhy = await redisProbe;
  if (redisWhy && explicitRedis) throw new Error(`TEST_REDIS_URL=${explicitRedis} is set, but Redis cannot be used there: ${redisWhy}`);
  let serverWhy: string | undefined;
  if (opts.ownRedisServer && !redisServerVersion()) {
    serverWhy = 'the redis-server binary cannot be run (not on PATH?)';
    if (explicitRedis) throw new Error(`TEST_REDIS_URL is set, but this suite starts its own Redis and ${serverWhy}`);
  }
  const reasons = [pg.skipReason ? `PostgreSQL: ${pg.skipReason}` : '', redisWhy ? `Redis: nothing usable at ${redisUrl} (${redisWhy})` : '', serverWhy ?? '']
    .filter(Boolean)
    .join('; ');
  if (reasons || !pg.url) {
    const skipReason = `Cluster suites skipped: ${reasons}. ${CLUSTER_HINT}`;
    console.warn(skipReason);
    return { skipReason };
  }
  return { postgresUrl: pg.url, redisUrl };
}

// ------------------------------------------------------------------------------------------------
// Small tools
// ------------------------------------------------------------------------------------------------

export { sleep };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runs `check` until it resolves to something truthy without throwing (an `expect` inside is
 * fine), at most `ms`; then throws its last error. Never a timing assertion: only a bound.
 */
export async function eventually<T>(check: () => Promise<T> | T, what: string, ms = 20_000, every = 50): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
      last = undefined;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) {
      const why = last instanceof Error ? last.message : last === undefined ? 'still false' : String(last);
      throw new Error(`timed out after ${ms} ms waiting for ${what}: ${why}`);
    }
    await sleep(every);
  }
}

/** A unique REDIS_KEY_PREFIX (every cluster its own, so that files and tests never share channels). */
export function uniquePrefix(tag = 'c'): string {
  return `study-test-${tag}-${process.pid}-${randomBytes(4).toString('hex')}:`;
}

// ------------------------------------------------------------------------------------------------
// TCP proxy in front of PostgreSQL
// ------------------------------------------------------------------------------------------------

export type CutMode = 'refuse' | 'reset';

/**
 * A TCP proxy to `target`. `cut('refuse')` (default) destroys every open connection and closes the
 * listening socket (new connections: ECONNREFUSED, as when PostgreSQL is down); `cut('reset')`
 * keeps listening but destroys every connection at once (accepted, then reset). `restore()`
 * listens and forwards again, on the same port.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly open = new Set<net.Socket>();
  private mode: CutMode | undefined;
  /** Connections forwarded, and connections dropped while cut (reset mode), since start. */
  forwarded = 0;
  dropped = 0;

  private constructor(
    readonly port: number,
    readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const p = new TcpProxy(await freePort(), target);
    await p.listen();
    return p;
  }

  /** `url` (a postgres:// URL) with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  get isCut(): boolean {
    return this.mode !== undefined;
  }

  /** Connections open through the proxy now. */
  get openConnections(): number {
    return this.open.size / 2;
  }

  private async listen(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const server = net.createServer((client) => this.accept(client));
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(this.port, '127.0.0.1', () => resolve());
        });
        server.on('error', () => {});
        this.server = server;
        return;
      } catch (e) {
        // Our own port, given up for the cut: somebody may hold it for a moment.
        if ((e as { code?: string }).code !== 'EADDRINUSE' || attempt >= 50) throw e;
        await sleep(100);
      }
    }
  }

  private accept(client: net.Socket): void {
    if (this.mode) {
      this.dropped++;
      client.destroy();
      return;
    }
    this.forwarded++;
    const upstream = net.connect(this.target.port, this.target.host);
    this.open.add(client);
    this.open.add(upstream);
    const teardown = () => {
      client.destroy();
      upstream.destroy();
      this.open.delete(client);
      this.open.delete(upstream);
    };
    client.on('error', teardown).on('close', teardown);
    upstream.on('error', teardown).on('close', teardown);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private destroyAll(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  async cut(mode: CutMode = 'refuse'): Promise<void> {
    if (this.mode) throw new Error('proxy already cut');
    this.mode = mode;
    this.destroyAll();
    if (mode === 'refuse') await this.closeListener();
  }

  async restore(): Promise<void> {
    if (!this.mode) return;
    const wasRefusing = this.mode === 'refuse';
    this.mode = undefined;
    if (wasRefusing) await this.listen();
  }

  private async closeListener(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }

  async close(): Promise<void> {
    this.mode = 'refuse';
    this.destroyAll();
    await this.closeListener();
  }
}

// ------------------------------------------------------------------------------------------------
// A redis-server of our own
// ------------------------------------------------------------------------------------------------

const redisChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of redisChildren) c.kill('SIGKILL');
});

/** redis-server on a free port of 127.0.0.1, no persistence, to SIGKILL and start again on the same port. */
export class OwnRedisServer {
  child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedisServer> {
    for (let attempt = 1; ; attempt++) {
      const s = new OwnRedisServer(await freePort());
      try {
        await s.spawn();
        return s;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  private async spawn(): Promise<void> {
    this.output = '';
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    redisChildren.add(child);
    const keep = (b: Buffer) => {
      this.output = (this.output + b.toString()).slice(-4000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let earlyExit: number | string | null | undefined;
    this.exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        earlyExit = code ?? signal;
        redisChildren.delete(child);
        resolve();
      }),
    );
    const until = Date.now() + 10_000;
    for (;;) {
      if (earlyExit !== undefined) throw new Error(`redis-server on port ${this.port} exited (${earlyExit}): ${this.output}`);
      if (!(await redisProblem(this.url, 500))) return;
      if (Date.now() > until) {
        child.kill('SIGKILL');
        throw new Error(`redis-server on port ${this.port} did not answer within 10 s: ${this.output}`);
      }
      await sleep(50);
    }
  }

  /** SIGKILL (no shutdown, no goodbye to clients); resolves once the process is gone. */
  async kill(): Promise<void> {
    if (this.running) this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** Starts redis-server again on the same port (after `kill`), empty. */
  async restart(): Promise<void> {
    await this.kill();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.spawn();
        return;
      } catch (e) {
        if (attempt >= 20 || !/Address already in use/i.test(String((e as Error).message))) throw e;
        await sleep(100);
      }
    }
  }

  stop(): Promise<void> {
    return this.kill();
  }
}

// ------------------------------------------------------------------------------------------------
// MONITOR: which commands name the cluster's keys and channels
// ------------------------------------------------------------------------------------------------

export interface MonitoredCommand {
  at: number;
  command: string;
  /** The arguments that start with the prefix (keys, channels). */
  names: string[];
  /** ip:port of the connection that sent it. */
  source: string;
}

/**
 * MONITOR on `url`, keeping the commands that carry an argument starting with `prefix` (whatever
 * the design: PUBLISH, XADD, a script's keys). A fresh MONITOR connection is needed after the
 * Redis restarted (`reopen`). A raw RESP connection: ioredis's monitor mode mistakes monitor
 * lines for replies when they arrive in the same read as MONITOR's +OK ("Command queue state
 * error" under traffic).
 */
export class RedisMonitor {
  readonly seen: MonitoredCommand[] = [];
  private socket: net.Socket | undefined;

  private constructor(
    readonly url: string,
    readonly prefix: string,
  ) {}

  static async start(url: string, prefix: string): Promise<RedisMonitor> {
    const m = new RedisMonitor(url, prefix);
    await m.reopen();
    return m;
  }

  async reopen(): Promise<void> {
    this.close();
    const u = new URL(this.url);
    const socket = net.connect(Number(u.port || 6379), u.hostname);
    socket.on('error', () => {});
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      let ok = false;
      socket.once('error', reject);
      socket.on('connect', () => {
        const auth = u.password ? `AUTH ${u.username ? `${decodeURIComponent(u.username)} ` : ''}${decodeURIComponent(u.password)}\r\n` : '';
        socket.write(`${auth}MONITOR\r\n`);
      });
      socket.on('data', (chunk: Buffer) => {
        buf += chunk.toString('latin1');
        let nl: number;
        while ((nl = buf.indexOf('\r\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 2);
          if (line.startsWith('-')) {
            reject(new Error(`MONITOR: ${line.slice(1)}`));
            continue;
          }
          if (line === '+OK') {
            if (!ok) resolve();
            ok = true;
            continue;
          }
          if (line.startsWith('+')) this.record(line.slice(1));
        }
      });
    });
  }

  /** `1700000000.123456 [0 127.0.0.1:5000] "publish" "chan" "\x00..."` */
  private record(line: string): void {
    const source = /\[\d+ ([^\]]+)\]/.exec(line)?.[1] ?? '';
    const args: string[] = [];
    for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"/g)) args.push(m[1]!.replace(/\\(["\\])/g, '$1'));
    const names = args.filter((a) => a.startsWith(this.prefix));
    if (names.length) this.seen.push({ at: Date.now(), command: String(args[0]).toLowerCase(), names, source });
  }

  get count(): number {
    return this.seen.length;
  }

  since(index: number): MonitoredCommand[] {
    return this.seen.slice(index);
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}

/** Connections of a Redis as CLIENT LIST reports them (name=value fields). */
export async function redisClients(url: string): Promise<Record<string, string>[]> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    const text = (await r.client('LIST')) as string;
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => Object.fromEntries(l.trim().split(' ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])));
  } finally {
    r.disconnect();
  }
}

/** Deletes the keys under `prefix` (the shared Redis stays clean after a suite). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    /* best effort */
  } finally {
    r.disconnect();
  }
}

// ------------------------------------------------------------------------------------------------
// HTTP client with a time limit
// ------------------------------------------------------------------------------------------------

/**
 * The suites' `Client`, with a time limit on every request (an instance that hangs must not hang
 * the test) and network failures reported as status 0 with the error (an instance that is gone).
 */
export class ClusterClient extends Client {
  constructor(
    url: string,
    key: string | undefined,
    orgId: string,
    readonly timeoutMs = 30_000,
  ) {
    super(url, key, orgId);
  }

  override async request<T = any>(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    let res: Response;
    try {
      res = await fetch(this.url + p, { ...this.requestInit(method, body, headers), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      return { status: 0, body: { error: `${err.name}: ${err.message}${err.cause?.code ? ` (${err.cause.code})` : ''}` } as T, headers: new Headers() };
    }
    const text = await res.text().catch(() => '');
    return { status: res.status, body: parseBody(text), headers: res.headers };
  }
}

// ------------------------------------------------------------------------------------------------
// The cluster
// ------------------------------------------------------------------------------------------------

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  dataDir: string;
  env: Record<string, string>;
  client: ClusterClient;
  /** The last log lines it wrote (JSON lines of pino). */
  logs: string[];
  alive(): boolean;
  /** Sends `signal` (default SIGKILL) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ClusterOptions {
  redisUrl: string;
  instances?: number;
  /** Default: a unique one. */
  redisKeyPrefix?: string;
  /** Extra environment of every instance. */
  env?: Record<string, string>;
  tier?: Tier;
}

const LOG_LINES = 300;

// Instances left running by a suite that died before its afterAll are killed with the test process.
const instanceChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of instanceChildren) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

export class Cluster {
  readonly instances: Instance[] = [];
  readonly editors: Editor[] = [];
  private readonly extra: Instance[] = [];
  private witnesses = 0;

  private constructor(
    readonly db: FreshPostgres,
    readonly proxy: TcpProxy,
    readonly redisUrl: string,
    readonly prefix: string,
    readonly key: string,
    readonly orgId: string,
    readonly env: Record<string, string>,
  ) {}

  /** A fresh database, the proxy, the organization and key, then `instances` servers started together. */
  static async start(opts: ClusterOptions): Promise<Cluster> {
    const db = await freshPostgres();
    let proxy: TcpProxy | undefined;
    try {
      // The organization and key, made through the storage engine (its migrations applied) before any instance runs.
      const { key, orgId } = await createOrgWithKey(db.url, 'cluster', opts.tier);
      const u = new URL(db.url);
      proxy = await TcpProxy.start({ host: u.hostname, port: Number(u.port || 5432) });
      const cluster = new Cluster(db, proxy, opts.redisUrl, opts.redisKeyPrefix ?? uniquePrefix(), key, orgId, opts.env ?? {});
      const n = opts.instances ?? 3;
      try {
        const started = await Promise.all(Array.from({ length: n }, (_, i) => cluster.spawnInstance(String.fromCharCode(65 + i))));
        cluster.instances.push(...started);
      } catch (e) {
        await cluster.stop();
        throw e;
      }
      return cluster;
    } catch (e) {
      await proxy?.close();
      await db.drop().catch(() => {});
      throw e;
    }
  }

  /** A journal imported through `inst`, and the ids of its top-level blocks. */
  async journal(inst: Instance, markdown: string): Promise<{ id: string; ids: string[] }> {
    const id = await inst.client.importMarkdown(markdown);
    return { id, ids: (await restBlocks(inst.client, id)).map((b) => String(b.id)) };
  }

  /** DATABASE_URL of the instances: through the proxy. */
  get databaseUrl(): string {
    return this.proxy.urlFor(this.db.url);
  }

  private async spawnInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
    const dataDir = tempDataDir();
    const full = {
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.prefix,
      DATABASE_POOL_SIZE: '5',
      JOB_POLL_MS: '1000',
      ...this.env,
      ...env,
    };
    const s = await startChildServer(dataDir, full);
    instanceChildren.add(s.child);
    void s.exited.then(() => instanceChildren.delete(s.child));
    const logs = keepLastLogLines(s.child, LOG_LINES);
    const inst: Instance = {
      name,
      url: s.url,
      child: s.child,
      pid: s.child.pid!,
      exited: s.exited,
      dataDir,
      env: full,
      client: new ClusterClient(s.url, this.key, this.orgId),
      logs,
      alive: () => s.child.exitCode === null && s.child.signalCode === null,
      async kill(signal: NodeJS.Signals = 'SIGKILL') {
        if (inst.alive()) s.child.kill(signal);
        await s.exited;
      },
    };
    return inst;
  }

  /** One more instance of the cluster (same database through the proxy, same Redis and prefix). */
  async startInstance(name = `X${this.extra.length + 1}`, env: Record<string, string> = {}): Promise<Instance> {
    const inst = await this.spawnInstance(name, env);
    this.extra.push(inst);
    return inst;
  }

  /**
   * An instance on the same database (directly, not through the proxy) whose Redis prefix nobody
   * else uses: no fan-out reaches it, so what it serves was read from PostgreSQL, i.e. committed.
   */
  witness(): Promise<Instance> {
    this.witnesses++;
    return this.startInstance(`witness${this.witnesses}`, {
      DATABASE_URL: this.db.url,
      REDIS_KEY_PREFIX: `${this.prefix.replace(/:$/, '')}-witness${this.witnesses}:`,
    });
  }

  /** Every instance this cluster started (including the killed ones). */
  get all(): Instance[] {
    return [...this.instances, ...this.extra];
  }

  /** A real y-websocket editor on `inst` (closed by stop()). */
  editor(inst: Instance, journalId: string, opts: { doc?: Y.Doc } = {}): Editor {
    const e = connectEditor(inst.url, journalId, { key: this.key }, opts);
    this.editors.push(e);
    return e;
  }

  /** Points a provider that lost its instance at `inst` (as a load balancer would send its reconnect elsewhere). */
  repoint(e: Editor, inst: Instance): void {
    e.provider.serverUrl = wsUrl(inst.url);
    e.provider.disconnect();
    e.provider.connect();
  }

  /** The last log lines of every instance, the lines at warn and above first. */
  dumpLogs(lines = 40): string {
    const out: string[] = [];
    for (const i of this.all) {
      out.push(`--- instance ${i.name} (${i.url}, pid ${i.pid}, ${i.alive() ? 'running' : 'gone'}); warnings and errors:`);
      out.push(...warnLines(i.logs).slice(-lines));
      out.push(`--- instance ${i.name}: last lines:`);
      out.push(...i.logs.slice(-lines));
    }
    return out.join('\n');
  }

  async stop(): Promise<void> {
    for (const e of this.editors.splice(0)) {
      try {
        e.destroy();
      } catch {
        /* already gone */
      }
    }
    await Promise.all(this.all.map((i) => i.kill('SIGKILL')));
    await this.proxy.close();
    await this.db.drop().catch((e) => console.warn(`dropping ${this.db.name}: ${(e as Error).message}`));
    await deleteRedisKeys(this.redisUrl, this.prefix);
    for (const i of this.all) fs.rmSync(i.dataDir, { recursive: true, force: true });
  }
}

/**
 * The set-up of a cluster suite (call it in its describe): a cluster started with `opts` before
 * the tests and handed to `ready`, stopped after them; a failed test prints its instances' logs.
 */
export function clusterSuite(opts: ClusterOptions, ready: (cluster: Cluster) => void | Promise<void>): void {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await Cluster.start(opts);
    await ready(cluster);
  }, 180_000);
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(cluster?.dumpLogs())));
  afterAll(async () => {
    await cluster?.stop();
  });
}

// ------------------------------------------------------------------------------------------------
// Assertions about documents
// ------------------------------------------------------------------------------------------------

export type BlockView = { type: string; id: unknown; text: string };

export function stateVector(e: Editor | Y.Doc): Map<number, number> {
  return Y.decodeStateVector(Y.encodeStateVector(e instanceof Y.Doc ? e : e.doc));
}

/** Entries of `seen` (client -> clock) that `have` lacks; the observer's own client left out. */
export function missingFrom(have: Map<number, number>, seen: Map<number, number>, own?: number): string[] {
  const out: string[] = [];
  for (const [client, clock] of seen) {
    if (client === own) continue;
    const got = have.get(client) ?? 0;
    if (got < clock) out.push(`client ${client}: ${got} < ${clock}`);
  }
  return out;
}

function sameMap(a: Map<number, number>, b: Map<number, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Why `editors` have not converged (same state vector and same blocks), or undefined when they have. */
export function divergence(editors: Editor[]): string | undefined {
  const [first, ...rest] = editors;
  if (!first) return undefined;
  const sv = stateVector(first);
  const b = JSON.stringify(editorBlocks(first));
  for (const [i, e] of rest.entries()) {
    if (!sameMap(sv, stateVector(e))) return `editor ${i + 1} has another state vector than editor 0`;
    if (JSON.stringify(editorBlocks(e)) !== b) return `editor ${i + 1} has other blocks than editor 0`;
  }
  return undefined;
}

export async function converged(editors: Editor[], what = 'editors to converge', ms = 30_000): Promise<void> {
  await eventually(
    () => {
      const why = divergence(editors);
      if (why) throw new Error(why);
      return true;
    },
    what,
    ms,
  );
}

/** The REST model's top-level blocks in the shape of `editorBlocks`. */
export async function restBlocks(client: Client, journalId: string): Promise<BlockView[]> {
  return blocks(await client.model(journalId)).map((b) => ({ type: b.type, id: b.id, text: b.text }));
}

export async function restTexts(client: Client, journalId: string): Promise<string[]> {
  return (await restBlocks(client, journalId)).map((b) => b.text);
}

/** Waits until GET model on each of `instances` is `expected` (the editors' document). */
export async function restShows(instances: Instance[], journalId: string, expected: BlockView[]): Promise<void> {
  for (const i of instances) {
    await eventually(async () => {
      expect(await restBlocks(i.client, journalId)).toEqual(expected);
      return true;
    }, `GET model on ${i.name} to be the editors' document`);
  }
}

/**
 * Asserts that editor `e` holds every keystroke of `typists` (typist k typed into a block whose
 * text was `originals[k]`) and every acknowledged REST edit of `acked`.
 */
export function expectNothingLost(e: Editor, typists: Typist[], originals: string[], acked: string[] = []): void {
  for (const [k, t] of typists.entries()) expect(blockText(e, t.blockId), `what ${t.tag} typed`).toBe(t.expectedText(originals[k]!));
  const texts = editorBlocks(e).map((b) => b.text);
  expect(acked.filter((t) => !texts.includes(t)), 'acknowledged edits missing from the editors').toEqual([]);
}

/** A create_node edit appending a paragraph holding `text`. */
export function appendParagraph(text: string) {
  return [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: text }] }];
}

// ------------------------------------------------------------------------------------------------
// Load: editors typing, REST writers
// ------------------------------------------------------------------------------------------------

/**
 * Types `${tag}${n} ` at the start of one block, every `everyMs` (under the per-connection
 * message rate), until stopped. Typing at the start means the block's final text is exactly
 * `expectedText()` when every keystroke arrived, in order, once.
 */
export class Typist {
  n = 0;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    readonly editor: Editor,
    readonly blockId: string,
    readonly tag: string,
    readonly everyMs = 20,
  ) {}

  token(i: number): string {
    return `${this.tag}${i} `;
  }

  typeOne(): void {
    typeInto(this.editor, this.blockId, 0, this.token(this.n));
    this.n++;
  }

  start(): this {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        this.typeOne();
        await sleep(this.everyMs);
      }
    })();
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** What the block holds once every keystroke arrived, given its text before typing began. */
  expectedText(original: string): string {
    let s = original;
    for (let i = 0; i < this.n; i++) s = this.token(i) + s;
    return s;
  }
}

export interface Attempt {
  /** What was tried: 'edit', 'read', 'import', ... */
  kind: string;
  /** The paragraph an edit appends (edits only). */
  text: string;
  instance: string;
  /** HTTP status; 0 = no answer (network error or time limit); -200 = 200 without success. */
  status: number;
  started: number;
  ended: number;
  retryAfter: string | null;
  body?: any;
}

/**
 * Runs `request` against `inst` again and again (one at a time) until `stop()` is true (or, with
 * `untilGone`, until the instance stops answering), recording every attempt.
 */
export function requestLoop(
  inst: Instance,
  kind: string,
  request: (i: number) => { text?: string; send: () => Promise<Reply> },
  opts: { stop: () => boolean; pauseMs?: number; untilGone?: boolean },
): { attempts: Attempt[]; done: Promise<void> } {
  const attempts: Attempt[] = [];
  const done = (async () => {
    for (let i = 0; !opts.stop(); i++) {
      const { text = '', send } = request(i);
      const started = Date.now();
      const r = await send();
      const ok = r.status === 200 && (r.body?.success ?? true);
      attempts.push({
        kind,
        text,
        instance: inst.name,
        status: r.status === 200 && !ok ? -200 : r.status,
        started,
        ended: Date.now(),
        retryAfter: r.headers.get('retry-after'),
        body: r.status === 200 && ok ? (kind === 'import' ? { journal_id: r.body?.journal_id } : undefined) : r.body,
      });
      if (r.status === 0 && opts.untilGone) return;
      if (r.status !== 200) await sleep(50);
      else if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  })();
  return { attempts, done };
}

/**
 * Appends paragraphs `${tag}-${i}` through `inst` one request after the other (see requestLoop).
 * An attempt with status 200 (and success) is an acknowledged edit.
 */
export function restWriter(
  inst: Instance,
  journalId: string,
  tag: string,
  opts: { stop: () => boolean; sync?: (i: number) => boolean; pauseMs?: number; untilGone?: boolean },
): { attempts: Attempt[]; done: Promise<void>; acked(): string[] } {
  const loop = requestLoop(
    inst,
    'edit',
    (i) => {
      const text = `${tag}-${i}`;
      return { text, send: () => inst.client.edit(journalId, appendParagraph(text), { sync_realtime_state: opts.sync ? opts.sync(i) : true }) };
    },
    opts,
  );
  return { ...loop, acked: () => loop.attempts.filter((a) => a.status === 200).map((a) => a.text) };
}

/** One line per attempt, for failure messages. */
export function describeAttempts(attempts: Attempt[], t0 = 0): string[] {
  return attempts.map((a) => `${a.kind} ${a.text} on ${a.instance}: ${a.status} [${a.started - t0}..${a.ended - t0} ms] ${a.body ? JSON.stringify(a.body).slice(0, 200) : ''}`);
}

/** Waits until every editor has synced with its instance. */
export async function allSynced(editors: Editor[], ms = 30_000): Promise<void> {
  await eventually(() => editors.every((e) => e.provider.synced), `${editors.length} editors to sync`, ms);
}
