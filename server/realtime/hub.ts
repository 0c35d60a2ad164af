/**
 * The realtime endpoint `/v1/journals/realtime/{journal_id}` on the service's HTTP server:
 * authenticates upgrades (refusing with a plain HTTP response before any document data is sent),
 * enforces connection limits, keeps one Room per journal with editors, closes connections of
 * revoked keys, and closes everything on shutdown.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { newBlockId } from '../../shared/ids.ts';
import type { Principal } from '../auth/keys.ts';
import { bearerToken } from '../auth/middleware.ts';
import { meterNameOf } from '../billing/endpoints.ts';
import { rejectUpgrade } from '../billing/middleware.ts';
import type { BillingService } from '../billing/service.ts';
import type { JournalRegistry } from '../journals/registry.ts';
import type { LiveJournal } from '../journals/live.ts';
import type { JournalRow, JournalStore } from '../journals/store.ts';
import type { Logger } from '../logger.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { CloseCode } from './close-codes.ts';
import { Connection, type EditorMeter } from './connection.ts';
import { realtimeEndpoints } from './endpoints.ts';
import { authenticateUpgrade, type EditorTokens } from './credentials.ts';
import { DEFAULT_EDITOR_LIMITS, type EditorLimits } from './limits.ts';
import { Room, type AwarenessPeers } from './room.ts';

export const REALTIME_PATH = '/v1/journals/realtime';
const PATH_RE = /^\/v1\/journals\/realtime\/([^/]{1,100})\/?$/;

export interface RealtimeOptions {
  maxPayloadBytes: number;
  maxConnectionsPerJournal: number;
  maxConnectionsPerOrg: number;
  /** Editor connections of the process, open and being admitted (503 beyond); none when unset. */
  maxConnections?: number;
  /** How often open connections' keys are checked for revocation. */
  revocationPollMs?: number;
  /** Ping interval; a connection that misses a pong for a whole interval is dropped. */
  pingIntervalMs?: number;
  /** Per-editor limits (docs/realtime.md, "Limits for editors"); defaults for what is not given. */
  limits?: Partial<EditorLimits>;
}

/** Another protocol served on this hub's upgrades, over the same rooms and limits (hocuspocus/). */
export interface UpgradeHandler {
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
}

export class RealtimeHub {
  /** Other protocols' paths (without a trailing slash) and their handlers. */
  private readonly others = new Map<string, UpgradeHandler>();
  private readonly wss: WebSocketServer;
  private readonly rooms = new Map<string, Room<Connection>>();
  private readonly connections = new Set<Connection>();
  /** Open plus handshaking connections, for the limits. */
  private readonly perJournal = new Map<string, number>();
  private readonly perOrg = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly limits: EditorLimits;
  private closing = false;
  /** Upgrades being admitted (authenticated, loaded) that are not connections yet. */
  private admitting = 0;

