/**
 * The journal's ProseMirror document, read from its Yjs fragment without trusting the fragment.
 *
 * y-prosemirror's `yXmlFragmentToProseMirrorRootNode` is written for an editor holding content
 * it wrote itself. On a server read path (content, model, delete, export, search) it is wrong in
 * three ways: it throws on content any y-websocket client can write (an XmlText directly in the
 * fragment, a few thousand nested elements overflow its recursion), so a journal would answer 500
 * for good; it deletes, in a transaction, what it cannot convert, so a read would edit the
 * journal and broadcast the deletion; and it passes attribute values through unchecked (a
 * heading of level 1e9 would print a billion '#').
 *
 * `fragmentToDoc` reads the same Yjs structure without recursion and without writing. For
 * everything y-prosemirror itself writes from a valid document it returns the same document as
 * y-prosemirror does (test/journals/read-model.test.ts holds it to that); anything else is left
 * out or repaired, and counted, so the result always passes `doc.check()`:
 *
 * - Text outside a textblock, including an XmlText directly in the fragment, is left out rather
 *   than wrapped in a paragraph: no editor shows it (y-prosemirror throws on it), so showing it
 *   over REST would make the read model disagree with every editor of the journal.
 * - A child the parent's content expression does not take is left out with its subtree; when
 *   what is left is not complete, ProseMirror's `fillBefore` adds the required nodes (an empty
 *   list gets an empty item, so the list keeps its block id).
 * - Block elements deeper than MAX_NESTING_DEPTH (the top-level block is depth 1, a list item in
 *   a top-level list depth 2) are left out, as the limit documents.
 * - Attribute values of the wrong type fall back to the schema default; numbers out of range
 *   are clamped.
 */
import { Fragment, Mark, type Attrs, type MarkType, type Node as PMNode, type NodeType } from 'prosemirror-model';
import * as Y from 'yjs';
import { MAX_NESTING_DEPTH } from '../../shared/limits.ts';
import { schema } from '../../shared/schema.ts';

/** Why something was left out of the document. */
export type DropReason =
  /** An XmlText where the parent takes no text, e.g. directly in the fragment. */
  | 'stray-text'
  /** Neither XmlElement nor XmlText: an XmlHook, a plain Y type, JSON, binary, a subdocument. */
  | 'foreign-content'
  /** An element named after no node of the schema, or named `doc` or `text`. */
  | 'unknown-node'
  /** A node its parent's content expression does not take. */
  | 'misplaced'
  /** A block element deeper than MAX_NESTING_DEPTH (its subtree goes with it, counted once). */
  | 'too-deep'
  /** A non-string insert in an XmlText. */
  | 'embed'
  | 'unknown-mark'
  /** A mark the parent node does not allow (code blocks take none), or a second mark of a type. */
  | 'disallowed-mark'
  /** A node whose required content could not be created. */
  | 'incomplete';

/** What was changed to make the rest valid. */
export type RepairReason = 'bad-attribute' | 'filled';

export type ReadIssue = DropReason | RepairReason;

export interface ReadModel {
  doc: PMNode;
  /** Pieces left out: nodes (with their subtrees), text runs, marks. 0 for a valid journal. */
  dropped: number;
  /** Attribute values replaced and required nodes added. 0 for a valid journal. */
  repaired: number;
  issues: Partial<Record<ReadIssue, number>>;
}

const REPAIRS: ReadonlySet<ReadIssue> = new Set<ReadIssue>(['bad-attribute', 'filled']);

/** Fields for a warning log line, or undefined when the journal read cleanly. */
export function readIssuesForLog(
  model: ReadModel,
): { dropped: number; repaired: number; issues: Partial<Record<ReadIssue, number>> } | undefined {
  if (model.dropped === 0 && model.repaired === 0) return undefined;
  return { dropped: model.dropped, repaired: model.repaired, issues: { ...model.issues } };
}

// ---------------------------------------------------------------------------------------------
// Attribute values

const INVALID = Symbol('invalid');
type Sanitize = (value: unknown) => unknown;

const nullableString = (): Sanitize => (v) => (v === null || typeof v === 'string' ? v : INVALID);
const string: Sanitize = (v) => (typeof v === 'string' ? v : INVALID);
const boolean: Sanitize = (v) => (typeof v === 'boolean' ? v : INVALID);
const integer = (min: number, max: number): Sanitize => (v) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(Math.max(Math.trunc(v), min), max) : INVALID;

/**
 * By attribute name: a name means the same thing on every node and mark of the schema. The test
 * suite checks that every attribute of the schema is listed.
 */
