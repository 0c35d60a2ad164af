/**
 * How a sliced cold load (sliced-load.ts) cuts one stored state (a V1 update) into small updates
 * that apply one after another with nothing ever pending: every struct comes after the struct
 * before it of the same client and after what its item refers to (origin, right origin, parent
 * item). Yjs reads one contiguous clock run per client from an update, and in V1 each struct's
 * bytes stand alone (no state shared between structs, unlike V2's column encoders), so a chunk is
 * written as Yjs writes a merged update (per client: number of structs, client, first clock) with
 * each run's bytes copied from the stored state; the delete set goes once, with the last chunk.
 *
 * The state is read here without decoding content (strings are skipped by their byte length, and
 * their length in UTF-16 units counted from the UTF-8 lead bytes), so planning costs a few small
 * arrays, not a second copy of the document: decoding a 20 MB state with Y.decodeUpdate took
 * 4-6 times its size in heap, over the 4x budget of a whole cold load. Scanning and ordering are
 * generators that yield every few hundred structs, so the caller runs them in slices.
 */
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/** Bounds of one chunk: structs, and bytes of the stored state. */
export const CHUNK_STRUCTS = 100;
export const CHUNK_BYTES = 256 * 1024;
/** Structs, and bytes scanned, between two chances to yield. */
const STEP = 256;
const STEP_BYTES = 1024 * 1024;

/** Where each struct of the state is, and what it needs before it (by index, in update order). */
export interface StateIndex {
  update: Uint8Array;
  start: number[];
  end: number[];
  client: number[];
  clock: number[];
  length: number[];
  /** Up to three dependencies per struct (origin, right origin, parent item): client and clock, -1 when none. */
  depClient: number[];
  depClock: number[];
  /** Client -> [first, last] struct index (each client's structs are consecutive). */
  runs: Map<number, [number, number]>;
  /** Byte offset of the delete set. */
  dsStart: number;
}

/** The state can be cut only if it holds no Skip and each client's structs once, from clock 0. */
export class UncuttableState extends Error {}

/** Skips a lib0 `any` value (ContentAny, ContentDoc options). */
function skipAny(d: decoding.Decoder): void {
  decoding.readAny(d);
}

function skipVarString(d: decoding.Decoder): void {
  const n = decoding.readVarUint(d);
  d.pos += n;
}