  constructor(
    private readonly engine: StorageEngine,
    private readonly store: JournalStore,
    private readonly registry: JournalRegistry,
    private readonly tokens: EditorTokens,
    private readonly opts: RealtimeOptions,
    private readonly logger: Logger,
    /** Counts and prices each upgrade as the endpoint `GET /journals/realtime/{journal_id}`. */
    private readonly billing?: BillingService,
    /** The rooms of the same journals on other instances, when there are any. */
    private readonly peers?: AwarenessPeers,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes, perMessageDeflate: false });
    peers?.onPeerAwareness((journalId, m) => {
      const room = this.rooms.get(journalId);
      if ('update' in m) room?.applyRemoteAwareness(m.update);
      else room?.publishLocalAwareness();
    });
    const limits = { ...DEFAULT_EDITOR_LIMITS, ...opts.limits };
    // A full byte bucket always admits the largest message the socket accepts, and a connection's
    // queue always holds the largest update it may have to relay.
    this.limits = { ...limits, byteBurst: Math.max(limits.byteBurst, opts.maxPayloadBytes), maxQueuedBytes: Math.max(limits.maxQueuedBytes, opts.maxPayloadBytes) };
    const revocation = setInterval(() => void this.closeRevoked(), opts.revocationPollMs ?? 1000);
    const ping = setInterval(() => this.ping(), opts.pingIntervalMs ?? 30_000);
    for (const t of [revocation, ping]) {
      t.unref();
      this.timers.push(t);
    }
  }

  attach(server: http.Server): void {
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Upgrades to `path` go to `handler`; it shares this hub's rooms (roomFor) and limits (claimSlot). */
  serve(path: string, handler: UpgradeHandler): void {
    this.others.set(path, handler);
  }

  /** False once shutting down. */
  get accepting(): boolean {
    return !this.closing;
  }

  /**
   * Counts one more editor of `journalId` for `orgId` against WS_MAX_CONNECTIONS_PER_JOURNAL and
   * _PER_ORG, for another protocol's connections: the function that releases it, or why not.
   */
  /** What editors' messages count against (the organization's quotas), for either protocol. */
  get meter(): EditorMeter | undefined {
    return this.billing?.quotas;
  }

  claimSlot(journalId: string, orgId: string): (() => void) | { refused: string } {
    if ((this.perJournal.get(journalId) ?? 0) >= this.opts.maxConnectionsPerJournal) {
      return { refused: `Too many editors on this journal (limit ${this.opts.maxConnectionsPerJournal})` };
    }
    if ((this.perOrg.get(orgId) ?? 0) >= this.opts.maxConnectionsPerOrg) {
      return { refused: `Too many realtime connections for this organization (limit ${this.opts.maxConnectionsPerOrg})` };
    }
    bump(this.perJournal, journalId, 1);
    bump(this.perOrg, orgId, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      bump(this.perJournal, journalId, -1);
      bump(this.perOrg, orgId, -1);
    };
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    // Before any work: each connection holds a file descriptor, and a process out of them cannot
    // answer anything, /healthz included.
    const max = this.opts.maxConnections;
    if (max !== undefined && this.connections.size + this.admitting >= max) {
      socket.on('error', () => socket.destroy());
      this.logger.warn({ limit: max }, 'realtime upgrade refused: process connection limit');
      return refuse(socket, 503, `Too many realtime connections on this server (limit ${max}); retry`, { 'Retry-After': '5' });
    }
    this.admitting++;
    this.admit(req, socket, head)
      .catch((err) => {
        this.logger.error({ err }, 'realtime upgrade failed');
        refuse(socket, 503, 'Service unavailable; retry', { 'Retry-After': '1' });
      })
      .finally(() => this.admitting--);
  }

  private async admit(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    const other = this.others.get(url.pathname.replace(/\/$/, ''));
    if (other) return other.upgrade(req, socket, head);
    const m = PATH_RE.exec(url.pathname);
    if (!m) return refuse(socket, 404, 'Not found');
    if (this.closing) return refuse(socket, 503, 'Server shutting down', { 'Retry-After': '5' });
    let journalId: string;
    try {
      journalId = decodeURIComponent(m[1]!);
    } catch {
      return refuse(socket, 404, 'Journal not found');
    }
    const auth = await authenticateUpgrade(
      this.engine,
      this.tokens,
      journalId,
      bearerToken(req.headers.authorization),
      url.searchParams.get('token') ?? undefined,
    );
    if (!auth.ok) return refuse(socket, auth.status, auth.error, { 'WWW-Authenticate': 'Bearer' });
    const row = await this.store.findOwned(journalId, auth.principal.keyId);
    if (!row) return refuse(socket, 404, 'Journal not found');
    const orgId = auth.principal.orgId;
    const admission = await this.billing?.checkRateLimit(auth.principal, meterNameOf(realtimeEndpoints.upgrade));
    if (admission && !admission.ok) return rejectUpgrade(socket, admission);
    // The organization's quotas (server/billing/quotas.ts): past its realtime bytes of the minute,
    // a 429 until it ends; its stored bytes measured now, for the updates' check.
    const overQuota = await this.billing?.quotas.realtimeFull(auth.principal);
    if (overQuota) {
      this.billing!.refundAdmission(auth.principal, admission!.charged, admission!.endpoint);
      return refuse(socket, 429, overQuota.message, { 'Retry-After': String(overQuota.retryAfter ?? 60) });
    }
    await this.billing?.quotas.storageFull(auth.principal);
    const refuseAndRefund = (message: string) => {
      if (admission?.ok) this.billing!.refundAdmission(auth.principal, admission.charged, admission.endpoint);
      refuse(socket, 429, message, { 'Retry-After': '5' });
    };
    if ((this.perJournal.get(row.id) ?? 0) >= this.opts.maxConnectionsPerJournal) {
      return refuseAndRefund(`Too many editors on this journal (limit ${this.opts.maxConnectionsPerJournal})`);
    }
    if ((this.perOrg.get(orgId) ?? 0) >= this.opts.maxConnectionsPerOrg) {
      return refuseAndRefund(`Too many realtime connections for this organization (limit ${this.opts.maxConnectionsPerOrg})`);
    }
    bump(this.perJournal, row.id, 1);
    bump(this.perOrg, orgId, 1);
    // Loaded before the handshake, so that the connection is served from its first message.
    let live: LiveJournal | undefined;
    try {
      live = await this.registry.open(row);
    } catch (err) {
      bump(this.perJournal, row.id, -1);
      bump(this.perOrg, orgId, -1);
      throw err;
    }
    if (!live) {
      bump(this.perJournal, row.id, -1);
      bump(this.perOrg, orgId, -1);
      return refuse(socket, 404, 'Journal not found');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, live, row, auth.principal, auth.scope === 'read'));
  }

  private connected(ws: WebSocket, live: LiveJournal, row: JournalRow, principal: Principal, readOnly: boolean): void {
    let counted = true;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      bump(this.perJournal, row.id, -1);
      bump(this.perOrg, principal.orgId, -1);
    };
    ws.on('error', (err) => this.logger.debug({ journal_id: row.id, err: err.message }, 'realtime socket error'));
    if (this.closing) {
      uncount();
      ws.close(CloseCode.GOING_AWAY, 'server shutting down');
      return;
    }
    // Deleted or failed while the handshake ran: the editor reconnects (and gets a 404 if deleted).
    if (this.registry.get(row.id) !== live) {
      uncount();
      ws.close(CloseCode.INTERNAL_ERROR, 'journal reloaded; reconnect');
      return;
    }
    const room = this.roomFor(live);
    const conn = new Connection(ws, room, principal, this.logger, this.limits, this.meter, readOnly);
    room.add(conn);
    this.connections.add(conn);
    ws.on('message', (data, isBinary) => conn.handle(toBytes(data), isBinary));
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('close', (code) => {
      this.connections.delete(conn);
      conn.released();
      uncount();
      this.logger.debug({ journal_id: row.id, key_id: principal.keyId, code }, 'editor disconnected');
    });
    this.logger.debug({ journal_id: row.id, key_id: principal.keyId }, 'editor connected');
    conn.start();
  }

  /** The room of a loaded journal, shared by every protocol's connections. */
  roomFor(live: LiveJournal): Room<Connection> {
    const existing = this.rooms.get(live.id);
    if (existing?.live === live) return existing;
    const room = new Room<Connection>(
      live,
      (r) => {
        if (this.rooms.get(r.journalId) === r) this.rooms.delete(r.journalId);
      },
      this.peers?.peersOf(live.id),
    );
    this.rooms.set(live.id, room);
    // Blocks stored without ids (a crash between an editor's update and the server's fix-up).
    live.intake(() => live.assignBlockIds(newBlockId));
    return room;
  }

  /** One query for all open connections' keys; revoked ones are closed with 4401. */
  async closeRevoked(): Promise<void> {
    if (this.connections.size === 0) return;
    const keyIds = new Set<string>();
    for (const c of this.connections) keyIds.add(c.principal.keyId);
    const revoked = new Set<string>();
    try {
      const ids = [...keyIds];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const rows = await this.engine.all<{ id: string }>(
          `SELECT id FROM api_keys WHERE revoked_at IS NOT NULL AND id IN (${chunk.map(() => '?').join(', ')})`,
          chunk,
        );
        for (const r of rows) revoked.add(r.id);
      }
    } catch (err) {
      this.logger.warn({ err }, 'revocation check failed');
      return;
    }
    if (revoked.size === 0) return;
    for (const c of [...this.connections]) {
      if (revoked.has(c.principal.keyId)) c.close(CloseCode.KEY_REVOKED, 'API key revoked');
    }
  }

  private ping(): void {
    for (const room of this.rooms.values()) room.pruneAwareness();
    for (const c of this.connections) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** Refuses new upgrades from now on. */
  stopAccepting(): void {
    this.closing = true;
  }

  /**
   * Closes every editor with `code` and waits (at most `graceMs`) for the close handshakes, then
   * drops what is left.
   */
  async closeAll(code: number, reason: string, graceMs = 2000): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    const sockets = [...this.connections].map((c) => c.ws);
    for (const c of [...this.connections]) c.close(code, reason);
    await Promise.race([
      Promise.all(sockets.map((ws) => (ws.readyState === ws.CLOSED ? undefined : new Promise((r) => ws.once('close', r))))),
      new Promise((r) => setTimeout(r, graceMs).unref()),
    ]);
    for (const ws of sockets) if (ws.readyState !== ws.CLOSED) ws.terminate();
    this.wss.close();
  }
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n <= 0) m.delete(key);
  else m.set(key, n);
}

export function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

/** An HTTP error response on the raw socket: the upgrade never happens, no document data is sent. */
export function refuse(socket: Duplex, status: number, error: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error });
  const lines = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (socket.writable) socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  else socket.destroy();
}
