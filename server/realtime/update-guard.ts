/**
 * Refuses editor updates that would put structure outside the journal schema into the document,
 * before they are applied. Pure: it reads the decoded update and the live document, never writes.
 *
 * What is refused: anything in another root than the `prosemirror` fragment (the only one the
 * service reads; deleted items too), or keyed on the fragment itself; and inside the fragment:
 * - anything but an XmlElement directly in the fragment (an XmlText, strings, embeds, JSON, …);
 * - an XmlElement whose nodeName is not a node of the shared schema, or is `doc` or `text`;
 * - a block element deeper than MAX_NESTING_DEPTH (the top-level block is depth 1, as in the read
 *   model), or any element one level deeper still (an inline node in the deepest block is fine);
 * - inside an element, anything but XmlElements and XmlTexts; inside an XmlText, anything but
 *   text, formatting and embeds; a shared type as an attribute value.
 * Element nesting past the limit is refused anywhere (the walk that would find the root stops at
 * the limit).
 *
 * An Item names its parent explicitly (a root name, or the id of the parent type's item) or
 * implicitly through its left or right neighbour (`origin`, `rightOrigin`), as Yjs resolves it
 * when integrating. References are looked up in the update itself (and, when the update would
 * complete them, in the structs Yjs holds as pending) or in the live document. Items whose parent
 * cannot be resolved yet (a missing dependency) are not checked here: Yjs holds them as pending,
 * and they are checked when an update would complete them (`pending` below). Items Yjs would turn
 * into GC (a neighbour or the parent is garbage collected) or integrate as deleted (the parent is
 * deleted) cannot show up in the document and are not checked either.
 *
 * Cost: a typing update is one struct whose left neighbour is in the live document; it is resolved
 * with one binary search and accepted without walking up the tree. Walks up the live tree happen
 * only for new elements and unusual content, and stop after MAX_NESTING_DEPTH + 2 steps.
 */
import * as Y from 'yjs';
import { MAX_NESTING_DEPTH } from '../../shared/limits.ts';
import { FRAGMENT_NAME, schema } from '../../shared/schema.ts';
import type { Struct } from '../journals/pending.ts';

export interface Refusal {
  /** Short, for a close reason and a log line: what would have been put where. */
  reason: string;
  /** The offending struct is one Yjs already held as pending, not part of this update. */
  inPending: boolean;
  /** The update is not something a Yjs encoder writes (a client's structs in two runs). */
  malformed?: boolean;
}

export interface GuardOptions {
  fragmentName?: string;
  maxDepth?: number;
}

/** Node names an XmlElement may carry, and whether the node is a block. */
const ELEMENT_NODES: ReadonlyMap<string, boolean> = new Map(
  Object.entries(schema.nodes)
    .filter(([name, type]) => name !== schema.topNodeType.name && !type.isText)
    .map(([name, type]) => [name, type.isBlock]),
);

type Kind = 'fragment' | 'element' | 'text' | 'other';

/** What a parent type is and where it sits. `depth` counts elements from the fragment (0). */
type Info =
  | { k: 'ok'; inTree: boolean; kind: Kind; depth: number; name?: string; foreign?: string }
  | { k: 'unknown' }
  | { k: 'dead' }
  | { k: 'deep' };

type Parent =
  | { k: 'root'; name: string; sub: string | null }
  | { k: 'live'; type: Y.AbstractType<any>; sub: string | null }
  | { k: 'fresh'; item: Y.Item; sub: string | null }
  | { k: 'unknown' }
  | { k: 'dead' };

const UNKNOWN = { k: 'unknown' } as const;
const DEAD = { k: 'dead' } as const;
const DEEP = { k: 'deep' } as const;
const OUTSIDE: Info = { k: 'ok', inTree: false, kind: 'other', depth: 0 };

type Found = { live: boolean; struct: Struct };

/**
 * The first reason to refuse `structs` (a decoded update), or undefined. `pending` are the
 * structs Yjs holds for the document (Y.decodeUpdateV2 of doc.store.pendingStructs.update), passed
 * when this update may complete some of them: they are checked as if they were part of it.
 */
export function checkUpdate(doc: Y.Doc, structs: readonly Struct[], pending: readonly Struct[] = [], opts: GuardOptions = {}): Refusal | undefined {
  return new Guard(doc, opts).check(structs, pending);
}

