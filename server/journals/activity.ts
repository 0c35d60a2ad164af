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
 * The activity of one commit as stored with the commit's last logged update (the `activity`
 * column of journal_updates, at revision `revision`): the same rows in one short JSON text,
 * `[at as epoch ms, [revision - last_revision, revision - first_revision, actor, [block ids]], ...]`.
 * Written in the commit's own row of the log, it costs no page of its own (an activity row and
 * its index entry wrote two pages more per journal per commit, issue 33), and it is kept short
 * because the log's rows are what fills its pages (a full page splits, writing three or four).
 * Compaction moves it into journal_activity before it drops the row. Undefined when no update
 * touched a block.
 */
export function encodeInlineActivity(rows: readonly ActivityRow[], revision: number): string | undefined {
  if (rows.length === 0) return undefined;
  let out = `[${Date.parse(rows[0]!.at)}`;
  for (const r of rows) out += `,[${revision - r.last_revision},${revision - r.first_revision},${JSON.stringify(r.actor)},${r.blocks}]`;
  return `${out}]`;
}

/** The rows of `encodeInlineActivity`'s text, stored at `revision`. */
export function decodeInlineActivity(text: string, revision: number): ActivityRow[] {
  const [at, ...rows] = JSON.parse(text) as [number, ...[number, number, string, string[]][]];
  const iso = new Date(at).toISOString();
  return rows.map(([toLast, toFirst, actor, blocks]) => ({
    first_revision: revision - toFirst,
    last_revision: revision - toLast,
    actor,
    at: iso,
    blocks: JSON.stringify(blocks),
  }));
}
