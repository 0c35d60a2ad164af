/** diffBlocks (server/journals/versions/diff.ts): block-level changes by id, moves by order; diffPage: the paged diff of two stored states. */
import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from 'prosemirror-model';
import { schema } from '../../shared/schema.ts';
import { diffBlocks } from '../../server/journals/versions/diff.ts';
import { DIFF_PAGE_BYTES, diffPage } from '../../server/journals/versions/diff-task.ts';
import { docToSnapshot } from '../../server/journals/snapshot.ts';

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

describe('diffPage (the worker task of a diff)', () => {
  // Two states of one journal as stored updates: `before` then `after` blocks by id.
  const state = (blocks: [string, string][]) => [docToSnapshot(doc(...blocks.map(([id, text]) => p(id, text))))];
  const before = state([['keep', 'Kept']]);
  const after = state([['keep', 'Kept'], ...Array.from({ length: 30 }, (_, i) => [`n${i}`, `New ${i} ${'x'.repeat(i === 5 ? DIFF_PAGE_BYTES : 10)}`] as [string, string])]);
  const input = { from: before, to: after, changes: [{ actor: 'api_key' as const, key_id: 'k1', blocks: ['n0', 'n1'] }], offset: 0, pageSize: 10 };

  it('answers a page of entries with their markdown and who changed them, and where the next starts', () => {
    const page = diffPage(input);
    expect(page.total).toBe(30);
    expect(page.diff.added.map((e) => e.block_id)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    expect(page.diff.added[0]).toEqual({ block_id: 'n0', type: 'paragraph', after: `New 0 ${'x'.repeat(10)}\n`, changed_by: [{ actor: 'api_key', key_id: 'k1' }] });
    expect(page.diff.added[2]!.changed_by).toEqual([]);
    // The page ends after the entry that passed DIFF_PAGE_BYTES of markdown.
    expect(page.next).toBe(6);
  });

  it('pages follow on to the last, which has no next', () => {
    const second = diffPage({ ...input, offset: 6 });
    expect(second.diff.added.map((e) => e.block_id)).toEqual(Array.from({ length: 10 }, (_, i) => `n${i + 6}`));
    expect(second.next).toBe(16);
    const last = diffPage({ ...input, offset: 26 });
    expect(last.diff.added).toHaveLength(4);
    expect(last.next).toBeUndefined();
  });
});
