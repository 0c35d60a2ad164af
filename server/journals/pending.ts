/**
 * What Yjs holds for a document because the dependencies have not arrived ("pending"):
 * `doc.store.pendingStructs` (structs, an update in the V2 encoding, with the clocks they wait
 * for) and `doc.store.pendingDs` (deletions of structs the document does not have yet). Neither is
 * persisted by an update event nor broadcast: the journal's update listener sees only what a
 * transaction integrated. Yjs merges new pending structs into the held update on every update
 * that adds some, and re-applies the held deletions on every update, so both cost memory and
 * event-loop time until they complete; the service caps them (WS_MAX_PENDING_BYTES).
 */
import * as Y from 'yjs';

/** A decoded struct of an update. */
export type Struct = Y.Item | Y.GC | Y.Skip;

/**
 * Yjs re-applies held deletions on every update the journal receives (measured: ~30 µs per KiB
 * of held deletions on every update, against ~2.5 µs per KiB of held structs, and only on updates
 * that add to them), so a held deletion byte counts this many times against maxPendingBytes.
 */
export const PENDING_DELETE_WEIGHT = 16;

/** Weighted size checked against WS_MAX_PENDING_BYTES: structs + PENDING_DELETE_WEIGHT x deletions. */
export function pendingWeight(doc: Y.Doc): number {
  const { pendingStructs, pendingDs } = doc.store;
  return (pendingStructs?.update.byteLength ?? 0) + PENDING_DELETE_WEIGHT * (pendingDs?.byteLength ?? 0);
}

/**
 * Forgets everything held. Nothing of it was persisted or broadcast, so nothing acknowledged is
 * lost: a client whose updates were held sends them again when it next syncs (a reconnect sends
 * whatever the server lacks, deletions included).
 */
export function dropPending(doc: Y.Doc, what: 'all' | 'structs' = 'all'): void {
  doc.store.pendingStructs = null;
  if (what === 'all') doc.store.pendingDs = null;
  drops.set(doc, pendingDrops(doc) + 1);
}

const drops = new WeakMap<Y.Doc, number>();

/** How many times dropPending forgot what `doc` held: an update held before a drop may never complete. */
export function pendingDrops(doc: Y.Doc): number {
  return drops.get(doc) ?? 0;
}

/**
 * The clock each client's structs of an update reach, when some of them are not in `doc` (Yjs
 * holds them): undefined once all are in. Skips are the gaps of an update, not content.
 */
export function heldEnds(doc: Y.Doc, structs: readonly Struct[]): Map<number, number> | undefined {
  let ends: Map<number, number> | undefined;
  for (const s of structs) {
    if (s instanceof Y.Skip) continue;
    const end = s.id.clock + s.length;
    if (end <= Y.getState(doc.store, s.id.client)) continue;
    ends ??= new Map();
    if (end > (ends.get(s.id.client) ?? 0)) ends.set(s.id.client, end);
  }
  return ends;
}

/** Whether every clock in `ends` (heldEnds) is now in `doc`. */
export function endsReached(doc: Y.Doc, ends: ReadonlyMap<number, number>): boolean {
  for (const [client, end] of ends) if (end > Y.getState(doc.store, client)) return false;
  return true;
}

/**
 * Whether applying `structs` may make Yjs retry (integrate) held structs: some clock they wait
 * for is below the client's state once these structs are in. Over-approximates (it assumes every
 * struct of the update integrates), never under.
 */
export function mayCompletePending(doc: Y.Doc, structs: readonly Struct[]): boolean {
  const pending = doc.store.pendingStructs;
  if (!pending) return false;
  const ends = new Map<number, number>();
  for (const s of structs) {
    const end = s.id.clock + s.length;
    if (end > (ends.get(s.id.client) ?? 0)) ends.set(s.id.client, end);
  }
  for (const [client, clock] of pending.missing) {
    if (clock < Math.max(Y.getState(doc.store, client), ends.get(client) ?? 0)) return true;
  }
  return false;
}

/** The held structs, decoded (for the schema check of an update that may complete them). */
export function pendingStructs(doc: Y.Doc): Struct[] {
  const pending = doc.store.pendingStructs;
  return pending ? Y.decodeUpdateV2(pending.update).structs : [];
}

/**
 * The document as an update for a peer at `stateVector`, without what Yjs holds as pending
 * (Y.encodeStateAsUpdate adds it): editors receive only integrated, persisted, checked state.
 */
export function encodeStateAsUpdateWithoutPending(doc: Y.Doc, stateVector?: Uint8Array): Uint8Array {
  const { pendingStructs, pendingDs } = doc.store;
  if (!pendingStructs && !pendingDs) return Y.encodeStateAsUpdate(doc, stateVector);
  doc.store.pendingStructs = null;
  doc.store.pendingDs = null;
  try {
    return Y.encodeStateAsUpdate(doc, stateVector);
  } finally {
    doc.store.pendingStructs = pendingStructs;
    doc.store.pendingDs = pendingDs;
  }
}
