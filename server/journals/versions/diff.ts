/**
 * Block-level diff of two journal documents by block id (attrs.id of the top-level blocks): which
 * blocks were added, removed, changed (with the markdown before and after) and moved (kept, but in
 * another order relative to the other kept blocks). Pure; the markdown of a block is given.
 */
import type { Node as PMNode } from 'prosemirror-model';

export interface BlockChange {
  block_id: string;
  type: string;
  before?: string;
  after?: string;
}

export interface BlockDiff {
  added: BlockChange[];
  removed: BlockChange[];
  changed: BlockChange[];
  moved: { block_id: string; type: string; from_index: number; to_index: number }[];
}

interface Block {
  id: string;
  node: PMNode;
  index: number;
}

function blocksOf(doc: PMNode): Map<string, Block> {
  const out = new Map<string, Block>();
  doc.forEach((node, _offset, index) => {
    const id = typeof node.attrs.id === 'string' && node.attrs.id ? node.attrs.id : `#${index}`;
    if (!out.has(id)) out.set(id, { id, node, index });
  });
  return out;
}

/** Indices (into `xs`) of one longest strictly increasing subsequence: the blocks that kept their order. */
function longestIncreasing(xs: readonly number[]): Set<number> {
  const tails: number[] = [];
  const prev: number[] = new Array(xs.length).fill(-1);
  for (let i = 0; i < xs.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]!]! < xs[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i !== -1; i = prev[i]!) keep.add(i);
  return keep;
}

export function diffBlocks(from: PMNode, to: PMNode, markdownOf: (block: PMNode) => string): BlockDiff {
  const a = blocksOf(from);
  const b = blocksOf(to);
  const diff: BlockDiff = { added: [], removed: [], changed: [], moved: [] };
  for (const [id, blk] of a) if (!b.has(id)) diff.removed.push({ block_id: id, type: blk.node.type.name, before: markdownOf(blk.node) });
  const kept: { id: string; from: number; to: number; type: string }[] = [];
  for (const [id, blk] of b) {
    const old = a.get(id);
    if (!old) {
      diff.added.push({ block_id: id, type: blk.node.type.name, after: markdownOf(blk.node) });
      continue;
    }
    if (!old.node.eq(blk.node)) diff.changed.push({ block_id: id, type: blk.node.type.name, before: markdownOf(old.node), after: markdownOf(blk.node) });
    kept.push({ id, from: old.index, to: blk.index, type: blk.node.type.name });
  }
  // Kept blocks in their new order; those outside the longest run that kept the old order moved.
  const inOrder = longestIncreasing(kept.map((k) => k.from));
  kept.forEach((k, i) => {
    if (!inOrder.has(i)) diff.moved.push({ block_id: k.id, type: k.type, from_index: k.from, to_index: k.to });
  });
  return diff;
}