class Guard {
  private readonly store: Y.Doc['store'];
  private readonly fragment: Y.AbstractType<any> | undefined;
  private readonly fragmentName: string;
  private readonly share: Map<string, Y.AbstractType<any>>;
  private readonly maxDepth: number;
  private own = new Map<number, Struct[]>();
  private held = new Map<number, Struct[]>();
  private readonly parents = new Map<Y.Item, Parent>();
  private readonly liveInfos = new Map<Y.AbstractType<any>, Info>();
  private readonly freshInfos = new Map<Y.Item, Info>();

  constructor(doc: Y.Doc, opts: GuardOptions) {
    this.store = doc.store;
    this.fragmentName = opts.fragmentName ?? FRAGMENT_NAME;
    this.maxDepth = opts.maxDepth ?? MAX_NESTING_DEPTH;
    this.fragment = doc.share.get(this.fragmentName);
    this.share = doc.share;
  }

  check(structs: readonly Struct[], pending: readonly Struct[]): Refusal | undefined {
    const own = byClient(structs);
    if (!own) return { reason: 'malformed update (a client appears twice)', inPending: false, malformed: true };
    const held = byClient(pending);
    if (!held) return { reason: 'malformed pending update', inPending: true, malformed: true };
    this.own = own;
    this.held = held;
    for (const [list, inPending] of [[structs, false], [pending, true]] as const) {
      for (const s of list) {
        if (!(s instanceof Y.Item)) continue;
        if (s.id.clock + s.length <= Y.getState(this.store, s.id.client)) continue; // already integrated
        const reason = this.checkItem(s);
        if (reason) return { reason, inPending };
      }
    }
    return undefined;
  }

  private checkItem(item: Y.Item): string | undefined {
    const c = item.content;
    const p = this.parentOf(item);
    if (p.k === 'unknown' || p.k === 'dead') return undefined;
    // Only the fragment is read (content, model, exports, versions): nothing may live elsewhere,
    // not even deleted items, which Yjs would keep as structs of a root nobody reads.
    if (p.k === 'root' && p.name !== this.fragmentName) return outsideFragment(this.fragmentName, p.name);
    if (p.k === 'root' && p.sub !== null) return `a keyed value "${printable(p.sub)}" on the ${this.fragmentName} fragment`;
    if (p.k === 'live' && p.type._item === null && p.type !== this.fragment) return outsideFragment(this.fragmentName, this.rootName(p.type));
    if (c instanceof Y.ContentDeleted) return undefined;
    // Typing into text and new text in an element: accepted without walking up the tree.
    const ptype = p.k === 'live' ? p.type : p.k === 'fresh' ? (p.item.content as Y.ContentType).type : undefined;
    if (p.sub === null && ptype) {
      if (ptype instanceof Y.XmlText && isTextContent(c)) return undefined;
      if (ptype instanceof Y.XmlElement && c instanceof Y.ContentType && c.type instanceof Y.XmlText) return undefined;
    }
    if (p.sub !== null && !(c instanceof Y.ContentType)) return undefined; // a plain attribute value
    const info = p.k === 'root' ? this.rootInfo(p.name) : p.k === 'live' ? this.liveInfo(p.type) : this.freshInfo(p.item);
    if (info.k === 'unknown' || info.k === 'dead') return undefined;
    if (info.k === 'deep') return c instanceof Y.ContentType ? this.tooDeep() : undefined;
    if (info.foreign !== undefined) return outsideFragment(this.fragmentName, info.foreign);
    if (!info.inTree) return undefined;
    if (p.sub !== null) return `a shared type as the value of attribute "${printable(p.sub)}"`;
    const el = c instanceof Y.ContentType && c.type instanceof Y.XmlElement ? c.type : undefined;
    switch (info.kind) {
      case 'fragment':
        if (el) return this.checkElement(el, 1);
        return `${describe(c)} directly in the ${this.fragmentName} fragment`;
      case 'element':
        if (el) return this.checkElement(el, info.depth + 1);
        if (c instanceof Y.ContentType && c.type instanceof Y.XmlText) return undefined;
        return `${describe(c)} inside <${printable(info.name ?? '')}>`;
      case 'text':
        return isTextContent(c) ? undefined : `${describe(c)} inside text`;
      default:
        return undefined;
    }
  }

  private checkElement(el: Y.XmlElement, depth: number): string | undefined {
    const block = ELEMENT_NODES.get(el.nodeName);
    if (block === undefined) return `unknown node type "${printable(el.nodeName)}"`;
    if ((block && depth > this.maxDepth) || depth > this.maxDepth + 1) return this.tooDeep();
    return undefined;
  }

