/**
 * Where a comment sits in a journal's text: character offsets in a block's text turned into Yjs
 * relative positions (which follow the text through anyone's edits), and back. Pure: reads the
 * document, never writes it.
 *
 * A block's text is its characters in document order, nested blocks included, without separators
 * (ProseMirror's `textContent`); offsets count UTF-16 code units.
 */
import * as Y from 'yjs';
import type { StoredComment, StoredPosition } from '../../../shared/comments.ts';

type AnyType = Y.AbstractType<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface TextRun {
  text: Y.XmlText;
  /** Offset of its first character in the block's text. */
  start: number;
  /** Its characters (an embed counts one, as Yjs counts it). */
  chars: string;
}

/** The text pieces of a block element in document order. */
export function textRuns(el: Y.XmlElement): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  const walk = (node: Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (child instanceof Y.XmlText) {
        const chars = (child.toDelta() as { insert: unknown }[]).map((d) => (typeof d.insert === 'string' ? d.insert : '\ufffc')).join('');
        runs.push({ text: child, start: at, chars });
        at += chars.length;
      } else if (child instanceof Y.XmlElement) walk(child);
    }
  };
  walk(el);
  return runs;
}

export function blockText(el: Y.XmlElement): string {
  return textRuns(el)
    .map((r) => r.chars)
    .join('');
}

/**
 * Anchors for [from, to) of the block's text: `from` sticks to the character after it, `to` to the
 * character before it, so text typed at either edge stays outside the range. Undefined when the
 * block has no text to anchor in.
 */
export function anchorRange(el: Y.XmlElement, from: number, to: number): { from: StoredPosition; to: StoredPosition } | undefined {
  const runs = textRuns(el);
  if (runs.length === 0) return undefined;
  const startRun = runs.find((r) => from >= r.start && from < r.start + r.chars.length) ?? runs[runs.length - 1]!;
  const endRun = [...runs].reverse().find((r) => to > r.start && to <= r.start + r.chars.length) ?? runs[0]!;
  const rel = (run: TextRun, offset: number, assoc: number) =>
    Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(run.text, Math.max(0, Math.min(offset - run.start, run.chars.length)), assoc)) as StoredPosition;
  return { from: rel(startRun, from, 0), to: rel(endRun, to, -1) };
}

/** Whether `type` is still in the document under `fragment` (neither it nor a parent deleted). */
function inDocument(type: AnyType, fragment: Y.XmlFragment): boolean {
  let t: AnyType | null = type;
  while (t?._item) {
    if (t._item.deleted) return false;
    t = t._item.parent as AnyType | null;
  }
  return t === (fragment as AnyType);
}

/** The element that holds a position's text: the one with `blockId` when it is an ancestor, else the top-level block. */
function holder(type: AnyType, fragment: Y.XmlFragment, blockId: string): Y.XmlElement | undefined {
  let t: AnyType | null = type;
  let top: Y.XmlElement | undefined;
  while (t?._item) {
    if (t instanceof Y.XmlElement) {
      if (t.getAttribute('id') === blockId) return t;
      top = t;
    }
    t = t._item.parent as AnyType | null;
  }
  return t === (fragment as AnyType) ? top : undefined;
}

export interface Resolved {
  /** The block that holds the comment's text now (its id may differ from the one it was made on when the text moved). */
  blockId: string;
  quote: string;
  detached: boolean;
  /** Offsets in the block's text now; undefined when detached. */
  from?: number;
  to?: number;
}

/**
 * Where a stored comment is now. A range comment is `detached` when its text is gone (every
 * character deleted, or its block with it); a whole-block comment when its block is. A detached
 * comment keeps the quote it was made with.
 */
export function resolveComment(doc: Y.Doc, fragment: Y.XmlFragment, c: StoredComment, findBlock: (id: string) => Y.XmlElement | undefined): Resolved {
  const gone: Resolved = { blockId: c.block_id, quote: c.quote, detached: true };
  if (!c.from || !c.to) {
    const el = findBlock(c.block_id);
    if (!el || !inDocument(el, fragment)) return gone;
    const text = blockText(el);
    return { blockId: c.block_id, quote: text, detached: false, from: 0, to: text.length };
  }
  const abs = (p: StoredPosition) => {
    try {
      return Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(p), doc);
    } catch {
      return null;
    }
  };
  const from = abs(c.from);
  const to = abs(c.to);
  if (!from || !to || !(from.type instanceof Y.XmlText) || !inDocument(from.type, fragment)) return gone;
  const el = holder(from.type, fragment, c.block_id);
  if (!el) return gone;
  const runs = textRuns(el);
  const fromRun = runs.find((r) => r.text === from.type);
  if (!fromRun) return gone;
  const start = fromRun.start + from.index;
  const toRun = to.type instanceof Y.XmlText && inDocument(to.type, fragment) ? runs.find((r) => r.text === to.type) : undefined;
  const text = runs.map((r) => r.chars).join('');
  // The end moved out of this block (a split): the range runs to the block's end.
  const end = toRun ? toRun.start + to.index : text.length;
  if (end <= start) return gone;
  return { blockId: el.getAttribute('id') ?? c.block_id, quote: text.slice(start, end), detached: false, from: start, to: end };
}
