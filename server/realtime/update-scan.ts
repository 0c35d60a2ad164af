/**
 * Counts what a Yjs update (v1 encoding, as y-websocket sends it) would make Yjs build, without
 * building it: structs, the values inside JSON and Any contents, subdocuments and delete-set
 * ranges. Decoding and applying an update costs time and memory per item (~5-10 µs and a few
 * hundred bytes each, measured), independent of how few bytes encode it: one update of 1,000,000
 * one-character insertions is 7 MB. The scan reads the wire format with lib0 and stops as soon as
 * the count passes the limit, so refusing costs at most `maxItems` steps, and usually one: the
 * first client's struct count is in the update's header.
 *
 * Layout (yjs `readClientsStructRefs`, `readItemContent`, `readDeleteSet`): varUint clients; per
 * client varUint structs, varUint client, varUint clock, then each struct: an info byte (low 5
 * bits: 0 GC, 10 Skip, otherwise the content kind), origin and right origin ids when bits 8 / 7
 * are set, otherwise the parent (a root name or an id) and, with bit 6, a key; then the content.
 * After the structs, the delete set: varUint clients; per client varUint client, varUint ranges,
 * and per range varUint clock and length.
 */
import * as decoding from 'lib0/decoding';

export interface UpdateScan {
  /** Structs + JSON/Any values + delete-set ranges seen (up to the point the scan stopped). */
  items: number;
  /** Subdocuments (ContentDoc) seen. */
  subdocs: number;
  /** The scan stopped early: `items` passed the limit. */
  overLimit: boolean;
}

const BIT6 = 32;
const BIT7 = 64;
const BIT8 = 128;
const BITS5 = 31;

/** lib0 `any` type tags (lib0/encoding writeAny). */
const ANY_STRING = 119;
const ANY_OBJECT = 118;
const ANY_ARRAY = 117;
const ANY_BYTES = 116;

class OverLimit extends Error {}

/**
 * Scans `update` (throws on a truncated or malformed encoding, like Yjs would). Stops and reports
 * `overLimit` once more than `maxItems` items are counted.
 */
export function scanUpdate(update: Uint8Array, maxItems: number): UpdateScan {
  const d = decoding.createDecoder(update);
  const scan: UpdateScan = { items: 0, subdocs: 0, overLimit: false };
  const count = (n: number) => {
    scan.items += n;
    if (scan.items > maxItems) throw new OverLimit();
  };
  try {
    const clients = decoding.readVarUint(d);
    for (let c = 0; c < clients; c++) {
      const structs = decoding.readVarUint(d);
      count(structs);
      decoding.readVarUint(d); // client
      decoding.readVarUint(d); // clock
      for (let s = 0; s < structs; s++) skipStruct(d, scan, count);
    }
    const dsClients = decoding.readVarUint(d);
    for (let c = 0; c < dsClients; c++) {
      decoding.readVarUint(d); // client
      const ranges = decoding.readVarUint(d);
      count(ranges);
      for (let r = 0; r < ranges; r++) {
        decoding.readVarUint(d);
        decoding.readVarUint(d);
      }
    }
  } catch (err) {
    if (err instanceof OverLimit) {
      scan.overLimit = true;
      return scan;
    }
    throw err;
  }
  return scan;
}

function skipStruct(d: decoding.Decoder, scan: UpdateScan, count: (n: number) => void): void {
  const info = readByte(d);
  const kind = info & BITS5;
  if (kind === 0 || kind === 10) {
    decoding.readVarUint(d); // GC or Skip length
    return;
  }
  if (info & BIT8) skipId(d);
  if (info & BIT7) skipId(d);
  if ((info & (BIT7 | BIT8)) === 0) {
    if (decoding.readVarUint(d) === 1) skipString(d); // a root's name
    else skipId(d);
    if (info & BIT6) skipString(d); // parentSub
  }
  switch (kind) {
    case 1: // deleted
      decoding.readVarUint(d);
      return;
    case 2: {
      // JSON: n strings
      const n = decoding.readVarUint(d);
      count(n);
      for (let i = 0; i < n; i++) skipString(d);
      return;
    }
    case 3: // binary
    case 4: // string
    case 5: // embed (JSON text)
      skipString(d);
      return;
    case 6: // format: key, JSON text
      skipString(d);
      skipString(d);
      return;
    case 7: {
      // a shared type; XmlElement (3) and XmlHook (5) carry a name
      const ref = decoding.readVarUint(d);
      if (ref === 3 || ref === 5) skipString(d);
      return;
    }
    case 8: {
      // Any: n values
      const n = decoding.readVarUint(d);
      for (let i = 0; i < n; i++) skipAny(d, count);
      return;
    }
    case 9: // a subdocument: guid, options
      scan.subdocs++;
      skipString(d);
      skipAny(d, count);
      return;
    default:
      throw new Error(`unknown content kind ${kind}`);
  }
}

function skipId(d: decoding.Decoder): void {
  decoding.readVarUint(d);
  decoding.readVarUint(d);
}

/** A varString or varUint8Array: its length, then that many bytes (a view, nothing copied). */
function skipString(d: decoding.Decoder): void {
  skipBytes(d, decoding.readVarUint(d));
}

function readByte(d: decoding.Decoder): number {
  if (d.pos >= d.arr.length) throw new Error('unexpected end of update');
  return decoding.readUint8(d);
}

/** One lib0 `any` value, iteratively (no recursion on hostile nesting); each value counts. */
function skipAny(d: decoding.Decoder, count: (n: number) => void): void {
  // Open containers: values left to read, and whether each value is preceded by a key (objects).
  const stack: { left: number; keyed: boolean }[] = [{ left: 1, keyed: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.left === 0) {
      stack.pop();
      continue;
    }
    top.left--;
    if (top.keyed) skipString(d);
    count(1);
    const tag = readByte(d);
    switch (tag) {
      case 127: // undefined
      case 126: // null
      case 121: // false
      case 120: // true
        break;
      case 125: // varInt
        decoding.readVarInt(d);
        break;
      case 124: // float32
        skipBytes(d, 4);
        break;
      case 123: // float64
      case 122: // bigint64
        skipBytes(d, 8);
        break;
      case ANY_STRING:
      case ANY_BYTES:
        skipString(d);
        break;
      case ANY_OBJECT:
        stack.push({ left: decoding.readVarUint(d), keyed: true });
        break;
      case ANY_ARRAY:
        stack.push({ left: decoding.readVarUint(d), keyed: false });
        break;
      default:
        throw new Error(`unknown any type ${tag}`);
    }
  }
}

function skipBytes(d: decoding.Decoder, n: number): void {
  if (d.pos + n > d.arr.length) throw new Error('unexpected end of update');
  d.pos += n;
}
