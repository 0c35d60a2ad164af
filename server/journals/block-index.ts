/**
 * The block index of a live journal: block id -> element, kept current by the REST edit path
 * (which sets and forgets what it inserts and removes) and, for editors' changes, by remembering
 * the elements they added or re-id'd until `assignIds` checks them, instead of forcing a rebuild
 * per change (deletions need nothing: `find` verifies each hit). Every block has an id, unique in
 * the journal: `assignIds` gives one to what editors made without one, or with one already taken.
 */
import * as Y from 'yjs';
import { BLOCK_NODE_TYPES } from '../../shared/schema.ts';
import { topLevel } from './activity.ts';

export class BlockIndex {
  private index = new Map<string, Y.XmlElement>();
  private dirty = true;
  /** Elements added (or re-id'd) by editors whose ids assignIds has not checked yet. */
  private readonly unchecked = new Set<Y.XmlElement>();
  /** Who added an element that still waits for assignIds, so its id is theirs too. */
  private readonly madeBy = new WeakMap<Y.XmlElement, string>();
  /** The stored state was never checked for missing or duplicate ids since it was loaded. */
  private auditDue = true;
  /** Blocks of the stored state the load's audit found without an id or with a taken one. */
  private auditFixes?: Y.XmlElement[];

  /** `prepared`: the index and audit of the stored state, made while loading (auditInSlices). */
  constructor(
    private readonly fragment: Y.XmlFragment,
    prepared?: PreparedBlocks,
  ) {
    if (prepared) {
      this.index = prepared.index;
      this.dirty = false;
      this.auditFixes = prepared.fixes;
    }
  }

  /** Structure changed by editors (`actor`): what they added or re-id'd is checked by the next assignIds. */
  observe(events: readonly Y.YEvent<Y.AbstractType<unknown>>[], actor: string): void {
    for (const e of events) {
      if (e.target instanceof Y.XmlText) continue;
      if (e instanceof Y.YXmlEvent && e.attributesChanged.has('id') && e.target instanceof Y.XmlElement) {
        this.unchecked.add(e.target);
        this.madeBy.set(e.target, actor);
      }
      for (const item of e.changes.added) {
        if (item.content instanceof Y.ContentType && item.content.type instanceof Y.XmlElement) {
          this.unchecked.add(item.content.type);
          this.madeBy.set(item.content.type, actor);
        }
      }
    }
  }

  /** Structure changed in a way the index did not follow (another instance's update): rebuilt on the next miss. */
  invalidate(): void {
    this.dirty = true;
  }

  /** The top-level or nested block element with this id, if it is in the document. */
  find(id: string): Y.XmlElement | undefined {
    const hit = this.index.get(id);
    if (hit && isLive(hit) && hit.getAttribute('id') === id) return hit;
    if (!this.dirty && !hit && this.unchecked.size === 0) return undefined;
    this.rebuildIndex();
    return this.index.get(id);
  }

  /** Called by the REST edit path for blocks it inserted or removed itself. */
  set(id: string, el: Y.XmlElement): void {
    this.index.set(id, el);
  }

  forget(id: string): void {
    this.index.delete(id);
  }

  /**
   * Rebuilds the id index; with duplicates the first in document order wins, except that elements
   * editors just added never win against an existing block (assignIds re-ids them).
   */
  private rebuildIndex(): void {
    const index = new Map<string, Y.XmlElement>();
    const fresh = new Set<Y.XmlElement>();
    for (const el of this.unchecked) if (isLive(el)) collectElements(el, fresh);
    for (const child of elementsBelow(this.fragment)) {
      const id = child.getAttribute('id');
      if (typeof id === 'string' && !index.has(id) && !fresh.has(child)) index.set(id, child);
    }
    for (const el of fresh) {
      const id = el.getAttribute('id');
      if (typeof id === 'string' && !index.has(id)) index.set(id, el);
    }
    this.index = index;
    this.dirty = false;
  }

