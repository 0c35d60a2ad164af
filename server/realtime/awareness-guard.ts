/**
 * Awareness messages (y-protocols: varUint count, then per entry varUint clientID, varUint clock,
 * varString JSON state), decoded and screened before anything is applied to a room's awareness.
 *
 * What the stock client does, and what the rules are built around:
 * - On open it sends its own state (one entry, its doc's clientID), before it answers the
 *   server's sync step 1; a client whose local state is null sends nothing then.
 * - It re-sends every awareness change it applies, remote ones included: every editor echoes the
 *   states it receives from the server, and a browser tab relays what other tabs of the same
 *   browser post on its BroadcastChannel (often before their own connections deliver it). So a
 *   connection sending another editor's id is normal and proves nothing.
 *
 * Rules (the "own" ids of a connection are the ids it announces, see `planAwareness`):
 * - A state's JSON over maxStateBytes refuses the message (4413).
 * - Entries that would change nothing (y-protocols' clock rule: echoes, stale relays) are skipped.
 * - An entry for an id this connection holds is applied.
 * - An entry for an id another connection holds is not applied. When it is one of this
 *   connection's own ids: taken over at once from a holder that merely relayed it; when the holder
 *   announced it too, the holder is pinged and, if it does not answer, dropped as dead (a client
 *   that reconnected before its old socket was noticed dead) and the entry applied; if it answers,
 *   the id belongs to a live editor and, when the claim was this connection's opening
 *   announcement, the claimant is refused (4403). A holder of another API key is never taken
 *   over from (4403); today only the owning key can open a journal.
 * - An entry setting a state for an id nobody holds is applied and the connection holds the id,
 *   at most maxClients ids at a time and maxLifetimeClients distinct ids over its life (4403).
 */
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

export interface AwarenessEntry {
  clientId: number;
  clock: number;
  /** The state as sent: UTF-8 JSON, `null` for a removal. */
  state: Uint8Array;
}

/** Decodes every entry without parsing the JSON; throws on a truncated or malformed message. */
export function decodeAwarenessUpdate(update: Uint8Array): AwarenessEntry[] {
  const d = decoding.createDecoder(update);
  const n = decoding.readVarUint(d);
  const entries: AwarenessEntry[] = [];
  for (let i = 0; i < n; i++) {
    const clientId = decoding.readVarUint(d);
    const clock = decoding.readVarUint(d);
    const state = decoding.readVarUint8Array(d);
    entries.push({ clientId, clock, state });
  }
  return entries;
}

export function encodeAwarenessEntries(entries: readonly AwarenessEntry[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(e, entry.clientId);
    encoding.writeVarUint(e, entry.clock);
    encoding.writeVarUint8Array(e, entry.state);
  }
  return encoding.toUint8Array(e);
}

const NULL = [0x6e, 0x75, 0x6c, 0x6c]; // "null", as JSON.stringify writes a removal

export function isRemoval(entry: AwarenessEntry): boolean {
  const s = entry.state;
  return s.length === 4 && s[0] === NULL[0] && s[1] === NULL[1] && s[2] === NULL[2] && s[3] === NULL[3];
}

export interface HolderView {
  self: boolean;
  /** The holder announced this id as its own (not a relay). */
  own: boolean;
  sameKey: boolean;
}

export interface RoomAwarenessView {
  /** The clock the room has for the id (undefined: never seen). */
  clock(id: number): number | undefined;
  hasState(id: number): boolean;
  holder(id: number): HolderView | undefined;
}

export interface ConnectionAwarenessView {
  /** Nothing but sync step 1 received yet: this message is the connection's opening announcement. */
  opening: boolean;
  /** Ids the connection announced as its own (fixed once announced). */
  own: ReadonlySet<number>;
  held: ReadonlySet<number>;
  /** Every id the connection ever held. */
  claimed: ReadonlySet<number>;
}

export interface AwarenessLimits {
  maxClients: number;
  maxStateBytes: number;
  maxLifetimeClients: number;
}

export type AwarenessRefusal = { code: 'too-large' | 'forbidden'; reason: string };