/** UTF-16 length of the UTF-8 string of `n` bytes at `d.pos` (what the decoded string's length is). */
function utf16Length(d: decoding.Decoder, n: number): number {
  const a = d.arr;
  let units = 0;
  for (let i = d.pos, e = d.pos + n; i < e; i++) {
    const b = a[i]!;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  d.pos += n;
  return units;
}

/** Reads the structs of a V1 update without decoding content; yields every STEP structs. */
export function* scanState(update: Uint8Array, out: { index?: StateIndex }): Generator<void, void> {
  const d = decoding.createDecoder(update);
  const ix: StateIndex = { update, start: [], end: [], client: [], clock: [], length: [], depClient: [], depClock: [], runs: new Map(), dsStart: 0 };
  const dep = (client: number, clock: number) => {
    ix.depClient.push(client);
    ix.depClock.push(clock);
  };
  let yieldedAt = 0;
  const clients = decoding.readVarUint(d);
  for (let c = 0; c < clients; c++) {
    const count = decoding.readVarUint(d);
    const client = decoding.readVarUint(d);
    let clock = decoding.readVarUint(d);
    if (ix.runs.has(client) || clock !== 0) throw new UncuttableState('a client twice, or not from clock 0');
    if (count === 0) continue;
    ix.runs.set(client, [ix.start.length, ix.start.length + count - 1]);
    for (let s = 0; s < count; s++) {
      const start = d.pos;
      const info = decoding.readUint8(d);
      let length: number;
      const deps = ix.depClient.length;
      if (info === 10) throw new UncuttableState('a skip');
      if ((info & 0b11111) === 0) {
        length = decoding.readVarUint(d); // GC
      } else {
        if (info & 0b10000000) dep(decoding.readVarUint(d), decoding.readVarUint(d)); // origin
        if (info & 0b01000000) dep(decoding.readVarUint(d), decoding.readVarUint(d)); // right origin
        if ((info & 0b11000000) === 0) {
          if (decoding.readVarUint(d) === 1) skipVarString(d); // a root type's name
          else dep(decoding.readVarUint(d), decoding.readVarUint(d)); // parent item
          if (info & 0b00100000) skipVarString(d); // parentSub
        }
        switch (info & 0b11111) {
          case 1: // deleted
            length = decoding.readVarUint(d);
            break;
          case 2: // JSON
            length = decoding.readVarUint(d);
            for (let i = 0; i < length; i++) skipVarString(d);
            break;
          case 3: // binary
            d.pos += decoding.readVarUint(d);
            length = 1;
            break;
          case 4: // string
            length = utf16Length(d, decoding.readVarUint(d));
            break;
          case 5: // embed
            skipVarString(d);
            length = 1;
            break;
          case 6: // format
            skipVarString(d);
            skipVarString(d);
            length = 1;
            break;
          case 7: {
            // type: XmlElement (3) and XmlHook (5) carry a name
            const ref = decoding.readVarUint(d);
            if (ref === 3 || ref === 5) skipVarString(d);
            length = 1;
            break;
          }
          case 8: // any
            length = decoding.readVarUint(d);
            for (let i = 0; i < length; i++) skipAny(d);
            break;
          case 9: // subdocument
            skipVarString(d);
            skipAny(d);
            length = 1;
            break;
          default:
            throw new UncuttableState(`unknown content ${info & 0b11111}`);
        }
      }
      if (d.pos > update.byteLength) throw new UncuttableState('truncated');
      while (ix.depClient.length < deps + 3) dep(-1, -1);
      ix.start.push(start);
      ix.end.push(d.pos);
      ix.client.push(client);
      ix.clock.push(clock);
      ix.length.push(length);
      clock += length;
      if (ix.start.length % STEP === 0 || d.pos - yieldedAt > STEP_BYTES) {
        yieldedAt = d.pos;
        yield;
      }
    }
  }
  ix.dsStart = d.pos;
  out.index = ix;
}

/**
 * The structs in an order where each comes after what it needs; yields every STEP structs.
 * Throws UncuttableState when there is none (a reference to what the state lacks, a cycle).
 */
export function* causalOrder(ix: StateIndex, out: { order?: Int32Array }): Generator<void, void> {
  const n = ix.start.length;
  const order = new Int32Array(n);
  let emitted = 0;
  const next = new Map<number, number>(); // client -> index of its next struct
  for (const [client, [first]] of ix.runs) next.set(client, first);
  const reached = (client: number) => {
    const i = next.get(client);
    if (i === undefined) return -1;
    const run = ix.runs.get(client)!;
    return i > run[1] ? ix.clock[run[1]]! + ix.length[run[1]]! : ix.clock[i]!;
  };
  // Work stack of (client, clock it must reach past); a client twice on it is a cycle.
  const stackClient: number[] = [];
  const stackClock: number[] = [];
  const onStack = new Set<number>();
  for (const [client, [, last]] of ix.runs) {
    stackClient.push(client);
    stackClock.push(ix.clock[last]! + ix.length[last]! - 1);
    onStack.add(client);
    while (stackClient.length > 0) {
      const c = stackClient[stackClient.length - 1]!;
      if (reached(c) > stackClock[stackClock.length - 1]!) {
        stackClient.pop();
        stackClock.pop();
        onStack.delete(c);
        continue;
      }
      const i = next.get(c)!;
      if (i > ix.runs.get(c)![1]) throw new UncuttableState('a reference past the stored state');
      let missing = -1;
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        const dc = ix.depClient[k]!;
        if (dc !== -1 && reached(dc) <= ix.depClock[k]!) {
          missing = k;
          break;
        }
      }
      if (missing !== -1) {
        const dc = ix.depClient[missing]!;
        if (onStack.has(dc) || !ix.runs.has(dc)) throw new UncuttableState('a cycle, or a reference to a client the state lacks');
        stackClient.push(dc);
        stackClock.push(ix.depClock[missing]!);
        onStack.add(dc);
        continue;
      }
      order[emitted++] = i;
      next.set(c, i + 1);
      if (emitted % STEP === 0) yield;
    }
  }
  if (emitted !== n) throw new UncuttableState('structs left unordered');
  out.order = order;
}

/**
 * The chunks of `order`, written one at a time as the caller asks for them, each into the same
 * buffer: Y.applyUpdate keeps nothing of its input (it copies binary content, decodes strings and
 * re-encodes what it holds as pending), so the caller applies a chunk before asking for the next,
 * and a load leaves no copy of the state behind as garbage (20 MB of chunk buffers waiting for a
 * GC kept a text-heavy journal's RSS a third higher).
 */
export function* chunks(ix: StateIndex, order: Int32Array, limits = { structs: CHUNK_STRUCTS, bytes: CHUNK_BYTES }): Generator<Uint8Array, void> {
  let buffer = new Uint8Array(64 * 1024);
  let at = 0;
  do {
    const runs = new Map<number, [number, number]>();
    let bytes = 0;
    const from = at;
    while (at < order.length && at - from < limits.structs && (at === from || bytes < limits.bytes)) {
      const i = order[at++]!;
      bytes += ix.end[i]! - ix.start[i]!;
      const run = runs.get(ix.client[i]!);
      if (run) run[1] = i;
      else runs.set(ix.client[i]!, [i, i]);
    }
    const parts: Uint8Array[] = [];
    const header = (...numbers: number[]) => {
      const e = encoding.createEncoder();
      for (const n of numbers) encoding.writeVarUint(e, n);
      parts.push(encoding.toUint8Array(e));
    };
    header(runs.size);
    for (const [client, [first, last]] of runs) {
      header(last - first + 1, client, ix.clock[first]!);
      parts.push(ix.update.subarray(ix.start[first]!, ix.end[last]!));
    }
    if (at >= order.length) parts.push(ix.update.subarray(ix.dsStart));
    else header(0);
    const length = parts.reduce((n, p) => n + p.byteLength, 0);
    if (buffer.byteLength < length) buffer = new Uint8Array(Math.max(length, 2 * buffer.byteLength));
    let offset = 0;
    for (const p of parts) {
      buffer.set(p, offset);
      offset += p.byteLength;
    }
    yield buffer.subarray(0, length);
  } while (at < order.length);
}
