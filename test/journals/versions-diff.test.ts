/** diffBlocks (server/journals/versions/diff.ts): block-level changes by id, moves by order. */
import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from 'prosemirror-model';
import { schema } from '../../shared/schema.ts';
import { diffBlocks } from '../../server/journals/versions/diff.ts';

const p = (id: string, text: string) => schema.nodes.paragraph!.create({ id }, schema.text(text));
const doc = (...blocks: PMNode[]) => schema.topNodeType.create(null, blocks);
const md = (block: PMNode) => `${block.textContent}\n`;

describe('diffBlocks', () => {
  it('names added, removed and changed blocks with their markdown', () => {
    const d = diffBlocks(doc(p('a', 'A'), p('b', 'B'), p('c', 'C')), doc(p('a', 'A'), p('c', 'C2'), p('d', 'D')), md);
    expect(d.removed).toEqual([{ block_id: 'b', type: 'paragraph', before: 'B\n' }]);
    expect(d.changed).toEqual([{ block_id: 'c', type: 'paragraph', before: 'C\n', after: 'C2\n' }]);
    expect(d.added).toEqual([{ block_id: 'd', type: 'paragraph', after: 'D\n' }]);
    expect(d.moved).toEqual([]);
  });

  it('reports as moved only the blocks outside the longest run that kept its order', () => {
    const d = diffBlocks(doc(p('a', 'A'), p('b', 'B'), p('c', 'C'), p('d', 'D')), doc(p('d', 'D'), p('a', 'A'), p('b', 'B'), p('c', 'C')), md);
    expect(d.moved).toEqual([{ block_id: 'd', type: 'paragraph', from_index: 3, to_index: 0 }]);
    expect(d.changed).toEqual([]);
    const swap = diffBlocks(doc(p('a', 'A'), p('b', 'B')), doc(p('b', 'B'), p('a', 'A')), md);
    expect(swap.moved).toHaveLength(1);
  });

  it('is empty between equal documents', () => {
    const a = doc(p('a', 'A'), p('b', 'B'));
    expect(diffBlocks(a, a, md)).toEqual({ added: [], removed: [], changed: [], moved: [] });
  });
});