export interface AwarenessPlan {
  refuse?: AwarenessRefusal;
  /** Entries to apply now (the last effective one per id). */
  apply: AwarenessEntry[];
  /** The connection's own ids, when this message announces them. */
  announced?: { ids: number[]; opening: boolean };
  /** Ids newly claimed (never held before by this connection). */
  claims: number[];
  /** Entries for own ids that a connection which announced them too holds: probe that holder. */
  contests: AwarenessEntry[];
}

/**
 * Decides what of one awareness message to apply, mirroring y-protocols' rule for which entries
 * change anything (clock greater, or equal for a removal of a present state).
 *
 * Own ids: the non-null entries of the connection's opening announcement (the stock client's
 * first message); a connection that announced nothing then (null local state) announces with the
 * first message that claims an id nobody holds.
 */
export function planAwareness(
  entries: readonly AwarenessEntry[],
  room: RoomAwarenessView,
  conn: ConnectionAwarenessView,
  limits: AwarenessLimits,
): AwarenessPlan {
  const none = (refuse: AwarenessRefusal): AwarenessPlan => ({ refuse, apply: [], claims: [], contests: [] });
  for (const e of entries) {
    if (e.state.byteLength > limits.maxStateBytes) {
      return none({ code: 'too-large', reason: `awareness state over ${limits.maxStateBytes} bytes` });
    }
  }
  const tooMany = () => none({ code: 'forbidden', reason: `more than ${limits.maxClients} awareness client ids on one connection` });
  let announced: AwarenessPlan['announced'];
  const own = new Set(conn.own);
  if (conn.own.size === 0 && conn.opening) {
    const ids = new Set<number>();
    for (const e of entries) if (!isRemoval(e)) ids.add(e.clientId);
    if (ids.size > limits.maxClients) return tooMany();
    if (ids.size > 0) {
      announced = { ids: [...ids], opening: true };
      for (const id of ids) own.add(id);
    }
  }
  const announceOnClaim = conn.own.size === 0 && !announced;
  const overlay = new Map<number, { clock: number; has: boolean }>();
  const apply = new Map<number, AwarenessEntry>();
  const held = new Set(conn.held);
  const claims = new Set<number>();
  const contests = new Map<number, AwarenessEntry>();
  for (const e of entries) {
    const id = e.clientId;
    const seen = overlay.get(id);
    const clock = seen ? seen.clock : (room.clock(id) ?? 0);
    const has = seen ? seen.has : room.hasState(id);
    const removal = isRemoval(e);
    if (!(clock < e.clock || (clock === e.clock && removal && has))) continue;
    const holder = held.has(id) ? { self: true, own: true, sameKey: true } : room.holder(id);
    if (holder && !holder.self) {
      if (!holder.sameKey) {
        return none({ code: 'forbidden', reason: `awareness client id ${id} belongs to another editor` });
      }
      if (!own.has(id)) continue; // an echo or a relay of someone else's state
      if (holder.own) {
        contests.set(id, e);
        continue;
      }
      // A relay held it until its owner announced it: the owner takes it over (below).
    } else if (!holder) {
      if (removal) continue; // nobody holds it: nothing to remove
      if (announceOnClaim) own.add(id);
    }
    if (!removal && !conn.claimed.has(id) && !claims.has(id)) {
      if (conn.claimed.size + claims.size + 1 > limits.maxLifetimeClients) {
        return none({ code: 'forbidden', reason: `more than ${limits.maxLifetimeClients} awareness client ids over one connection` });
      }
      claims.add(id);
    }
    if (removal) held.delete(id);
    else held.add(id);
    overlay.set(id, { clock: e.clock, has: !removal });
    apply.set(id, e);
  }
  if (held.size > limits.maxClients) return tooMany();
  if (announceOnClaim) {
    const ids = [...own].filter((id) => !conn.own.has(id));
    if (ids.length > 0) announced = { ids, opening: false };
  }
  return { apply: [...apply.values()], announced, claims: [...claims], contests: [...contests.values()] };
}
