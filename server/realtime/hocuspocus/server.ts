/**
 * The Hocuspocus endpoint `ws(s)://{host}/v1/collaboration` (docs/realtime.md): the protocol of
 * `@hocuspocus/provider` (Tiptap's default provider) beside the y-websocket endpoint, over the
 * same live journals, rooms, limits and close codes. One socket carries many documents (journal
 * ids), each authorised on its own by the token of its Auth message (an API key or an editor
 * token; the upgrade's `Authorization: Bearer` when the token is empty), each an editor
 * connection of the journal's room (document.ts).
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerToken } from '../../auth/middleware.ts';
import { meterNameOf } from '../../billing/endpoints.ts';
import type { BillingService } from '../../billing/service.ts';
import type { JournalRegistry } from '../../journals/registry.ts';
import type { JournalStore } from '../../journals/store.ts';
import type { Logger } from '../../logger.ts';
import type { StorageEngine } from '../../storage/engine.ts';
import { CloseCode } from '../close-codes.ts';
import { authenticateUpgrade, revokedKeyIds, type EditorTokens } from '../credentials.ts';
import { realtimeEndpoints } from '../endpoints.ts';
import { refuse, toBytes, type RealtimeHub } from '../hub.ts';
import { DEFAULT_EDITOR_LIMITS, type EditorLimits } from '../limits.ts';
import { MessageRateLimiter } from '../rate-limit.ts';
import { DocumentSocket, HocuspocusDocument, type SharedSocket } from './document.ts';
import {
  encodeAuthenticated,
  encodePermissionDenied,
  HocuspocusType,
  innerMessage,
  MalformedFrame,
  readAuthToken,
  readFrame,
  readStateless,
  type Frame,
} from './protocol.ts';

export const COLLABORATION_PATH = '/v1/collaboration';

/** Documents one socket may have open (authorised) at once; more are denied. */
export const MAX_DOCUMENTS_PER_SOCKET = 100;
/** Documents waiting for their Auth reply at once, on one socket; more close the socket (1013). */
const MAX_AUTHORISING = 16;
/** Messages and bytes held for documents whose Auth is not answered yet; more close the socket (1013). */
const MAX_QUEUED_MESSAGES = 256;
const MAX_QUEUED_BYTES = 1024 * 1024;
/** A socket with no authorised document this long after opening (or after its last one closed) is closed with 4401. */
export const AUTH_TIMEOUT_MS = 10_000;

export interface HocuspocusOptions {
  maxPayloadBytes: number;
  revocationPollMs?: number;
  pingIntervalMs?: number;
  limits?: Partial<EditorLimits>;
  authTimeoutMs?: number;
}

export class HocuspocusEndpoint {
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<HocuspocusSocket>();
  private readonly timers: NodeJS.Timeout[] = [];
  readonly limits: EditorLimits;

  constructor(
    readonly hub: RealtimeHub,
    readonly engine: StorageEngine,
    readonly store: JournalStore,
    readonly registry: JournalRegistry,
    readonly tokens: EditorTokens,
    readonly opts: HocuspocusOptions,
    readonly logger: Logger,
    readonly billing?: BillingService,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes, perMessageDeflate: false });
    const limits = { ...DEFAULT_EDITOR_LIMITS, ...opts.limits };
    this.limits = { ...limits, byteBurst: Math.max(limits.byteBurst, opts.maxPayloadBytes) };
    const revocation = setInterval(() => void this.closeRevoked(), opts.revocationPollMs ?? 1000);
    const ping = setInterval(() => this.ping(), opts.pingIntervalMs ?? 30_000);
    for (const t of [revocation, ping]) {
      t.unref();
      this.timers.push(t);
    }
    hub.serve(COLLABORATION_PATH, this);
  }

  /** Open documents (journal connections), over every socket. */
  get connectionCount(): number {
    let n = 0;
    for (const s of this.sockets) n += s.documents.size;
    return n;
  }

  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!this.hub.accepting) return refuse(socket, 503, 'Server shutting down', { 'Retry-After': '5' });
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (!this.hub.accepting) return ws.close(CloseCode.GOING_AWAY, 'server shutting down');
      const s = new HocuspocusSocket(this, ws, bearerToken(req.headers.authorization));
      this.sockets.add(s);
      ws.on('close', () => {
        this.sockets.delete(s);
        s.released();
      });
    });
  }

  /** Documents of revoked keys are closed with 4401 (their sockets stay open for the others). */
  async closeRevoked(): Promise<void> {
    const docs = [...this.sockets].flatMap((s) => [...s.documents.values()]);
    if (docs.length === 0) return;
    let revoked: Set<string>;
    try {
      revoked = await revokedKeyIds(this.engine, new Set(docs.map((d) => d.principal.keyId)));
    } catch (err) {
      this.logger.warn({ err }, 'revocation check failed');
      return;
    }
    for (const d of docs) if (revoked.has(d.principal.keyId)) d.close(CloseCode.KEY_REVOKED, 'API key revoked');
  }

  private ping(): void {
    for (const s of this.sockets) s.ping();
  }

  /** Closes every socket with `code`, waits (at most `graceMs`) for the close handshakes. */
  async closeAll(code: number, reason: string, graceMs = 2000): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const sockets = [...this.sockets].map((s) => s.ws);
    for (const s of [...this.sockets]) s.close(code, reason);
    await Promise.race([
      Promise.all(sockets.map((ws) => (ws.readyState === ws.CLOSED ? undefined : new Promise((r) => ws.once('close', r))))),
      new Promise((r) => setTimeout(r, graceMs).unref()),
    ]);
    for (const ws of sockets) if (ws.readyState !== ws.CLOSED) ws.terminate();
    this.wss.close();
  }
}

