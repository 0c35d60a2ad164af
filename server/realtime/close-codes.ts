/**
 * WebSocket close codes the service sends. The stock y-websocket client (v3) stops reconnecting
 * on 4400-4499 (a deliberate refusal that a retry cannot fix) and reconnects, with backoff, on
 * everything else. Reasons are short plain text (at most 123 bytes by RFC 6455).
 */
import type { UnloadReason } from '../journals/live.ts';

export const CloseCode = {
  /** The server is shutting down; reconnect later. */
  GOING_AWAY: 1001,
  /** A text frame: the protocol is binary only. */
  UNSUPPORTED_DATA: 1003,
  /** A message that does not decode as y-protocols sync/awareness. */
  MALFORMED: 1007,
  /** A message larger than WS_MAX_PAYLOAD_BYTES (sent by the ws library itself). */
  TOO_BIG: 1009,
  /** The journal hit a storage error and was reloaded; reconnecting resyncs. */
  INTERNAL_ERROR: 1011,
  /** The connection could not keep up with the journal's updates; reconnecting resyncs. */
  TRY_AGAIN_LATER: 1013,
  /**
   * The connection sent more than WS_MAX_MESSAGES_PER_SECOND messages or WS_MAX_BYTES_PER_SECOND
   * bytes per second (beyond the burst); the reason says which. The stock client reconnects with
   * backoff, through the upgrade rate limit. Same code as TRY_AGAIN_LATER.
   */
  RATE_LIMITED: 1013,
  /**
   * An update of this connection pushed what Yjs holds for the journal waiting for missing
   * dependencies past WS_MAX_PENDING_BYTES; everything held was dropped (it was never persisted
   * nor broadcast). Reconnecting resyncs: the client then sends whatever the server lacks.
   * Same code as TRY_AGAIN_LATER.
   */
  PENDING_LIMIT: 1013,
  /**
   * The organization's editors sent more than its tier's realtime bytes per minute (every
   * instance together; docs/billing.md); the reason names the quota and the seconds until the
   * minute ends. The stock client reconnects with backoff; upgrades answer 429 with Retry-After
   * until then. Same code as TRY_AGAIN_LATER.
   */
  ORG_REALTIME_QUOTA: 1013,
  /** The API key behind this connection was revoked. Permanent. */
  KEY_REVOKED: 4401,
  /**
   * Awareness refused: more than WS_MAX_AWARENESS_CLIENTS client ids on one connection (or more
   * than 16 times that over its life), or, in its opening announcement, a client id that a live
   * editor holds. Nothing of the message was applied. Permanent.
   */
  AWARENESS_FORBIDDEN: 4403,
  /**
   * Update refused: the organization's journals store its tier's quota of bytes (docs/billing.md).
   * Nothing of it was applied. Permanent until storage is freed (the stock client stops
   * reconnecting); viewing editors are not closed.
   */
  STORAGE_QUOTA: 4402,
  /**
   * An update with changes from a read-only connection (an editor token minted with
   * `scope: "read"`). Nothing of it was applied. Permanent. (Hocuspocus connections are not
   * closed: they are answered with a sync status "not saved".)
   */
  READ_ONLY: 4405,
  /** The journal was deleted. Permanent. */
  JOURNAL_DELETED: 4404,
  /** Awareness refused: a state's JSON over WS_MAX_AWARENESS_STATE_BYTES. Nothing applied. Permanent. */
  AWARENESS_TOO_LARGE: 4413,
  /**
   * An update with more than WS_MAX_UPDATE_ITEMS items (structs, JSON/Any values, deletion
   * ranges), refused before it is decoded. Nothing applied. Permanent: the client would resend it.
   */
  UPDATE_TOO_LARGE: 4413,
  /**
   * Update refused: it would put structure outside the journal schema into the document (text or
   * raw content directly in the fragment, an unknown node type, blocks nested deeper than
   * MAX_NESTING_DEPTH; see update-guard.ts), content in another root than the `prosemirror`
   * fragment, or a subdocument. Nothing of it was applied. Permanent: the client
   * would send the same update again on every reconnect.
   */
  UPDATE_REFUSED: 4422,
} as const;

/**
 * The close code for each reason a journal unloads while editors hold it: a deletion is
 * permanent, a shutdown a "come back later", anything else a reconnect that reloads it.
 */
export const CLOSE_CODE_FOR_UNLOAD: Record<UnloadReason, number> = {
  deleted: CloseCode.JOURNAL_DELETED,
  shutdown: CloseCode.GOING_AWAY,
  'storage-error': CloseCode.INTERNAL_ERROR,
  idle: CloseCode.INTERNAL_ERROR,
  'memory-cap': CloseCode.INTERNAL_ERROR,
};
