/**
 * Cross-instance journal sync: several instances on one store of record (DATABASE_URL) serve the
 * same journals. The whole concern is here, as Hocuspocus keeps it in its Redis extension: the
 * journal registry calls the hooks of RegistryExtension (loaded, committed, unloaded, deleted)
 * and the realtime rooms share editors' awareness through AwarenessPeers; neither names Redis.
 *
 * Live traffic (REDIS_URL) goes on one Redis pub/sub channel per journal
 * (`<REDIS_KEY_PREFIX>journal:<id>`): committed updates, awareness and deletions. Redis carries
 * nothing durable: an update is published only after it is committed in the store of record, and
 * what a Redis outage loses is made up from the store's update log: each instance compares its
 * loaded journals with the store on reconnect and every CLUSTER_RESYNC_MS (also without Redis).
 * Publishing never waits and never fails a request: while Redis is down, messages are dropped.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LiveJournal } from '../journals/live.ts';
import type { JournalRegistry, RegistryExtension } from '../journals/registry.ts';
import type { JournalStore } from '../journals/store.ts';
import type { Logger } from '../logger.ts';
import type { AwarenessPeers, PeerAwareness, RoomPeers } from '../realtime/room.ts';

type BusMessage =
  /** Committed updates with consecutive revisions from `first`; `quiet`: not pushed to editors (sync_realtime_state false). */
  | { type: 'update'; first: number; updates: Uint8Array[]; quiet: boolean }
  /** A y-protocols awareness update of editors connected to the sender. */
  | { type: 'awareness'; update: Uint8Array }
  /** An instance's first editor of the journal arrived: the others publish their editors' awareness. */
  | { type: 'awareness-query' }
  | { type: 'deleted' };

/** How long loading a journal waits for its subscription before going on without it. */
const SUBSCRIBE_WAIT_MS = 500;

type BusHandler = (message: BusMessage) => void;

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

/** The Redis connections: a publisher and a subscriber; this instance's own messages are not delivered back. */
class RedisBus {
  private readonly instanceId = randomUUID();
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

  /** Resolves once messages of this journal are being received (or after SUBSCRIBE_WAIT_MS). */
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
    if (this.pub.status !== 'ready') return;
    this.pub.publish(this.channel(journalId), encode(this.instanceId, message)).catch((err: Error) => {
      this.warn({ err: err.message }, 'Redis publish failed; journals re-sync from the store');
    });
  }

  /** Called after a lost connection to Redis is back: what was published meanwhile is lost. */
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

export interface ClusterOptions {
  /** Live fan-out between instances (REDIS_URL); without it, only the periodic re-sync. */
  redisUrl?: string;
  redisKeyPrefix: string;
  /** How often loaded journals are compared with the store's revisions and caught up (0 = never). */
  resyncMs: number;
}

/** The registry's extension and the rooms' peers for an instance among several. */
export class ClusterSync implements RegistryExtension, AwarenessPeers {
  private readonly bus?: RedisBus;
  private readonly resyncTimer?: NodeJS.Timeout;
  private resyncing = false;
  private awarenessListener?: (journalId: string, m: PeerAwareness) => void;

  constructor(
    private readonly registry: JournalRegistry,
    private readonly store: JournalStore,
    opts: ClusterOptions,
    private readonly logger: Logger,
  ) {
    if (opts.redisUrl) {
      this.bus = new RedisBus(opts.redisUrl, opts.redisKeyPrefix, logger);
      this.bus.onReconnect(() => void this.resync());
    }
    if (opts.resyncMs > 0) {
      this.resyncTimer = setInterval(() => void this.resync(), opts.resyncMs);
      this.resyncTimer.unref();
    }
  }

  // --- the registry's hooks ---------------------------------------------------------------------

  /** Subscribed first, then caught up with the store: nothing committed meanwhile is missed. */
  async afterLoad(live: LiveJournal): Promise<boolean> {
    if (!this.bus) return true;
    await this.bus.subscribe(live.id, (m) => this.receive(live.id, m));
    const revision = (await this.store.revisions([live.seq])).get(live.seq);
    if (revision === undefined) return false;
    await live.syncTo(revision);
    return true;
  }

  afterCommit(live: LiveJournal, first: number, updates: readonly Uint8Array[], quiet: boolean): void {
    this.bus?.publish(live.id, { type: 'update', first, updates: [...updates], quiet });
  }

  afterUnload(journalId: string): void {
    this.bus?.unsubscribe(journalId);
  }

  afterDelete(journalId: string): void {
    this.bus?.publish(journalId, { type: 'deleted' });
  }

  async destroy(): Promise<void> {
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    await this.bus?.close();
  }

  private receive(journalId: string, m: BusMessage): void {
    if (m.type === 'update') this.registry.get(journalId)?.receiveRemote(m.first, m.updates, !m.quiet);
    else if (m.type === 'deleted') this.registry.evict(journalId, 'deleted');
    else if (m.type === 'awareness') this.awarenessListener?.(journalId, { update: m.update });
    else this.awarenessListener?.(journalId, { query: true });
  }

  /**
   * Compares every loaded journal with the store and catches up on what other instances committed
   * (a message lost while Redis was away, or no Redis at all); unloads journals deleted elsewhere.
   */
  async resync(): Promise<void> {
    const loaded = [...this.registry.loaded()];
    if (this.resyncing || loaded.length === 0) return;
    this.resyncing = true;
    try {
      const revisions = await this.store.revisions(loaded.map((j) => j.seq));
      for (const j of loaded) {
        const stored = revisions.get(j.seq);
        if (stored === undefined) this.registry.evict(j.id, 'deleted');
        else if (stored > j.revision) j.syncTo(stored).catch((err) => this.logger.warn({ err, journal_id: j.id }, 'catching up with the store failed'));
      }
    } catch (err) {
      this.logger.warn({ err }, 're-sync with the store failed; retrying');
    } finally {
      this.resyncing = false;
    }
  }

  // --- the rooms' peers -------------------------------------------------------------------------

  peersOf(journalId: string): RoomPeers | undefined {
    const bus = this.bus;
    return (
      bus && {
        publish: (update) => bus.publish(journalId, { type: 'awareness', update }),
        query: () => bus.publish(journalId, { type: 'awareness-query' }),
      }
    );
  }

  onPeerAwareness(listener: (journalId: string, m: PeerAwareness) => void): void {
    this.awarenessListener = listener;
  }
}