  private tooDeep(): string {
    return `blocks nested deeper than ${this.maxDepth} levels`;
  }

  /** The struct holding `id`: in the live document when its clock is below the state there. */
  private lookup(id: Y.ID): Found | undefined {
    if (id.clock < Y.getState(this.store, id.client)) return { live: true, struct: Y.getItem(this.store, id) as Y.Item | Y.GC };
    const s = find(this.own.get(id.client), id.clock) ?? find(this.held.get(id.client), id.clock);
    return s && !(s instanceof Y.Skip) ? { live: false, struct: s } : undefined;
  }

  /** Where Yjs would put `item`, following implicit parents through fresh neighbours (memoized). */
  private parentOf(item: Y.Item): Parent {
    const chain: Y.Item[] = [];
    const seen = new Set<Y.Item>();
    let cur = item;
    let result: Parent;
    for (;;) {
      const memo = this.parents.get(cur);
      if (memo) {
        result = memo;
        break;
      }
      if (seen.has(cur)) {
        result = UNKNOWN; // neighbours that refer to each other: never integrable
        break;
      }
      seen.add(cur);
      chain.push(cur);
      const left = cur.origin ? this.lookup(cur.origin) : null;
      const right = cur.rightOrigin ? this.lookup(cur.rightOrigin) : null;
      if (left === undefined || right === undefined) {
        result = UNKNOWN;
        break;
      }
      if ((left && !(left.struct instanceof Y.Item)) || (right && !(right.struct instanceof Y.Item))) {
        result = DEAD; // Yjs turns an item next to a GC struct into GC
        break;
      }
      if (cur.parent !== null) {
        result = this.explicitParent(cur);
        break;
      }
      const next = left ?? right;
      if (!next) {
        result = DEAD;
        break;
      }
      const s = next.struct as Y.Item;
      if (next.live) {
        result = s.parent instanceof Y.AbstractType ? { k: 'live', type: s.parent, sub: s.parentSub } : DEAD;
        break;
      }
      cur = s; // a fresh neighbour: its parent is ours
    }
    for (const c of chain) this.parents.set(c, result);
    return result;
  }

  private explicitParent(item: Y.Item): Parent {
    const parent = item.parent as unknown;
    if (typeof parent === 'string') return { k: 'root', name: parent, sub: item.parentSub };
    const found = this.lookup(parent as Y.ID);
    if (!found) return UNKNOWN;
    const s = found.struct;
    if (!(s instanceof Y.Item) || !(s.content instanceof Y.ContentType)) return DEAD;
    if (found.live) return s.deleted ? DEAD : { k: 'live', type: s.content.type, sub: item.parentSub };
    return { k: 'fresh', item: s, sub: item.parentSub };
  }

  private rootInfo(name: string): Info {
    return name === this.fragmentName ? { k: 'ok', inTree: true, kind: 'fragment', depth: 0 } : { k: 'ok', inTree: false, kind: 'other', depth: 0, foreign: name };
  }

  /** The name of a root type of the live document (a journal stored before roots were checked). */
  private rootName(type: Y.AbstractType<any>): string {
    for (const [name, t] of this.share) if (t === type) return name;
    return '?';
  }

  /** A type of the live document: walks up at most maxDepth + 2 items to the root. */
  private liveInfo(type: Y.AbstractType<any>): Info {
    const memo = this.liveInfos.get(type);
    if (memo) return memo;
    let info: Info | undefined;
    let depth = 0;
    let inTree = true;
    let steps = 0;
    let cur: Y.AbstractType<any> = type;
    while (cur._item !== null) {
      const it: Y.Item = cur._item;
      if (it.deleted) {
        info = DEAD;
        break;
      }
      if (it.parentSub !== null) inTree = false;
      if (cur instanceof Y.XmlElement) depth++;
      if (++steps > this.maxDepth + 2) {
        info = DEEP;
        break;
      }
      if (!(it.parent instanceof Y.AbstractType)) {
        info = DEAD;
        break;
      }
      cur = it.parent;
    }
    info ??= {
      k: 'ok',
      inTree: inTree && cur === this.fragment,
      foreign: cur === this.fragment ? undefined : this.rootName(cur),
      kind: kindOf(type, type === this.fragment),
      depth,
      name: type instanceof Y.XmlElement ? type.nodeName : undefined,
    };
    this.liveInfos.set(type, info);
    return info;
  }