/** One WebSocket of the endpoint and the documents open on it. */
class HocuspocusSocket implements SharedSocket {
  /** Authorised documents by address. */
  readonly documents = new Map<string, HocuspocusDocument>();
  /** Addresses whose Auth is being answered, with the messages that came meanwhile. */
  private readonly authorising = new Map<string, Uint8Array[]>();
  private queuedBytes = 0;
  private readonly rate: MessageRateLimiter;
  private readonly pausedBy = new Set<object>();
  private alive = true;
  private closed = false;
  private authTimer?: NodeJS.Timeout;

  constructor(
    private readonly endpoint: HocuspocusEndpoint,
    readonly ws: WebSocket,
    /** The upgrade's `Authorization: Bearer`, used for Auth messages with an empty token. */
    private readonly bearer: string | undefined,
  ) {
    this.rate = new MessageRateLimiter(endpoint.limits);
    ws.on('error', (err) => endpoint.logger.debug({ err: err.message }, 'hocuspocus socket error'));
    ws.on('message', (data, isBinary) => this.handle(toBytes(data), isBinary));
    ws.on('pong', () => {
      this.alive = true;
      for (const d of this.documents.values()) d.socket.emit('pong');
    });
    this.armAuthTimer();
  }

  private armAuthTimer(): void {
    clearTimeout(this.authTimer);
    const ms = this.endpoint.opts.authTimeoutMs ?? AUTH_TIMEOUT_MS;
    this.authTimer = setTimeout(() => {
      if (this.documents.size === 0 && this.authorising.size === 0) this.close(CloseCode.KEY_REVOKED, 'no document authorised; send an Auth message with a token');
    }, ms);
    this.authTimer.unref();
  }

  pause(by: object): void {
    this.pausedBy.add(by);
    this.ws.pause();
  }

