/**
 * A journal loaded in memory: one Y.Doc shared by every editor connection and by the REST edit
 * path. The first listener on the document appends each update to the SQLite log, synchronously,
 * so any listener registered later (broadcast to editors, caches) only ever sees persisted state.
 */
import * as Y from 'yjs';
import { BLOCK_NODE_TYPES, FRAGMENT_NAME } from '../../shared/schema.ts';
import type { JournalStore } from './store.ts';

/**
 * Transaction origin of REST edits, so observers can tell them from editor updates. `broadcast`
 * carries the request's sync_realtime_state; editors' undo managers track only their own origin.
 */
export class RestOrigin {
  constructor(readonly broadcast: boolean) {}
}

/**
 * Origin of changes the server makes on its own (ids for editor-made blocks). Like a broadcasting
 * REST edit: pushed to every editor, never tracked by an editor's undo manager.
 */
export class ServerOrigin extends RestOrigin {
  constructor() {
    super(true);
  }
}

export type CloseListener = (reason: string) => void;

export class LiveJournal {
  readonly doc = new Y.Doc({ gc: true });
  readonly fragment: Y.XmlFragment;
  revision: number;
  lastUsed = Date.now();
  /** Editors (and other holders) keeping the journal loaded regardless of idleness. */
  holders = 0;
  /** Set when persistence failed: the in-memory state can no longer be trusted. */
  broken = false;
  private logCount: number;
  private logBytes: number;
  private blockIndex = new Map<string, Y.XmlElement>();
  private indexDirty = true;
  /** Elements added (or re-id'd) by editors whose ids assignBlockIds has not checked yet. */
  private readonly unchecked = new Set<Y.XmlElement>();
  /** The stored state was never checked for missing or duplicate ids since it was loaded. */
  private idAuditDue = true;
  /** Rough size of the encoded state (snapshot plus log), for the registry's memory cap. */
  stateBytes: number;
  private readonly closeListeners = new Set<CloseListener>();
  private markdownCache?: { revision: number; markdown: string };

  constructor(
    readonly id: string,
    readonly seq: number,
    private readonly store: JournalStore,
    private readonly limits: { compactAfterUpdates: number; compactAfterBytes: number },
    private readonly onCompactDue: (live: LiveJournal) => void,
  ) {
    const state = store.loadState(seq);
    this.revision = state.revision;
    this.logCount = state.updates.length;
    this.logBytes = state.updates.reduce((n, u) => n + u.byteLength, 0);
    this.stateBytes = this.logBytes + (state.snapshot?.byteLength ?? 0);
    this.fragment = this.doc.getXmlFragment(FRAGMENT_NAME);
    const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
    if (all.length > 0) Y.applyUpdate(this.doc, all.length === 1 ? all[0]! : Y.mergeUpdates(all));
    this.doc.on('update', this.persist);
    // A sync_realtime_state:false edit is written under a client id of its own. Later changes
    // under the journal's usual client id (broadcast REST edits, server id fixes) then do not
    // depend on it by clock, so editors who were not sent it can still apply them at once.
    let mainClientId = this.doc.clientID;
    this.doc.on('beforeTransaction', (tr: Y.Transaction) => {
      if (!(tr.origin instanceof RestOrigin) || tr.origin.broadcast) return;
      mainClientId = this.doc.clientID;
      this.doc.clientID = globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
    });
    this.doc.on('afterTransaction', (tr: Y.Transaction) => {
      if (tr.origin instanceof RestOrigin && !tr.origin.broadcast) this.doc.clientID = mainClientId;
    });
    // Only structure changes made outside REST edits (REST keeps the index current itself) can
    // move or re-id blocks; text typing inside a block never does.
    // Added or re-id'd elements are remembered for assignBlockIds (which indexes them) instead of
    // forcing a whole rebuild; deletions need nothing, findBlock verifies hits.
    this.fragment.observeDeep((events, tr) => {
      if (tr.origin instanceof RestOrigin) return;
      for (const e of events) {
        if (e.target instanceof Y.XmlText) continue;
        if (e instanceof Y.YXmlEvent && e.attributesChanged.has('id') && e.target instanceof Y.XmlElement) {
          this.unchecked.add(e.target);
        }
        for (const item of e.changes.added) {
          if (item.content instanceof Y.ContentType && item.content.type instanceof Y.XmlElement) {
            this.unchecked.add(item.content.type);
          }
        }
      }
    });
  }

