/**
 * Applies a planned edit to the live Y.Doc inside the caller's transaction. Blocks are placed
 * relative to their neighbours (insertAfter on Yjs items), so no step walks the whole journal;
 * updates go through y-prosemirror's own diff (updateYFragment), which changes only what differs
 * and leaves concurrent typing elsewhere untouched.
 */
import type { Node as PMNode } from 'prosemirror-model';
import { updateYFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import { schema } from '../../../shared/schema.ts';
import type { LiveJournal } from '../live.ts';
import type { Action } from './plan.ts';

type Parent = Y.XmlFragment | Y.XmlElement;

export function applyPlan(live: LiveJournal, actions: Action[], tr: Y.Transaction, newId: () => string): void {
  for (const a of actions) {
    if (a.kind === 'insert') insert(live, a.nodes, a.refId, a.position);
    else if (a.kind === 'update') update(live, a.id, a.node, tr);
    else remove(live, a.id, tr);
  }
  if (live.fragment.length === 0) {
    // The schema needs one block; a journal emptied by deletes keeps one empty paragraph.
    insert(live, [schema.nodes.paragraph!.create({ id: newId() })], null, 'after');
  }
}

function mustFind(live: LiveJournal, id: string): Y.XmlElement {
  const el = live.blocks.find(id);
  if (!el) throw new Error(`planned block ${id} vanished during apply`);
  return el;
}

function fill(live: LiveJournal, el: Y.XmlElement, node: PMNode): void {
  updateYFragment(live.doc, el, node, { mapping: new Map(), isOMark: new Map() } as never);
  indexSubtree(live, el);
}

function indexSubtree(live: LiveJournal, el: Y.XmlElement): void {
  const id = el.getAttribute('id');
  if (typeof id === 'string') live.blocks.set(id, el);
  for (let ch = el.firstChild; ch; ch = ch.nextSibling) if (ch instanceof Y.XmlElement) indexSubtree(live, ch);
}

function insert(live: LiveJournal, nodes: PMNode[], refId: string | null, position: 'before' | 'after'): void {
  const els = nodes.map((n) => new Y.XmlElement(n.type.name));
  if (refId === null) {
    // At the end, found through Yjs's search markers: walking the items was linear in the journal.
    live.fragment.insert(live.fragment.length, els);
  } else {
    const ref = mustFind(live, refId);
    const after = position === 'after' ? ref._item : ref._item!.left;
    (ref.parent as Parent).insertAfter(after as never, els);
  }
  els.forEach((el, i) => fill(live, el, nodes[i]!));
}

function update(live: LiveJournal, id: string, node: PMNode, tr: Y.Transaction): void {
  const el = mustFind(live, id);
  if (el.nodeName === node.type.name) {
    fill(live, el, node);
    return;
  }
  const replacement = new Y.XmlElement(node.type.name);
  (el.parent as Parent).insertAfter(el, [replacement]);
  el._item!.delete(tr);
  fill(live, replacement, node);
}

function remove(live: LiveJournal, id: string, tr: Y.Transaction): void {
  const el = mustFind(live, id);
  el._item!.delete(tr);
  live.blocks.forget(id);
}