  /** A type created by this update (or held as pending): iterative over fresh ancestors, bounded. */
  private freshInfo(item: Y.Item): Info {
    const stack: Y.Item[] = [];
    let cur = item;
    let base: Info;
    for (;;) {
      const memo = this.freshInfos.get(cur);
      if (memo) {
        base = memo;
        break;
      }
      stack.push(cur);
      if (stack.length > this.maxDepth + 2) {
        base = DEEP;
        break;
      }
      const p = this.parentOf(cur);
      if (p.k === 'unknown' || p.k === 'dead') {
        base = p;
        break;
      }
      if (p.sub !== null) {
        base = OUTSIDE; // a type stored as an attribute value (refused on its own when in the tree)
        break;
      }
      if (p.k === 'root') {
        base = this.rootInfo(p.name);
        break;
      }
      if (p.k === 'live') {
        base = this.liveInfo(p.type);
        break;
      }
      cur = p.item;
    }
    for (let i = stack.length - 1; i >= 0; i--) {
      base = this.derive(base, stack[i]!);
      this.freshInfos.set(stack[i]!, base);
    }
    return base;
  }

  private derive(parent: Info, item: Y.Item): Info {
    if (parent.k !== 'ok') return parent;
    const type = (item.content as Y.ContentType).type;
    const isElement = type instanceof Y.XmlElement;
    const depth = parent.depth + (isElement ? 1 : 0);
    if (depth > this.maxDepth + 1) return DEEP;
    return { k: 'ok', inTree: parent.inTree, kind: kindOf(type, false), depth, name: isElement ? type.nodeName : undefined, foreign: parent.foreign };
  }
}

/**
 * Structs by client, each run contiguous and sorted by clock; undefined when a client's structs
 * come in two runs (Yjs would keep only the last one; no Yjs encoder writes that).
 */
function byClient(structs: readonly Struct[]): Map<number, Struct[]> | undefined {
  const map = new Map<number, Struct[]>();
  let last: Struct[] | undefined;
  for (const s of structs) {
    let run = map.get(s.id.client);
    if (!run) {
      run = [];
      map.set(s.id.client, run);
    } else {
      const prev = run[run.length - 1]!;
      if (run !== last || s.id.clock !== prev.id.clock + prev.length) return undefined;
    }
    run.push(s);
    last = run;
  }
  return map;
}

/** The struct of `run` (sorted, contiguous) that holds `clock`. */
function find(run: Struct[] | undefined, clock: number): Struct | undefined {
  if (!run || run.length === 0) return undefined;
  let lo = 0;
  let hi = run.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const s = run[mid]!;
    if (clock < s.id.clock) hi = mid - 1;
    else if (clock >= s.id.clock + s.length) lo = mid + 1;
    else return s;
  }
  return undefined;
}

function kindOf(type: Y.AbstractType<any>, isFragment: boolean): Kind {
  if (isFragment) return 'fragment';
  if (type instanceof Y.XmlElement) return 'element';
  if (type instanceof Y.XmlText) return 'text';
  return 'other';
}

function isTextContent(c: Y.Item['content']): boolean {
  return c instanceof Y.ContentString || c instanceof Y.ContentFormat || c instanceof Y.ContentEmbed;
}

function describe(c: Y.Item['content']): string {
  if (c instanceof Y.ContentType) {
    const t = c.type;
    if (t instanceof Y.XmlElement) return `<${printable(t.nodeName)}>`;
    if (t instanceof Y.XmlText) return 'an XmlText';
    if (t instanceof Y.XmlHook) return 'an XmlHook';
    if (t instanceof Y.XmlFragment) return 'an XmlFragment';
    if (t instanceof Y.Text) return 'a Y.Text';
    if (t instanceof Y.Array) return 'a Y.Array';
    if (t instanceof Y.Map) return 'a Y.Map';
    return 'a shared type';
  }
  if (c instanceof Y.ContentString) return 'text';
  if (c instanceof Y.ContentFormat) return 'a formatting mark';
  if (c instanceof Y.ContentEmbed) return 'an embed';
  if (c instanceof Y.ContentBinary) return 'binary content';
  if (c instanceof Y.ContentDoc) return 'a subdocument';
  return 'raw JSON content';
}

function outsideFragment(fragmentName: string, root: string): string {
  return `content outside the ${fragmentName} fragment (root "${printable(root)}")`;
}

/** At most 40 characters, printable ASCII only (close reasons and log lines). */
function printable(s: string): string {
  const clean = s.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
