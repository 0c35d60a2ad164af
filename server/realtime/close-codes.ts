/**
 * WebSocket close codes the service sends. The stock y-websocket client (v3) stops reconnecting
 * on 4400-4499 (a deliberate refusal that a retry cannot fix) and reconnects, with backoff, on
 * everything else. Reasons are short plain text (at most 123 bytes by RFC 6455).
 */
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
  /** The API key behind this connection was revoked. Permanent. */
  KEY_REVOKED: 4401,
  /** The journal was deleted. Permanent. */
  JOURNAL_DELETED: 4404,
} as const;

/** Close code for a LiveJournal close reason (see JournalRegistry). */
export function closeCodeForUnload(reason: string): number {
  if (reason === 'journal deleted') return CloseCode.JOURNAL_DELETED;
  if (reason === 'server shutting down') return CloseCode.GOING_AWAY;
  return CloseCode.INTERNAL_ERROR;
}