export const ATTRIBUTE_SANITIZERS: Readonly<Record<string, Sanitize>> = {
  id: nullableString(),
  level: integer(1, 6),
  // CommonMark allows at most nine digits in an ordered list marker.
  order: integer(0, 999_999_999),
  tight: boolean,
  checked: (v) => (v === null || typeof v === 'boolean' ? v : INVALID),
  language: nullableString(),
  meta: nullableString(),
  html: string,
  src: string,
  alt: string,
  title: nullableString(),
  href: string,
  align: (v) => (v === null || v === 'left' || v === 'right' || v === 'center' ? v : INVALID),
  // The marks of an inline atom (schema.ts): kept only when every one is a valid mark.
  marks: (v) => (v === null || atomMarksValid(v) ? v : INVALID),
  // An html_inline tag of emphasis nested in its own kind (schema.ts).
  nested: (v) => (v === null || v === 'open' || v === 'close' ? v : INVALID),
};

function atomMarksValid(v: unknown): boolean {
  if (!Array.isArray(v) || v.length > MAX_NESTING_DEPTH) return false;
  return v.every((m: unknown) => {
    if (typeof m !== 'object' || m === null) return false;
    const { type, attrs } = m as { type?: unknown; attrs?: unknown };
    const markType = typeof type === 'string' ? own(schema.marks, type) : undefined;
    if (!markType || markType.name === 'code') return false;
    if (attrs === undefined) return true;
    if (typeof attrs !== 'object' || attrs === null) return false;
    return Object.entries(attrs).every(([k, value]) => {
      const sanitize = markType.spec.attrs && k in markType.spec.attrs ? ATTRIBUTE_SANITIZERS[k] : undefined;
      return sanitize !== undefined && sanitize(value) === value;
    });
  });
}

// ---------------------------------------------------------------------------------------------

class Tally {
  dropped = 0;
  repaired = 0;
  issues: Partial<Record<ReadIssue, number>> = {};

  add(issue: ReadIssue): void {
    this.issues[issue] = (this.issues[issue] ?? 0) + 1;
    if (REPAIRS.has(issue)) this.repaired++;
    else this.dropped++;
  }
}

const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;

/**
 * Like ProseMirror's computeAttrs (which y-prosemirror relies on): a missing value is the
 * default, other keys are ignored. Unlike it, a value of the wrong type is the default too.
 */
function sanitizeAttrs(spec: NodeType['spec']['attrs'], given: unknown, tally: Tally): Attrs {
  const attrs: Record<string, unknown> = {};
  const source = typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {};
  for (const name in spec) attrs[name] = sanitizeValue(name, spec[name]!.default, own(source, name), tally);
  return attrs;
}

/** sanitizeAttrs of an element's attributes, read one by one (getAttributes copies them all). */
function elementAttrs(spec: NodeType['spec']['attrs'], el: Y.XmlElement, tally: Tally): Attrs {
  const attrs: Record<string, unknown> = {};
  for (const name in spec) attrs[name] = sanitizeValue(name, spec[name]!.default, el.getAttribute(name) as unknown, tally);
  return attrs;
}

function sanitizeValue(name: string, fallback: unknown, value: unknown, tally: Tally): unknown {
  if (value === undefined) return fallback;
  const sanitize = ATTRIBUTE_SANITIZERS[name];
  const clean = sanitize ? sanitize(value) : INVALID;
  if (clean !== value) tally.add('bad-attribute');
  return clean === INVALID ? fallback : clean;
}