  private readonly persist = (update: Uint8Array): void => {
    try {
      this.store.appendUpdate(this.seq, this.revision + 1, update);
    } catch (err) {
      // The document now holds a change the log does not: stop serving it (the registry evicts
      // it and the next use reloads from SQLite) and stop later listeners from broadcasting it.
      this.broken = true;
      throw err;
    }
    this.revision++;
    this.logCount++;
    this.logBytes += update.byteLength;
    this.stateBytes += update.byteLength;
    if (this.logCount >= this.limits.compactAfterUpdates || this.logBytes >= this.limits.compactAfterBytes) {
      this.onCompactDue(this);
    }
  };

  touch(): void {
    this.lastUsed = Date.now();
  }

  /**
   * Bytes of editor updates Yjs holds because their dependencies have not arrived (structs and
   * deletions, doc.store.pendingStructs / pendingDs). Never persisted nor broadcast; capped per
   * journal by the realtime endpoint (WS_MAX_PENDING_BYTES).
   */
  get pendingBytes(): number {
    const { pendingStructs, pendingDs } = this.doc.store;
    return (pendingStructs?.update.byteLength ?? 0) + (pendingDs?.byteLength ?? 0);
  }

  /** Folds the update log into one snapshot (one SQLite transaction). */
  compact(): void {
    if (this.logCount === 0 || this.broken) return;
    const snapshot = Y.encodeStateAsUpdate(this.doc);
    this.store.compact(this.seq, snapshot, this.revision);
    this.stateBytes = snapshot.byteLength;
    this.logCount = 0;
    this.logBytes = 0;
  }

  /** The top-level or nested block element with this id, if it is in the document. */
  findBlock(id: string): Y.XmlElement | undefined {
    const hit = this.blockIndex.get(id);
    if (hit && isLive(hit) && hit.getAttribute('id') === id) return hit;
    if (!this.indexDirty && !hit && this.unchecked.size === 0) return undefined;
    this.rebuildIndex();
    return this.blockIndex.get(id);
  }

  /** Called by the REST edit path for blocks it inserted or removed itself. */
  indexBlock(id: string, el: Y.XmlElement): void {
    this.blockIndex.set(id, el);
  }

  forgetBlock(id: string): void {
    this.blockIndex.delete(id);
  }

  /**
   * Rebuilds the id index; with duplicates the first in document order wins, except that elements
   * editors just added never win against an existing block (assignBlockIds re-ids them).
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
    this.blockIndex = index;
    this.indexDirty = false;
  }

  /**
   * Gives a fresh id, in one server transaction, to every block that editors added without an id
   * or with an id another block already has (the existing block keeps its id). Cost is
   * proportional to what editors added, except once after loading, when the whole stored state is
   * checked. Returns how many blocks were re-id'd.
   */
  assignBlockIds(newId: () => string): number {
    if (this.unchecked.size === 0 && !this.idAuditDue) return 0;
    let candidates: Y.XmlElement[];
    if (this.idAuditDue) {
      this.unchecked.clear();
      this.idAuditDue = false;
      this.blockIndex = new Map();
      this.indexDirty = false;
      candidates = [];
      collectElements(this.fragment, candidates);
    } else {
      if (this.indexDirty) this.rebuildIndex();
      const fresh = new Set<Y.XmlElement>();
      for (const el of this.unchecked) if (isLive(el)) collectElements(el, fresh);
      this.unchecked.clear();
      candidates = [...fresh];
    }
    const fixes: Y.XmlElement[] = [];
    for (const el of candidates) {
      if (!BLOCK_NODE_TYPES.has(el.nodeName)) continue;
      const id = el.getAttribute('id');
      const other = typeof id === 'string' && id !== '' ? this.blockIndex.get(id) : undefined;
      const taken = other !== undefined && other !== el && isLive(other) && other.getAttribute('id') === id;
      if (typeof id !== 'string' || id === '' || taken) fixes.push(el);
      else this.blockIndex.set(id, el);
    }
    if (fixes.length === 0) return 0;
    this.doc.transact(() => {
      for (const el of fixes) {
        let id = newId();
        while (this.findBlock(id)) id = newId();
        el.setAttribute('id', id);
        this.blockIndex.set(id, el);
      }
    }, new ServerOrigin());
    return fixes.length;
  }

  cachedMarkdown(): string | undefined {
    return this.markdownCache?.revision === this.revision ? this.markdownCache.markdown : undefined;
  }

  cacheMarkdown(revision: number, markdown: string): void {
    this.markdownCache = { revision, markdown };
  }

  onClose(listener: CloseListener): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Unloads: tells holders why, then frees the document. Compaction is the caller's choice. */
  close(reason: string): void {
    for (const l of [...this.closeListeners]) l(reason);
    this.closeListeners.clear();
    this.doc.off('update', this.persist);
    this.doc.destroy();
  }
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
