/**
 * Live traffic between instances (REDIS_URL): committed journal updates, awareness and deletions,
 * published on one Redis pub/sub channel per journal (`<REDIS_KEY_PREFIX>journal:<id>`). Redis
 * carries nothing durable: an update is published only after it is committed in the store of
 * record, and a message lost to a Redis outage is made up from the store's update log (instances
 * re-sync on reconnect and periodically, server/journals/registry.ts). Publishing never waits and
 * never fails a request: when Redis is down, messages are dropped and counted.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

export type BusMessage =
  /** Committed updates with consecutive revisions from `first`; `quiet`: not pushed to editors (sync_realtime_state false). */
  | { type: 'update'; first: number; updates: Uint8Array[]; quiet: boolean }
  /** A y-protocols awareness update of editors connected to the sender. */
  | { type: 'awareness'; update: Uint8Array }
  /** An instance's first editor of the journal arrived: the others publish their editors' awareness. */
  | { type: 'awareness-query' }
  | { type: 'deleted' };

/** How long loading a journal waits for its subscription before going on without it. */
const SUBSCRIBE_WAIT_MS = 500;

export type BusHandler = (message: BusMessage) => void;

export interface ClusterBus {
  /** Identifies this instance in its messages (its own are not delivered back). */
  readonly instanceId: string;
  /** Resolves once messages of this journal are being received. */
  subscribe(journalId: string, handler: BusHandler): Promise<void>;
  unsubscribe(journalId: string): void;
  publish(journalId: string, message: BusMessage): void;
  /** Called after a lost connection to Redis is back: what was published meanwhile is lost. */
  onReconnect(listener: () => void): void;
  readonly stats: { published: number; received: number; dropped: number };
  close(): Promise<void>;
}

interface WireMessage {
  i: string;
  t: 'u' | 'a' | 'q' | 'd';
  f?: number;
  q?: 1;
  u?: string[];
  a?: string;
}

const WIRE_TYPE = { update: 'u', awareness: 'a', 'awareness-query': 'q', deleted: 'd' } as const;

function encode(instanceId: string, m: BusMessage): string {
  const w: WireMessage = { i: instanceId, t: WIRE_TYPE[m.type] };
  if (m.type === 'update') {
    w.f = m.first;
    w.u = m.updates.map((u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64'));
    if (m.quiet) w.q = 1;
  } else if (m.type === 'awareness') {
    w.a = Buffer.from(m.update.buffer, m.update.byteOffset, m.update.byteLength).toString('base64');
  }
  return JSON.stringify(w);
}

function decode(text: string): { from: string; message: BusMessage } | undefined {
  let w: WireMessage;
  try {
    w = JSON.parse(text) as WireMessage;
  } catch {
    return undefined;
  }
  if (typeof w?.i !== 'string') return undefined;
  if (w.t === 'u' && Number.isSafeInteger(w.f) && Array.isArray(w.u)) {
    return { from: w.i, message: { type: 'update', first: w.f!, updates: w.u.map((b) => new Uint8Array(Buffer.from(b, 'base64'))), quiet: w.q === 1 } };
  }
  if (w.t === 'a' && typeof w.a === 'string') return { from: w.i, message: { type: 'awareness', update: new Uint8Array(Buffer.from(w.a, 'base64')) } };
  if (w.t === 'q') return { from: w.i, message: { type: 'awareness-query' } };
  if (w.t === 'd') return { from: w.i, message: { type: 'deleted' } };
  return undefined;
}

export class RedisBus implements ClusterBus {
  readonly instanceId = randomUUID();
  readonly stats = { published: 0, received: 0, dropped: 0 };
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, BusHandler>();
  private readonly reconnectListeners: (() => void)[] = [];
  private wasReady = false;
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    // Publishes are dropped while Redis is away (no offline queue): the store's log makes up for them.
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false, retryStrategy: (n: number) => Math.min(100 * n, 2000) };
    this.pub = new Redis(url, { ...options, connectionName: 'study-pub' });
    // The subscriber queues its SUBSCRIBEs until connected and re-subscribes after a reconnect.
    this.sub = new Redis(url, { retryStrategy: options.retryStrategy, connectionName: 'study-sub', autoResubscribe: true });
    for (const [name, conn] of [
      ['publisher', this.pub],
      ['subscriber', this.sub],
    ] as const) {
      conn.on('error', (err: Error) => this.warn({ err: err.message, connection: name }, 'Redis connection error; journals re-sync from the store'));
    }
    this.sub.on('ready', () => {
      if (this.wasReady) {
        this.logger.info('Redis connection back; re-syncing loaded journals from the store');
        for (const l of this.reconnectListeners) l();
      }
      this.wasReady = true;
    });
    this.sub.on('message', (channel: string, text: string) => {
      const handler = this.handlers.get(channel);
      if (!handler) return;
      const decoded = decode(text);
      if (!decoded || decoded.from === this.instanceId) return;
      this.stats.received++;
      handler(decoded.message);
    });
  }

  private channel(journalId: string): string {
    return `${this.prefix}journal:${journalId}`;
  }

  private warn(fields: Record<string, unknown>, msg: string): void {
    const now = Date.now();
    if (now - this.lastWarning < 5000) return;
    this.lastWarning = now;
    this.logger.warn(fields, msg);
  }

  async subscribe(journalId: string, handler: BusHandler): Promise<void> {
    const channel = this.channel(journalId);
    this.handlers.set(channel, handler);
    // While Redis is away the SUBSCRIBE waits in ioredis's queue (sent once it is back); the
    // journal is served meanwhile, kept current by the periodic re-sync from the store.
    const subscribed = this.sub.subscribe(channel).then(
      () => true,
      (err: Error) => {
        this.warn({ err: err.message }, 'Redis subscribe failed; journals re-sync from the store');
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), SUBSCRIBE_WAIT_MS)));
    await Promise.race([subscribed, waited]);
    clearTimeout(timer);
  }

  unsubscribe(journalId: string): void {
    const channel = this.channel(journalId);
    if (!this.handlers.delete(channel)) return;
    this.sub.unsubscribe(channel).catch(() => {});
  }

  publish(journalId: string, message: BusMessage): void {
    if (this.pub.status !== 'ready') {
      this.stats.dropped++;
      return;
    }
    this.stats.published++;
    this.pub.publish(this.channel(journalId), encode(this.instanceId, message)).catch((err: Error) => {
      this.stats.dropped++;
      this.warn({ err: err.message }, 'Redis publish failed; journals re-sync from the store');
    });
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
