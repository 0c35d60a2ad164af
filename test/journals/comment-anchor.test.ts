/** anchor.ts without a server: offsets to relative positions and back, through concurrent edits. */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { StoredComment } from '../../shared/comments.ts';
import { anchorRange, blockText, resolveComment } from '../../server/journals/comments/anchor.ts';

function doc(texts: string[][]) {
  const d = new Y.Doc();
  const f = d.getXmlFragment('prosemirror');
  texts.forEach((parts, i) => {
    const el = new Y.XmlElement('paragraph');
    el.setAttribute('id', `b${i}`);
    f.push([el]);
    for (const p of parts) {
      const inner = new Y.XmlElement('paragraph');
      el.push([inner]);
      const t = new Y.XmlText();
      inner.push([t]);
      t.insert(0, p);
    }
  });
  const find = (id: string) => f.toArray().find((e) => e instanceof Y.XmlElement && e.getAttribute('id') === id) as Y.XmlElement | undefined;
  return { d, f, find };
}

const comment = (a: ReturnType<typeof anchorRange>, block = 'b0'): StoredComment => ({
  comment_id: 'c',
  block_id: block,
  from: a?.from ?? null,
  to: a?.to ?? null,
  quote: 'orig',
  body: 'x',
  author: { type: 'api_key', key_id: 'k', name: null },
  resolved: false,
  resolved_at: null,
  created_at: '',
  replies: [],
});

describe('comment anchors', () => {
  it('spans text pieces of nested blocks and resolves back to the same offsets', () => {
    const { d, f, find } = doc([['Hello ', 'world']]);
    expect(blockText(find('b0')!)).toBe('Hello world');
    const a = anchorRange(find('b0')!, 3, 8);
    expect(resolveComment(d, f, comment(a), find)).toMatchObject({ quote: 'lo wo', from: 3, to: 8, detached: false });
  });

  it('follows edits: text before shifts it, text inside joins it, text at the edges stays out', () => {
    const { d, f, find } = doc([['abcdef']]);
    const t = (find('b0')!.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const a = anchorRange(find('b0')!, 2, 4); // "cd"
    t.insert(0, 'XY'); // XYabcdef
    t.insert(5, '-'); // XYabc-def
    t.insert(4, '['); // XYab[c-def: before the range's start
    t.insert(8, ']'); // XYab[c-d]ef: after its end
    expect(resolveComment(d, f, comment(a), find)).toMatchObject({ quote: 'c-d', detached: false });
  });

  it('is detached once every character of the range is deleted, or its block is', () => {
    const { d, f, find } = doc([['abcdef'], ['other']]);
    const t = (find('b0')!.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const a = anchorRange(find('b0')!, 1, 3);
    t.delete(2, 1);
    expect(resolveComment(d, f, comment(a), find)).toMatchObject({ quote: 'b', detached: false });
    t.delete(1, 1);
    expect(resolveComment(d, f, comment(a), find)).toMatchObject({ quote: 'orig', detached: true });
    const b = anchorRange(find('b1')!, 0, 5);
    f.delete(1, 1);
    expect(resolveComment(d, f, comment(b, 'b1'), find)).toMatchObject({ detached: true });
    expect(resolveComment(d, f, comment(undefined, 'b1'), find)).toMatchObject({ detached: true });
    expect(resolveComment(d, f, comment(undefined, 'b0'), find)).toMatchObject({ detached: false, quote: 'adef' });
  });

  it('an anchor from another document or a garbage position is detached, not an error', () => {
    const { d, f, find } = doc([['abc']]);
    const c = comment(undefined);
    c.from = { item: { client: 1, clock: 99 }, assoc: 0 };
    c.to = { item: { client: 1, clock: 100 }, assoc: -1 };
    expect(resolveComment(d, f, c, find)).toMatchObject({ detached: true });
    c.from = { bogus: true } as never;
    expect(resolveComment(d, f, c, find)).toMatchObject({ detached: true });
  });
});