/** The node types each type can ever hold, from its content expression's automaton. */
const ALLOWED_CHILDREN = new Map<NodeType, ReadonlySet<NodeType>>();
for (const type of Object.values(schema.nodes)) {
  const types = new Set<NodeType>();
  const seen = new Set([type.contentMatch]);
  const queue = [type.contentMatch];
  while (queue.length > 0) {
    const match = queue.pop()!;
    for (let i = 0; i < match.edgeCount; i++) {
      const { type: child, next } = match.edge(i);
      types.add(child);
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  ALLOWED_CHILDREN.set(type, types);
}

// y-prosemirror stores a mark that may overlap itself under `name--<8-character hash>`.
const HASHED_MARK_NAME = /(.*)(--[a-zA-Z0-9+/=]{8})$/;

/** The text runs of an XmlText, as y-prosemirror's createTextNodesFromYText and attributesToMarks read them. */
function addTextNodes(text: Y.XmlText, parent: NodeType, out: PMNode[], tally: Tally): void {
  for (const op of text.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[]) {
    if (typeof op.insert !== 'string') {
      tally.add('embed');
      continue;
    }
    if (op.insert === '') continue;
    let marks: readonly Mark[] = Mark.none;
    for (const key in op.attributes ?? {}) {
      const name = key.includes('--') ? (HASHED_MARK_NAME.exec(key)?.[1] ?? key) : key;
      // No `ychange` gets here: Y.Text's toDelta strips that attribute from text outside snapshot
      // rendering, as y-prosemirror expects (it never stores one).
      const type: MarkType | undefined = own(schema.marks, name);
      if (!type) {
        tally.add('unknown-mark');
        continue;
      }
      if (!parent.allowsMarkType(type) || marks.some((m) => m.type.excludes(type) || type.excludes(m.type))) {
        tally.add('disallowed-mark');
        continue;
      }
      // A mark without attributes is the type's shared instance (nothing to read or allocate).
      marks = type.create(type.spec.attrs ? sanitizeAttrs(type.spec.attrs, op.attributes![key], tally) : null).addToSet(marks);
    }
    out.push(schema.text(op.insert, marks));
  }
}

/** A node being built: its Yjs children are read one at a time, so the walk needs no recursion. */
interface Frame {
  type: NodeType;
  attrs: Attrs | null;
  items: unknown[];
  next: number;
  /** Elements from the fragment down to this one; the fragment itself is 0. */
  depth: number;
  children: PMNode[];
}

/** A frame for `el` under `parent`, or null (counted) when `el` is left out without looking inside. */
function open(el: Y.XmlElement, parent: Frame, tally: Tally): Frame | null {
  const type = own(schema.nodes, el.nodeName);
  if (!type || type === schema.topNodeType || type.isText) {
    tally.add('unknown-node');
    return null;
  }
  if (!ALLOWED_CHILDREN.get(parent.type)!.has(type)) {
    tally.add('misplaced');
    return null;
  }
  const depth = parent.depth + 1;
  if (type.isBlock && depth > MAX_NESTING_DEPTH) {
    tally.add('too-deep');
    return null;
  }
  const attrs = elementAttrs(type.spec.attrs, el, tally);
  return { type, attrs, items: el.toArray(), next: 0, depth, children: [] };
}

/** The finished node: children the content expression takes, completed if need be; null when it cannot be. */
function close(frame: Frame, tally: Tally): PMNode | null {
  const kept: PMNode[] = [];
  let match = frame.type.contentMatch;
  for (const child of frame.children) {
    const next = match.matchType(child.type);
    if (!next) {
      tally.add('misplaced');
      continue;
    }
    kept.push(child);
    match = next;
  }
  if (!match.validEnd) {
    const fill = match.fillBefore(Fragment.empty, true);
    if (!fill) {
      tally.add('incomplete');
      return null;
    }
    // An empty fragment is how a journal can start out, not damage: its paragraph is not counted.
    if (frame.type !== schema.topNodeType) tally.add('filled');
    fill.forEach((n) => kept.push(n));
  }
  return frame.type.create(frame.attrs, Fragment.fromArray(kept));
}

/** Reads `items` as the children of a `doc` (the walk needs no recursion). */
function readDoc(items: unknown[], tally: Tally): PMNode {
  const root: Frame = { type: schema.topNodeType, attrs: null, items, next: 0, depth: 0, children: [] };
  const stack: Frame[] = [root];
  let doc: PMNode | null = null;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.items.length) {
      const item = frame.items[frame.next++];
      if (item instanceof Y.XmlElement) {
        const child = open(item, frame, tally);
        if (child) stack.push(child);
      } else if (item instanceof Y.XmlText) {
        if (ALLOWED_CHILDREN.get(frame.type)!.has(schema.nodes.text!)) addTextNodes(item, frame.type, frame.children, tally);
        else tally.add('stray-text');
      } else {
        tally.add('foreign-content');
      }
      continue;
    }
    stack.pop();
    const node = close(frame, tally);
    if (stack.length > 0) {
      if (node) stack[stack.length - 1]!.children.push(node);
    } else {
      doc = node;
    }
  }
  return doc!;
}

function modelOf(doc: PMNode, tally: Tally): ReadModel {
  return { doc, dropped: tally.dropped, repaired: tally.repaired, issues: tally.issues };
}

/**
 * The document in `fragment` (a journal's `prosemirror` fragment). Never throws on any content
 * and never writes to the Y.Doc.
 */
export function fragmentToDoc(fragment: Y.XmlFragment): ReadModel {
  const tally = new Tally();
  return modelOf(readDoc(fragment.toArray(), tally), tally);
}

/**
 * One item of the fragment read on its own, exactly as `fragmentToDoc` reads it among the others
 * (a top-level block depends on nothing around it): a doc holding that block, or an empty
 * paragraph when the item is left out. For exports that re-read only the blocks that changed.
 */
export function topLevelItemToDoc(item: unknown): ReadModel {
  const tally = new Tally();
  return modelOf(readDoc([item], tally), tally);
}
