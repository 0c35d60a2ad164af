/**
 * Limits on what one editor connection may make the service hold or do (docs/realtime.md,
 * "Limits for editors"). Each has an environment variable (server/config.ts); the defaults are
 * far above what a person typing, selecting and pasting produces.
 */
import fs from 'node:fs';

export interface EditorLimits {
  /**
   * Updates Yjs holds for a journal because their dependencies have not arrived ("pending"),
   * weighed as bytes of held structs + PENDING_DELETE_WEIGHT x bytes of held deletions
   * (server/journals/pending.ts).
   * Past this, what is held is dropped and the connection that pushed it past is closed (1013).
   */
  maxPendingBytes: number;
  /**
   * Items one editor update may carry: structs, values inside JSON/Any contents and delete-set
   * ranges (update-scan.ts). Decoding and applying costs ~5-10 µs and a few hundred bytes per
   * item whatever the bytes; past this the connection is closed (4413) before anything is built.
   */
  maxUpdateItems: number;
  /**
   * Bytes of messages (updates, awareness) queued to one connection and not yet written to its
   * socket; past this the peer is too slow to follow the journal and is closed (1013). Sync
   * answers are not counted here: one at a time per connection, and the full state is shared.
   */
  maxQueuedBytes: number;
  /** Sustained messages per second per connection (token bucket); 0 = no limit. */
  maxMessagesPerSecond: number;
  /** Bucket size: messages a connection may send at once after being quiet. */
  messageBurst: number;
  /** Sustained bytes per second per connection (token bucket); 0 = no limit. */
  maxBytesPerSecond: number;
  /** Bucket size in bytes (never below the largest allowed message, WS_MAX_PAYLOAD_BYTES). */
  byteBurst: number;
  /** Awareness client ids one connection may hold (a y-websocket client uses one). */
  maxAwarenessClients: number;
  /** Largest awareness state, bytes of its JSON. */
  maxAwarenessStateBytes: number;
  /**
   * How long a connection holding an awareness client id that another connection of the same
   * journal announces as its own has to answer a ping before it is taken for dead and dropped.
   */
  awarenessProbeMs: number;
}

export const DEFAULT_EDITOR_LIMITS: EditorLimits = {
  maxPendingBytes: 256 * 1024,
  maxUpdateItems: 20_000,
  maxQueuedBytes: 16 * 1024 * 1024,
  maxMessagesPerSecond: 100,
  messageBurst: 500,
  maxBytesPerSecond: 1024 * 1024,
  byteBurst: 16 * 1024 * 1024,
  maxAwarenessClients: 4,
  maxAwarenessStateBytes: 16 * 1024,
  awarenessProbeMs: 3000,
};

/**
 * Distinct awareness client ids one connection may ever hold, as a multiple of
 * maxAwarenessClients: a browser tab relays other tabs' states (BroadcastChannel) and briefly
 * holds their ids until their own connections announce them; this bounds the per-id bookkeeping
 * a connection can make the room keep.
 */
export const LIFETIME_AWARENESS_CLIENTS_FACTOR = 16;

/**
 * The default process-wide limit of editor connections (WS_MAX_CONNECTIONS): 80% of the soft
 * limit of open files (each connection is a file descriptor; the rest is left for HTTP requests,
 * the database, Redis, workers and files), read from /proc/self/limits on Linux; 10,000 where it
 * cannot be read.
 */
export function defaultMaxConnections(limitsText = readProcLimits()): number {
  const soft = limitsText === undefined ? undefined : openFilesSoftLimit(limitsText);
  if (soft === undefined) return 10_000;
  return Math.max(16, Math.floor(soft * 0.8));
}

/** The soft "Max open files" of a /proc/<pid>/limits text; undefined when unlimited or absent. */
export function openFilesSoftLimit(limitsText: string): number | undefined {
  const m = /^Max open files\s+(\S+)/m.exec(limitsText);
  if (!m || m[1] === 'unlimited') return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function readProcLimits(): string | undefined {
  try {
    return fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}
