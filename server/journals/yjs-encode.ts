/**
 * A ProseMirror document written straight into a Yjs update (v1 encoding), in one pass.
 *
 * Why: building the same structure through Y.Doc (y-prosemirror's prosemirrorToYXmlFragment,
 * then encodeStateAsUpdate) integrates every item into a live document first and was the largest
 * cost of a markdown import (about 2x markdown-it's own parse of the text). A new journal's first
 * state has one client, no deletions and items that only ever follow their left neighbour, so its
 * update can be written directly.
 *
 * The structure is exactly what y-prosemirror writes for the document (test/journals/
 * yjs-encode.test.ts holds it to that by reading both back): an XmlElement per node, its non-null
 * attributes as map entries, consecutive text nodes as one XmlText whose runs carry marks as
 * formatting attributes (a mark type that may overlap itself under `name--<hash>`, as
 * y-prosemirror names it).
 */
import * as encoding from 'lib0/encoding';
import * as buf from 'lib0/buffer';
import * as sha256 from 'lib0/hash/sha256';
import { Mark, type Node as PMNode } from 'prosemirror-model';

// Content refs and type refs of the Yjs v1 encoding (yjs: contentRefs, typeRefs).
const CONTENT_STRING = 4;
const CONTENT_FORMAT = 6;
const CONTENT_TYPE = 7;
const CONTENT_ANY = 8;
const TYPE_XML_ELEMENT = 3;
const TYPE_XML_TEXT = 6;
const HAS_ORIGIN = 0x80;
const HAS_PARENT_SUB = 0x20;

/** y-prosemirror's hashOfJSON (src/utils.js), which it does not export. */
function hashOfJSON(json: unknown): string {
  const digest = sha256.digest(buf.encodeAny(json));
  const N = 6;
  for (let i = N; i < digest.length; i++) digest[i % N] = digest[i % N]! ^ digest[i]!;
  return buf.toBase64(digest.slice(0, N));
}

const attributeKeys = new Map<string, string>();
const keyOfMark = new WeakMap<Mark, string>();
/** The formatting attribute y-prosemirror stores `mark` under. */
function attributeKey(mark: Mark): string {
  if (mark.type.excludes(mark.type)) return mark.type.name;
  const known = keyOfMark.get(mark);
  if (known !== undefined) return known;
  const json = JSON.stringify(mark.toJSON());
  let key = attributeKeys.get(json);
  if (key === undefined) {
    key = `${mark.type.name}--${hashOfJSON(mark.toJSON())}`;
    // A schema's overlapping marks have few distinct values in practice; the cache stays small.
    if (attributeKeys.size < 1000) attributeKeys.set(json, key);
  }
  keyOfMark.set(mark, key);
  return key;
}

class UpdateWriter {
  readonly structs = encoding.createEncoder();
  count = 0;
  clock = 0;

  constructor(readonly client: number) {}

  /** Writes an item's header; returns its id clock. `left` is the clock of its left neighbour's last unit. */
  private header(ref: number, left: number | null, parent: number | string | null, parentSub: string | null): number {
    const e = this.structs;
    encoding.writeUint8(e, ref | (left === null ? 0 : HAS_ORIGIN) | (parentSub === null ? 0 : HAS_PARENT_SUB));
    if (left !== null) {
      encoding.writeVarUint(e, this.client);
      encoding.writeVarUint(e, left);
    } else if (typeof parent === 'string') {
      encoding.writeVarUint(e, 1);
      encoding.writeVarString(e, parent);
    } else {
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint(e, this.client);
      encoding.writeVarUint(e, parent!);
    }
    if (left === null && parentSub !== null) encoding.writeVarString(e, parentSub);
    this.count++;
    return this.clock;
  }

  element(name: string, left: number | null, parent: number | string | null): number {
    const id = this.header(CONTENT_TYPE, left, parent, null);
    encoding.writeVarUint(this.structs, TYPE_XML_ELEMENT);
    encoding.writeVarString(this.structs, name);
    this.clock += 1;
    return id;
  }

  xmlText(left: number | null, parent: number): number {
    const id = this.header(CONTENT_TYPE, left, parent, null);
    encoding.writeVarUint(this.structs, TYPE_XML_TEXT);
    this.clock += 1;
    return id;
  }

  attribute(parent: number, key: string, value: unknown): void {
    this.header(CONTENT_ANY, null, parent, key);
    encoding.writeVarUint(this.structs, 1);
    encoding.writeAny(this.structs, value as never);
    this.clock += 1;
  }

  /** Returns the clock of the string's last unit. */
  string(text: string, left: number | null, parent: number): number {
    this.header(CONTENT_STRING, left, parent, null);
    encoding.writeVarString(this.structs, text);
    this.clock += text.length;
    return this.clock - 1;
  }

  format(key: string, value: unknown, left: number | null, parent: number): number {
    const id = this.header(CONTENT_FORMAT, left, parent, null);
    encoding.writeVarString(this.structs, key);
    encoding.writeVarString(this.structs, JSON.stringify(value));
    this.clock += 1;
    return id;
  }

  toUpdate(): Uint8Array {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1); // clients
    encoding.writeVarUint(e, this.count);
    encoding.writeVarUint(e, this.client);
    encoding.writeVarUint(e, 0); // first clock
    encoding.writeUint8Array(e, encoding.toUint8Array(this.structs));
    encoding.writeVarUint(e, 0); // delete set: no clients
    return encoding.toUint8Array(e);
  }
}

/** Writes the text nodes `node.child(from)` .. `node.child(to - 1)` as one XmlText under `parent`; returns its clock. */
function writeText(w: UpdateWriter, node: PMNode, from: number, to: number, left: number | null, parent: number): number {
  const id = w.xmlText(left, parent);
  let last: number | null = null;
  let open: readonly Mark[] = [];
  for (let i = from; i < to; i++) {
    const text = node.child(i);
    const marks = text.marks;
    if (!Mark.sameSet(marks, open)) {
      // Formatting ends for the marks that stop here, starts for those that begin.
      for (const m of open) if (!m.isInSet(marks)) last = w.format(attributeKey(m), null, last, id);
      for (const m of marks) if (!m.isInSet(open)) last = w.format(attributeKey(m), m.attrs, last, id);
      open = marks;
    }
    last = w.string(text.text!, last, id);
  }
  for (const m of open) last = w.format(attributeKey(m), null, last, id);
  return id;
}

/** Writes `node`'s children under the item `parent` (a clock, or the root type's name). */
function writeChildren(w: UpdateWriter, node: PMNode, parent: number | string): void {
  let left: number | null = null;
  const count = node.childCount;
  for (let i = 0; i < count; ) {
    const child = node.child(i);
    if (child.isText) {
      let j = i + 1;
      while (j < count && node.child(j).isText) j++;
      left = writeText(w, node, i, j, left, parent as number);
      i = j;
      continue;
    }
    const id = w.element(child.type.name, left, left === null ? parent : null);
    const attrs = child.attrs;
    for (const key in attrs) {
      const value = attrs[key];
      if (value !== null && value !== undefined) w.attribute(id, key, value);
    }
    writeChildren(w, child, id);
    left = id;
    i++;
  }
}

/** The update that creates `doc` in the XmlFragment `fragmentName` of an empty Y.Doc. */
export function docToUpdate(doc: PMNode, fragmentName: string, client = randomClient()): Uint8Array {
  const w = new UpdateWriter(client);
  writeChildren(w, doc, fragmentName);
  return w.toUpdate();
}

function randomClient(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
}
