/**
 * Who changed which blocks (docs/versions.md, "Who changed what"): every committed update of a
 * journal is recorded with its actor and the ids of the top-level blocks its transaction added,
 * changed or removed. Read from the Yjs transaction itself, at a cost proportional to the change.
 */
import * as Y from 'yjs';

/**
 * The actor of a transaction's origin: REST edits and restores carry `api_key:<key id>`, editor
 * connections `editor:<key id of the token's key>`; changes the service makes on its own (block
 * ids) `service`.
 */
export interface Attributed {
  readonly actor: string;
}

// Yjs's types are generic over their event; only their items are read here.
type AnyType = Y.AbstractType<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function actorOf(origin: unknown): string {
  const actor = (origin as Partial<Attributed> | null)?.actor;
  return typeof actor === 'string' ? actor : 'service';
}

/** Actor → ids of the blocks it touched. */
export type Touches = Map<string, Set<string>>;

export function addTouches(into: Touches, actor: string, blocks: Iterable<string>): void {
  let set = into.get(actor);
  if (!set) into.set(actor, (set = new Set()));
  for (const b of blocks) set.add(b);
}

const idOf = (item: Y.Item | null | undefined): string | undefined => {
  const id = item?.content.getContent()[0];
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/**
 * The block ids of a top-level element a transaction touched: its id, even when it was deleted
 * (its attributes deleted with it), and the id it had before when the transaction changed it (a
 * restore may turn one block's element into another's).
 */
export function blockIdsOf(el: Y.XmlElement, tr: Y.Transaction): string[] {
  const item = (el as unknown as { _map: Map<string, Y.Item> })._map.get('id');
  const ids = [idOf(item)];
  if (tr.changed.get(el as AnyType)?.has('id')) ids.push(idOf(item?.left));
  return ids.filter((id): id is string => id !== undefined);
}

export function topLevel(type: AnyType, fragment: Y.XmlFragment): Y.XmlElement | undefined {
  let t: AnyType | null = type;
  while (t?._item) {
    const parent = t._item.parent as AnyType | null;
    if (parent === fragment) return t instanceof Y.XmlElement ? t : undefined;
    t = parent;
  }
  return undefined;
}

/** Top-level elements of `fragment` that `tr` added, changed (anywhere inside) or removed. */
export function touchedElements(tr: Y.Transaction, fragment: Y.XmlFragment): Set<Y.XmlElement> {
  const out = new Set<Y.XmlElement>();
  for (const type of tr.changed.keys()) {
    if ((type as AnyType) === fragment) continue;
    const top = topLevel(type, fragment);
    if (top) out.add(top);
  }
  if (!tr.changed.has(fragment as AnyType)) return out;
  // Children of the fragment itself were inserted (structs new in this transaction) or deleted.
  const store = tr.doc.store;
  for (const [client, after] of tr.afterState) {
    const before = tr.beforeState.get(client) ?? 0;
    if (after <= before) continue;
    const structs = store.clients.get(client)!;
    for (let i = Y.findIndexSS(structs, before); i < structs.length; i++) {
      const s = structs[i]!;
      if (s instanceof Y.Item && s.parent === fragment && s.content instanceof Y.ContentType && s.content.type instanceof Y.XmlElement) out.add(s.content.type);
    }
  }
  Y.iterateDeletedStructs(tr, tr.deleteSet, (s) => {
    if (s instanceof Y.Item && s.parent === fragment && s.content instanceof Y.ContentType && s.content.type instanceof Y.XmlElement) out.add(s.content.type);
  });
  return out;
}

export interface ActivityRow {
  first_revision: number;
  last_revision: number;
  actor: string;
  at: string;
  /** JSON array of block ids. */
  blocks: string;
}

/** One row per actor for updates committed as revisions `first`.., each with what it touched. */
export function activityRows(first: number, touches: readonly (Touches | undefined)[], at: string): ActivityRow[] {
  const byActor = new Map<string, { first: number; last: number; blocks: Set<string> }>();
  touches.forEach((t, i) => {
    for (const [actor, blocks] of t ?? []) {
      const row = byActor.get(actor);
      if (!row) byActor.set(actor, { first: first + i, last: first + i, blocks: new Set(blocks) });
      else {
        row.last = first + i;
        for (const b of blocks) row.blocks.add(b);
      }
    }
  });
  return [...byActor].map(([actor, r]) => ({ first_revision: r.first, last_revision: r.last, actor, at, blocks: JSON.stringify([...r.blocks]) }));
}

/**
 * The commit's activity as one run, when it can be (docs/versions.md, "How it is stored"): one
 * actor touched blocks in the commit's first and last update (so its row covers the whole
 * commit). The actor and the blocks' ids (JSON, in the order first touched); undefined otherwise.
 */
export function runOf(touches: readonly (Touches | undefined)[]): { actor: string; blocks: string } | undefined {
  const firstTouches = touches[0];
  const lastTouches = touches[touches.length - 1];
  if (!firstTouches || !lastTouches || firstTouches.size !== 1 || lastTouches.size !== 1) return undefined;
  const [actor] = firstTouches.keys() as IterableIterator<string>;
  if (!lastTouches.has(actor!)) return undefined;
  const blocks = new Set<string>();
  for (const t of touches) {
    if (!t) continue;
    if (t.size > 1 || (t.size === 1 && !t.has(actor!))) return undefined;
    for (const b of t.get(actor!) ?? []) blocks.add(b);
  }
  return blocks.size > 0 ? { actor: actor!, blocks: JSON.stringify([...blocks]) } : undefined;
}
