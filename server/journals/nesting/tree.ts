/** The journal tree of a key as parent links (docs/nesting.md). Pure. */

export interface Link {
  id: string;
  parent_id: string | null;
}

/** Ids of every journal under `id` (children, their children, …), parents before children. */
export function descendants(links: readonly Link[], id: string): string[] {
  const byParent = new Map<string, string[]>();
  for (const l of links) {
    if (l.parent_id === null) continue;
    let list = byParent.get(l.parent_id);
    if (!list) byParent.set(l.parent_id, (list = []));
    list.push(l.id);
  }
  const out: string[] = [];
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (seen.has(child)) continue; // a cycle already stored would otherwise loop
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Whether putting `id` under `parent` would make a cycle (itself or one of its descendants). */
export function makesCycle(links: readonly Link[], id: string, parent: string | null): boolean {
  if (parent === null) return false;
  return parent === id || descendants(links, id).includes(parent);
}

/** `ids` with `id` taken out and put at `index` (clamped to the list). */
export function placeAt(ids: readonly string[], id: string, index: number | undefined): string[] {
  const rest = ids.filter((x) => x !== id);
  const at = index === undefined ? rest.length : Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}