  /**
   * Gives a fresh id, in one transaction (`transact`: the journal's server transaction, made on
   * behalf of the blocks' makers), to every block that editors added without an id or with an id
   * another block already has (the existing block keeps its id). Cost is proportional to what
   * editors added, except once after loading, when the whole stored state is checked. Returns how
   * many blocks were re-id'd.
   */
  assignIds(newId: () => string, transact: (fix: () => void, onBehalf: Map<Y.XmlElement, string>) => void): number {
    if (this.unchecked.size === 0 && !this.auditDue) return 0;
    let candidates: Y.XmlElement[];
    if (this.auditDue && this.auditFixes) {
      // The load audited the stored state already: only what it found, and what editors added since.
      const fresh = new Set<Y.XmlElement>(this.auditFixes.filter(isLive));
      for (const el of this.unchecked) if (isLive(el)) collectElements(el, fresh);
      this.unchecked.clear();
      this.auditDue = false;
      this.auditFixes = undefined;
      candidates = [...fresh];
    } else if (this.auditDue) {
      this.unchecked.clear();
      this.auditDue = false;
      this.index = new Map();
      this.dirty = false;
      candidates = [];
      collectElements(this.fragment, candidates);
    } else {
      if (this.dirty) this.rebuildIndex();
      const fresh = new Set<Y.XmlElement>();
      for (const el of this.unchecked) if (isLive(el)) collectElements(el, fresh);
      this.unchecked.clear();
      candidates = [...fresh];
    }
    const fixes: Y.XmlElement[] = [];
    const onBehalf = new Map<Y.XmlElement, string>();
    for (const el of candidates) {
      if (!BLOCK_NODE_TYPES.has(el.nodeName)) continue;
      const id = el.getAttribute('id');
      const other = typeof id === 'string' && id !== '' ? this.index.get(id) : undefined;
      const taken = other !== undefined && other !== el && isLive(other) && other.getAttribute('id') === id;
      if (typeof id !== 'string' || id === '' || taken) {
        fixes.push(el);
        const top = topLevel(el, this.fragment);
        const maker = this.makerOf(el);
        if (top && maker) onBehalf.set(top, maker);
      } else this.index.set(id, el);
    }
    if (fixes.length === 0) return 0;
    transact(() => {
      for (const el of fixes) {
        let id = newId();
        while (this.find(id)) id = newId();
        el.setAttribute('id', id);
        this.index.set(id, el);
      }
    }, onBehalf);
    return fixes.length;
  }

  /** Who added `el` or the element it was added inside. */
  private makerOf(el: Y.XmlElement): string | undefined {
    let t: Y.AbstractType<any> | null = el; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (; t && t !== (this.fragment as Y.AbstractType<any>); t = t._item?.parent as Y.AbstractType<any> | null) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const maker = t instanceof Y.XmlElement ? this.madeBy.get(t) : undefined;
      if (maker) return maker;
    }
    return undefined;
  }
}

/** The block index of a freshly loaded state and the blocks its audit must fix (undefined: audit on first use). */
export type PreparedBlocks = { index: Map<string, Y.XmlElement>; fixes: Y.XmlElement[] } | undefined;

/**
 * The block index of `fragment` and the blocks the first audit would fix (no id, or an id an
 * earlier block in document order has), walked in slices of about `sliceMs` with `pause` between.
 */
export async function auditInSlices(fragment: Y.XmlFragment, sliceMs: number, pause: () => Promise<void>): Promise<PreparedBlocks> {
  const index = new Map<string, Y.XmlElement>();
  const fixes: Y.XmlElement[] = [];
  let start = performance.now();
  let n = 0;
  for (const el of elementsBelow(fragment)) {
    if (BLOCK_NODE_TYPES.has(el.nodeName)) {
      const id = el.getAttribute('id');
      if (typeof id !== 'string' || id === '' || index.has(id)) fixes.push(el);
      else index.set(id, el);
    }
    if (++n % 256 === 0 && performance.now() - start >= sliceMs) {
      await pause();
      start = performance.now();
    }
  }
  return { index, fixes };
}

/** `root`'s descendant elements (and `root` itself when it is an element), in document order. */
function collectElements(root: Y.XmlFragment | Y.XmlElement, out: Y.XmlElement[] | Set<Y.XmlElement>): void {
  const put = (e: Y.XmlElement) => (Array.isArray(out) ? out.push(e) : out.add(e));
  if (root instanceof Y.XmlElement) put(root);
  for (const el of elementsBelow(root)) put(el);
}

/**
 * `root`'s descendant elements in document order, without recursion: editors can nest elements
 * far deeper than the call stack allows.
 */
function* elementsBelow(root: Y.XmlFragment | Y.XmlElement): Generator<Y.XmlElement> {
  const stack: (Y.XmlElement | null)[] = [firstElement(root.firstChild)];
  while (stack.length > 0) {
    const el = stack.pop();
    if (!el) continue;
    yield el;
    stack.push(firstElement(el.nextSibling));
    if (el.length > 0) stack.push(firstElement(el.firstChild));
  }
}

function firstElement(node: Y.XmlElement | Y.XmlText | null): Y.XmlElement | null {
  while (node && !(node instanceof Y.XmlElement)) node = node.nextSibling;
  return node;
}

function isLive(el: Y.XmlElement): boolean {
  return el._item !== null && !el._item.deleted;
}
