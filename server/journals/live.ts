/**
 * A journal loaded in memory: one Y.Doc shared by every editor connection and by the REST edit
 * path. The first listener on the document appends each update to the SQLite log, synchronously,
 * so any listener registered later (broadcast to editors, caches) only ever sees persisted state.
 */
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import type { JournalStore } from './store.ts';

/**
 * Transaction origin of REST edits, so observers can tell them from editor updates. `broadcast`
 * carries the request's sync_realtime_state; editors' undo managers track only their own origin.
 */
export class RestOrigin {
  constructor(readonly broadcast: boolean) {}
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
    this.fragment = this.doc.getXmlFragment(FRAGMENT_NAME);
    const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
    if (all.length > 0) Y.applyUpdate(this.doc, all.length === 1 ? all[0]! : Y.mergeUpdates(all));
    this.doc.on('update', this.persist);
    // Only structure changes made outside REST edits (REST keeps the index current itself) can
    // move or re-id blocks; text typing inside a block never does.
    this.fragment.observeDeep((events, tr) => {
      if (tr.origin instanceof RestOrigin || this.indexDirty) return;
      for (const e of events) {
        if (e.target instanceof Y.XmlText) continue;
        if ((e instanceof Y.YXmlEvent && e.attributesChanged.has('id')) || e.changes.added.size > 0 || e.changes.deleted.size > 0) {
          this.indexDirty = true;
          return;
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
    if (this.logCount >= this.limits.compactAfterUpdates || this.logBytes >= this.limits.compactAfterBytes) {
      this.onCompactDue(this);
    }
  };

  touch(): void {
    this.lastUsed = Date.now();
  }

  /** Folds the update log into one snapshot (one SQLite transaction). */
  compact(): void {
    if (this.logCount === 0 || this.broken) return;
    this.store.compact(this.seq, Y.encodeStateAsUpdate(this.doc), this.revision);
    this.logCount = 0;
    this.logBytes = 0;
  }

  /** The top-level or nested block element with this id, if it is in the document. */
  findBlock(id: string): Y.XmlElement | undefined {
    const hit = this.blockIndex.get(id);
    if (hit && isLive(hit) && hit.getAttribute('id') === id) return hit;
    if (!this.indexDirty && !hit) return undefined;
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

  private rebuildIndex(): void {
    const index = new Map<string, Y.XmlElement>();
    const walk = (parent: Y.XmlFragment | Y.XmlElement): void => {
      for (let child = parent.firstChild; child; child = child.nextSibling) {
        if (!(child instanceof Y.XmlElement)) continue;
        const id = child.getAttribute('id');
        if (typeof id === 'string' && !index.has(id)) index.set(id, child);
        if (child.length > 0) walk(child);
      }
    };
    walk(this.fragment);
    this.blockIndex = index;
    this.indexDirty = false;
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

function isLive(el: Y.XmlElement): boolean {
  return el._item !== null && !el._item.deleted;
}
