/**
 * The live connection of one journal: a Y.Doc kept in sync by the stock y-websocket client
 * (WebsocketProvider) over `/v1/journals/realtime/{id}`, authenticated with an editor token
 * (`?token=`, never the API key). With a key, tokens come from `POST /v1/journals/editor/session`
 * and are renewed a minute before they expire (the provider reuses `params` on reconnect); a
 * token from a `#token=` link is used alone until it expires. Reports the connection state and
 * whether this editor holds changes the service has not received yet.
 */
import { WebsocketProvider } from 'y-websocket';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { ApiError, type Api } from '../api.ts';
import { tokenClaims } from '../session.ts';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'closed';

export interface Status {
  state: ConnectionState;
  /** Local changes made while not connected, not yet sent (they go at the next sync). */
  unsent: boolean;
  /** Why the connection closed for good, or what is wrong with the token. */
  detail?: string;
}

/** Permanent close codes of the service (docs/realtime.md) and what they mean to the user. */
const CLOSE_REASONS: Record<number, string> = {
  4401: 'The API key was revoked.',
  4403: 'The service refused this editor’s presence information.',
  4404: 'The journal was deleted.',
  4413: 'This editor’s presence information was too large.',
  4422: 'The service refused a change that does not fit the journal’s schema.',
};

/** Renew this long before the token expires. */
const RENEW_BEFORE_MS = 60_000;
/** After this many failed connection attempts, ask the REST API why (a refused upgrade gives the browser no reason). */
const PROBE_AFTER_FAILURES = 3;

export interface CollabOptions {
  journalId: string;
  api: Api | null;
  /** A token from a link (used as given), or null to mint one with the key. */
  token: string | null;
  user: { name: string; color: string };
  onStatus: (s: Status) => void;
}

export class Collab {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  provider: WebsocketProvider | null = null;
  private status: Status = { state: 'connecting', unsent: false };
  private everConnected = false;
  private failures = 0;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;
  private tokenExpiresAt: Date | null = null;

  constructor(private readonly opts: CollabOptions) {
    // Set before the provider connects: the service takes the ids of a connection's first
    // announcement as its own (docs/realtime.md, Awareness).
    this.awareness.setLocalStateField('user', opts.user);
    this.doc.on('update', (_update: Uint8Array, origin: unknown) => {
      if (origin !== this.provider && !this.provider?.wsconnected && !this.status.unsent) this.set({ unsent: true });
    });
    addEventListener('online', this.onNetwork);
    addEventListener('offline', this.onNetwork);
  }

  /** Resolves once the document has its first sync (the editor is mounted then), or rejects with why it cannot open. */
  async start(): Promise<void> {
    const token = this.opts.token ?? (await this.mint());
    if (this.destroyed) return;
    this.noteExpiry(token);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const provider = new WebsocketProvider(`${scheme}://${location.host}/v1/journals/realtime`, this.opts.journalId, this.doc, {
      awareness: this.awareness,
      params: { token },
    });
    this.provider = provider;
    provider.on('status', ({ status }) => {
      if (status === 'connected') {
        this.everConnected = true;
        this.set({ state: 'connected', detail: undefined });
      } else if (this.status.state !== 'closed') {
        this.set({ state: !navigator.onLine ? 'offline' : this.everConnected ? 'reconnecting' : 'connecting' });
      }
    });
    provider.on('sync', (synced: boolean) => {
      if (synced) {
        // Our sync step 2 (everything the service lacks) went out when the service's step 1 came.
        this.failures = 0;
        this.set({ unsent: false });
      }
    });
    provider.on('connection-close', (event) => {
      // null: closed by this side (disconnect(), or the provider's silence watchdog).
      if (!event || this.provider?.synced) return;
      this.failures++;
      // Deferred: the provider is still inside its close handling, and probe() may disconnect it.
      if (this.failures % PROBE_AFTER_FAILURES === 0) setTimeout(() => void this.probe(), 0);
    });
    provider.on('closed', ({ code, reason }) => {
      this.set({ state: 'closed', detail: CLOSE_REASONS[code] ? `${CLOSE_REASONS[code]} (${code} ${reason})` : `Closed by the service: ${code} ${reason}` });
      clearTimeout(this.renewTimer);
    });
    await new Promise<void>((resolve, reject) => {
      if (provider.synced) return resolve();
      const onSync = (synced: boolean) => {
        if (!synced) return;
        provider.off('sync', onSync);
        resolve();
      };
      provider.on('sync', onSync);
      provider.on('closed', ({ code, reason }) => reject(new Error(CLOSE_REASONS[code] ?? `Closed by the service: ${code} ${reason}`)));
      this.failOpen = reject;
    });
  }