  resume(by: object): void {
    if (!this.pausedBy.delete(by) || this.pausedBy.size > 0) return;
    if (!this.closed) this.ws.resume();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const d of [...this.documents.values()]) d.close(code, reason);
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason.slice(0, 120));
  }

  /** The socket is gone: every document with it. */
  released(): void {
    this.closed = true;
    clearTimeout(this.authTimer);
    for (const d of [...this.documents.values()]) this.drop(d, 1006);
    this.authorising.clear();
  }

  ping(): void {
    if (!this.alive) {
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  private refuse(code: number, reason: string): void {
    this.close(code, reason);
    this.ws.pause();
    setTimeout(() => {
      if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate();
    }, 250).unref();
  }

  private handle(data: Uint8Array, isBinary: boolean): void {
    if (this.closed) return;
    const { logger, limits } = this.endpoint;
    if (!isBinary) return this.close(CloseCode.UNSUPPORTED_DATA, 'text frames are not supported; send binary Hocuspocus messages');
    // The socket's own rate limits, over all its documents (each document also counts its own).
    const over = this.rate.admit(data.byteLength);
    if (over !== 'ok') {
      logger.warn({ limit: over }, 'hocuspocus connection over its rate limit');
      return this.refuse(
        CloseCode.RATE_LIMITED,
        over === 'messages'
          ? `rate limit: more than ${limits.maxMessagesPerSecond} messages per second; reconnect later`
          : `rate limit: more than ${limits.maxBytesPerSecond} bytes per second; reconnect later`,
      );
    }
    let frame: Frame;
    try {
      frame = readFrame(data);
      this.route(frame);
    } catch (err) {
      if (!(err instanceof MalformedFrame)) throw err;
      logger.warn({ err: err.message }, 'malformed hocuspocus message');
      this.close(CloseCode.MALFORMED, 'malformed message');
    }
  }

  private route(frame: Frame): void {
    const doc = this.documents.get(frame.address);
    if (frame.type === HocuspocusType.Pong || frame.type === HocuspocusType.SyncStatus || frame.type === HocuspocusType.Ping) return;
    if (frame.type === HocuspocusType.Auth) {
      const token = readAuthToken(frame);
      if (token === undefined || doc || this.authorising.has(frame.address)) return; // a refreshed token: checked at the start only
      return this.authorise(frame.address, frame.documentName, token);
    }
    if (!doc) {
      const queue = this.authorising.get(frame.address);
      // Messages of a document not (yet) authorised: held while its Auth is answered, else dropped.
      if (!queue) return;
      this.queuedBytes += frame.data.byteLength;
      queue.push(frame.data);
      if (this.queuedBytes > MAX_QUEUED_BYTES || [...this.authorising.values()].reduce((n, q) => n + q.length, 0) > MAX_QUEUED_MESSAGES) {
        this.refuse(CloseCode.TRY_AGAIN_LATER, 'too many messages before authentication; reconnect later');
      }
      return;
    }
    this.deliver(doc, frame);
  }

  private deliver(doc: HocuspocusDocument, frame: Frame): void {
    switch (frame.type) {
      case HocuspocusType.Sync:
      case HocuspocusType.SyncReply:
      case HocuspocusType.Awareness:
      case HocuspocusType.QueryAwareness:
        doc.handle(innerMessage(frame), true);
        return;
      case HocuspocusType.Stateless:
        readStateless(frame); // no stateless hooks here: decoded and dropped
        return;
      case HocuspocusType.BroadcastStateless: {
        const payload = readStateless(frame);
        for (const c of doc.room.connections) if (c instanceof HocuspocusDocument) c.sendStateless(payload);
        return;
      }
      case HocuspocusType.Close:
        this.drop(doc, 1000); // the provider detached: this document only, nothing sent back
        return;
      default:
        return; // unknown types: ignored, as by y-websocket
    }
  }

  /** Answers an Auth message: the journal is opened and joins its room, or the document is denied. */
  private authorise(address: string, journalId: string, token: string): void {
    if (this.documents.size + this.authorising.size >= MAX_DOCUMENTS_PER_SOCKET) {
      this.ws.send(encodePermissionDenied(address, `too many documents on this connection (limit ${MAX_DOCUMENTS_PER_SOCKET})`));
      return;
    }
    if (this.authorising.size >= MAX_AUTHORISING) return this.refuse(CloseCode.TRY_AGAIN_LATER, 'too many documents authorising at once; reconnect later');
    this.authorising.set(address, []);
    this.open(address, journalId, token).catch((err) => {
      this.endpoint.logger.error({ err }, 'hocuspocus authorisation failed');
      this.deny(address, '503 service unavailable; retry');
    });
  }

  private deny(address: string, reason: string): void {
    const queued = this.authorising.get(address);
    if (queued) for (const q of queued) this.queuedBytes -= q.byteLength;
    this.authorising.delete(address);
    if (!this.closed && this.ws.readyState === this.ws.OPEN) this.ws.send(encodePermissionDenied(address, reason));
  }

  private async open(address: string, journalId: string, token: string): Promise<void> {
    const { engine, tokens, store, billing, hub, registry, logger, limits } = this.endpoint;
    const auth = await authenticateUpgrade(engine, tokens, journalId, token === '' ? this.bearer : undefined, token || undefined);
    if (!auth.ok) return this.deny(address, `${auth.status} ${auth.error}`);
    const row = await store.findOwned(journalId, auth.principal.keyId);
    if (!row) return this.deny(address, '404 Journal not found');
    const admission = await billing?.checkRateLimit(auth.principal, meterNameOf(realtimeEndpoints.collaboration));
    if (admission && !admission.ok) return this.deny(address, `${admission.status} ${JSON.stringify(admission.body)}`);
    const refund = () => {
      if (admission?.ok) billing!.refundAdmission(auth.principal, admission.charged, admission.endpoint);
    };
    const slot = hub.claimSlot(row.id, auth.principal.orgId);
    if (typeof slot !== 'function') {
      refund();
      return this.deny(address, `429 ${slot.refused}`);
    }
    let live;
    try {
      live = await registry.open(row);
    } catch (err) {
      slot();
      refund();
      throw err;
    }
    if (!live) {
      slot();
      refund();
      return this.deny(address, '404 Journal not found');
    }
    if (this.closed || !hub.accepting || registry.get(row.id) !== live || !this.authorising.has(address)) {
      slot();
      refund();
      return this.deny(address, '503 journal reloaded or socket closing meanwhile; retry');
    }
    const readOnly = auth.scope === 'read';
    const queued = this.authorising.get(address)!;
    for (const q of queued) this.queuedBytes -= q.byteLength;
    this.authorising.delete(address);
    this.ws.send(encodeAuthenticated(address, readOnly ? 'readonly' : 'read-write'));
    const room = hub.roomFor(live);
    const socket = new DocumentSocket(this, address);
    const doc = new HocuspocusDocument(socket, room, auth.principal, logger, limits, hub.meter, readOnly, slot);
    socket.once('close', () => this.drop(doc, 1000));
    room.add(doc);
    this.documents.set(address, doc);
    clearTimeout(this.authTimer);
    logger.debug({ journal_id: row.id, key_id: auth.principal.keyId, read_only: readOnly }, 'hocuspocus document opened');
    doc.start();
    for (const q of queued) if (this.documents.get(address) === doc) this.deliver(doc, readFrame(q));
  }

  /** Forgets a closed document: out of its room, its slot released. */
  private drop(doc: HocuspocusDocument, code: number): void {
    if (this.documents.get(doc.address) !== doc) return;
    this.documents.delete(doc.address);
    doc.socket.gone(code);
    doc.released();
    doc.detach();
    doc.release();
    if (this.documents.size === 0 && !this.closed) this.armAuthTimer();
  }
}
