/**
 * Every block carries a unique `id` (shared/schema.ts). The service gives one to blocks an editor
 * adds without one (or with a copy: ProseMirror's split copies attributes) in a follow-up
 * transaction; doing it here, in the same change, spares that round trip and its re-render, which
 * could otherwise land while the person types into the new block (the keystroke in flight was
 * lost with the redrawn DOM). Same rule as the service: the first block in document order keeps an
 * id, a later copy gets a fresh one. Changes from other editors are left to the service.
 */
import type { Node as PMNode, Slice } from 'prosemirror-model';
import { Plugin, type Transaction } from 'prosemirror-state';
import { ReplaceAroundStep, ReplaceStep } from 'prosemirror-transform';
import { ySyncPluginKey } from 'y-prosemirror';
import { newBlockId } from '../../shared/ids.ts';
import { BLOCK_NODE_TYPES } from '../../shared/schema.ts';

function sliceHasBlock(slice: Slice): boolean {
  let found = false;
  slice.content.descendants((node) => {
    if (BLOCK_NODE_TYPES.has(node.type.name)) found = true;
    return !found;
  });
  return found;
}

/** Typing inserts only text: only steps that bring in or rebuild blocks need the walk. */
function mayAddBlocks(tr: Transaction): boolean {
  if (!tr.docChanged || (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin) return false;
  return tr.steps.some((step) => (step instanceof ReplaceStep || step instanceof ReplaceAroundStep ? sliceHasBlock(step.slice) : true));
}

export function assignIds(doc: PMNode, tr: Transaction): boolean {
  const seen = new Set<string>();
  let changed = false;
  doc.descendants((node, pos) => {
    if (!BLOCK_NODE_TYPES.has(node.type.name)) return true;
    const id = node.attrs.id as unknown;
    if (typeof id === 'string' && id !== '' && !seen.has(id)) {
      seen.add(id);
      return true;
    }
    let fresh = newBlockId();
    while (seen.has(fresh)) fresh = newBlockId();
    seen.add(fresh);
    tr.setNodeAttribute(pos, 'id', fresh);
    changed = true;
    return true;
  });
  return changed;
}

export function blockIdPlugin(): Plugin {
  return new Plugin({
    appendTransaction(transactions, _old, state) {
      if (!transactions.some(mayAddBlocks)) return null;
      const tr = state.tr;
      // Undone with the change that made the blocks (y-prosemirror reads this meta).
      if (transactions.some((t) => t.getMeta('addToHistory') === false)) tr.setMeta('addToHistory', false);
      return assignIds(state.doc, tr) ? tr : null;
    },
  });
}