  /** Rejects the pending start() when a probe finds the journal cannot be opened. */
  private failOpen: ((err: Error) => void) | undefined;

  private async mint(): Promise<string> {
    const s = await this.opts.api!.editorSession(this.opts.journalId);
    return s.token;
  }

  private noteExpiry(token: string): void {
    clearTimeout(this.renewTimer);
    const claims = tokenClaims(token);
    this.tokenExpiresAt = claims?.expiresAt ?? null;
    if (!claims) return;
    const wait = Math.max(5_000, claims.expiresAt.getTime() - Date.now() - RENEW_BEFORE_MS);
    this.renewTimer = setTimeout(() => void this.renew(), Math.min(wait, 2 ** 31 - 1));
  }

  /** A fresh token in `provider.params` before the current one expires (the open socket does not need it; a reconnect does). */
  private async renew(): Promise<void> {
    if (this.destroyed || this.status.state === 'closed') return;
    if (!this.opts.api) {
      // A link's token cannot be renewed: the open connection stays, a reconnect after expiry fails.
      this.set({ detail: 'The link’s editor token expires soon: open the journal from a new link or sign in to keep editing after a disconnection.' });
      return;
    }
    try {
      const token = await this.mint();
      if (this.provider) this.provider.params = { ...this.provider.params, token };
      this.noteExpiry(token);
      if (this.status.detail?.startsWith('Could not renew')) this.set({ detail: undefined });
    } catch (err) {
      this.set({ detail: `Could not renew the editor token: ${(err as Error).message}` });
      if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404)) return this.stop(`${(err as Error).message}`);
      this.renewTimer = setTimeout(() => void this.renew(), 15_000);
    }
  }

  /** Repeated refusals at the upgrade: ask the REST API (or the token's expiry) why, and stop when it will not get better. */
  private async probe(): Promise<void> {
    if (this.destroyed || this.status.state === 'connected') return;
    if (!this.opts.api) {
      if (this.tokenExpiresAt && this.tokenExpiresAt.getTime() <= Date.now()) this.stop('The link’s editor token has expired: ask for a new link, or sign in with an API key.');
      return;
    }
    try {
      // A new token: the old one may simply have expired while we were offline.
      const token = await this.mint();
      if (this.provider) this.provider.params = { ...this.provider.params, token };
      this.noteExpiry(token);
    } catch (err) {
      if (err instanceof ApiError && err.status !== 0 && err.status !== 429 && err.status < 500) this.stop(err.message);
    }
  }

  private stop(detail: string): void {
    if (this.status.state === 'closed') return;
    this.provider?.disconnect();
    clearTimeout(this.renewTimer);
    this.set({ state: 'closed', detail });
    this.failOpen?.(new Error(detail));
  }

  private onNetwork = () => {
    if (this.status.state === 'closed' || this.status.state === 'connected') return;
    this.set({ state: navigator.onLine ? (this.everConnected ? 'reconnecting' : 'connecting') : 'offline' });
  };

  private set(change: Partial<Status>): void {
    this.status = { ...this.status, ...change };
    this.opts.onStatus(this.status);
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.renewTimer);
    removeEventListener('online', this.onNetwork);
    removeEventListener('offline', this.onNetwork);
    this.provider?.destroy();
    this.awareness.destroy();
    this.doc.destroy();
  }
}
