/**
 * The worker's half of a sliced cold load (sliced-load.ts): a journal's stored state (snapshot and
 * update log) merged into one update, decoded into structs, put in causal order and cut into
 * small V1 updates. Applied one after another, each chunk's dependencies are in the chunks before
 * it, so Yjs never holds anything as pending and each `Y.applyUpdate` costs a bounded slice of the
 * main thread instead of one stall for the whole state.
 *
 * The order: every struct after the struct before it of the same client (a chunk must carry a
 * contiguous clock run per client, as Yjs reads one run per client from an update) and after what
 * its item refers to: its origin, its right origin and its parent item. Each chunk is written as
 * Yjs' own mergeUpdates writes a merged update (per client: number of structs, client, first
 * clock, then `struct.write(encoder, 0)`); the delete set goes once, with the last chunk.
 */
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import type { StateInput } from './read-offload.ts';

export interface LoadPlan {
  /** The stored state as one update (null: the snapshot alone, which the caller already holds). */
  merged: Uint8Array | null;
  /** The same state as causally ordered updates; null when it cannot be ordered (apply `merged` at once). */
  chunks: Uint8Array[] | null;
}

/** Bounds of one chunk: structs, and bytes of content. */
export const CHUNK_STRUCTS = 200;
export const CHUNK_BYTES = 256 * 1024;

type Struct = Y.Item | Y.GC | Y.Skip;

export function loadPlan(state: StateInput, limits = { structs: CHUNK_STRUCTS, bytes: CHUNK_BYTES }): LoadPlan {
  const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
  const mergedBytes = all.length === 0 ? null : all.length === 1 ? all[0]! : Y.mergeUpdates(all);
  const merged = state.snapshot && state.updates.length === 0 ? null : mergedBytes;
  if (!mergedBytes) return { merged, chunks: [] };
  const { structs, ds } = Y.decodeUpdate(mergedBytes);
  const order = causalOrder(structs as Struct[]);
  return { merged, chunks: order && writeChunks(order, ds, limits) };
}

/** The IDs an item needs in the document before it can be integrated. */
function dependencies(s: Struct): Y.ID[] {
  if (!(s instanceof Y.Item)) return [];
  const deps: Y.ID[] = [];
  if (s.origin) deps.push(s.origin);
  if (s.rightOrigin) deps.push(s.rightOrigin);
  if (s.parent instanceof Y.ID) deps.push(s.parent);
  return deps;
}

/**
 * `structs` (as decoded: per client, in clock order) ordered so that each comes after everything
 * it depends on. Null when that is impossible (a gap, a cycle, a reference to nothing): such a
 * state is applied in one piece, as Yjs sorts it out itself.
 */
export function causalOrder(structs: readonly Struct[]): Struct[] | null {
  const byClient = new Map<number, Struct[]>();
  for (const s of structs) {
    if (s instanceof Y.Skip) return null;
    let list = byClient.get(s.id.client);
    if (!list) byClient.set(s.id.client, (list = []));
    list.push(s);
  }
  const next = new Map<number, number>(); // client -> index of its next struct to emit
  const clock = new Map<number, number>(); // client -> clock emitted up to (exclusive)
  for (const [client, list] of byClient) {
    next.set(client, 0);
    clock.set(client, list[0]!.id.clock);
    // A client whose first struct does not start at 0 depends on what the document lacks.
    if (list[0]!.id.clock !== 0) return null;
  }
  const out: Struct[] = [];
  const has = (id: Y.ID) => (clock.get(id.client) ?? 0) > id.clock;
  // Work stack of [client, clock it must reach past]; a client twice on it is a cycle.
  const stack: [number, number][] = [];
  const onStack = new Set<number>();
  for (const [client, list] of byClient) {
    const last = list[list.length - 1]!;
    stack.push([client, last.id.clock + last.length - 1]);
    onStack.add(client);
    while (stack.length > 0) {
      const [c, target] = stack[stack.length - 1]!;
      if ((clock.get(c) ?? 0) > target) {
        stack.pop();
        onStack.delete(c);
        continue;
      }
      const i = next.get(c);
      const s = i === undefined ? undefined : byClient.get(c)![i];
      if (!s) return null; // refers past what is stored
      const missing = dependencies(s).find((d) => !has(d));
      if (missing) {
        if (onStack.has(missing.client)) return null;
        stack.push([missing.client, missing.clock]);
        onStack.add(missing.client);
        continue;
      }
      out.push(s);
      next.set(c, i! + 1);
      clock.set(c, s.id.clock + s.length);
    }
  }
  return out.length === structs.length ? out : null;
}

/** `order` cut into V1 updates of at most `limits`, each a contiguous clock run per client. */
function writeChunks(order: readonly Struct[], ds: { clients: Map<number, { clock: number; len: number }[]> }, limits: { structs: number; bytes: number }): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start;
    let bytes = 0;
    while (end < order.length && end - start < limits.structs && (end === start || bytes < limits.bytes)) {
      bytes += contentBytes(order[end]!);
      end++;
    }
    chunks.push(writeUpdate(order.slice(start, end), end === order.length ? ds : undefined));
    start = end;
  }
  if (chunks.length === 0) chunks.push(writeUpdate([], ds));
  return chunks;
}

/** A rough size of a struct's content (strings dominate text-heavy journals). */
function contentBytes(s: Struct): number {
  if (!(s instanceof Y.Item)) return 8;
  const c = s.content as { str?: string; arr?: unknown[]; content?: Uint8Array };
  if (typeof c.str === 'string') return c.str.length + 16;
  if (c.content instanceof Uint8Array) return c.content.byteLength + 16;
  return 16 * s.length;
}

/** One V1 update: the structs (per client, in clock order, contiguous), then the delete set or none. */
function writeUpdate(structs: readonly Struct[], ds?: { clients: Map<number, { clock: number; len: number }[]> }): Uint8Array {
  const runs = new Map<number, Struct[]>();
  for (const s of structs) {
    const run = runs.get(s.id.client);
    if (run) run.push(s);
    else runs.set(s.id.client, [s]);
  }
  const encoder = new Y.UpdateEncoderV1();
  encoding.writeVarUint(encoder.restEncoder, runs.size);
  // Higher client ids first, as Yjs writes them.
  for (const [client, run] of [...runs].sort((a, b) => b[0] - a[0])) {
    encoding.writeVarUint(encoder.restEncoder, run.length);
    encoder.writeClient(client);
    encoding.writeVarUint(encoder.restEncoder, run[0]!.id.clock);
    for (const s of run) s.write(encoder, 0);
  }
  // The delete set, in the V1 layout of Yjs' writeDeleteSet.
  const clients = ds ? [...ds.clients].filter(([, items]) => items.length > 0).sort((a, b) => b[0] - a[0]) : [];
  encoding.writeVarUint(encoder.restEncoder, clients.length);
  for (const [client, items] of clients) {
    encoding.writeVarUint(encoder.restEncoder, client);
    encoding.writeVarUint(encoder.restEncoder, items.length);
    for (const item of items) {
      encoding.writeVarUint(encoder.restEncoder, item.clock);
      encoding.writeVarUint(encoder.restEncoder, item.len);
    }
  }
  return encoder.toUint8Array();
}
