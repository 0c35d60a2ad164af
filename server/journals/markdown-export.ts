/**
 * Markdown export of a live journal, block by block, with each top-level block's markdown kept
 * until the block changes.
 *
 * Why: a top-level block's markdown depends only on the block and on the marker of the list
 * before it (shared/markdown/serialize.ts), so after an edit only the edited blocks need to be
 * read and printed again; and reading the whole journal in one go held the event loop for about
 * 300 ms per MB. Here the work is cut into slices of about SLICE_MS with the event loop served in
 * between, inside a settled task, so no update lands while the export reads (LiveJournal holds
 * them back until the task ends).
 */
import * as Y from 'yjs';
import { printTopBlock, type PrintedBlock } from '../../shared/markdown/index.ts';
import type { Logger } from '../logger.ts';
import type { LiveJournal } from './live.ts';
import { readIssuesForLog, topLevelItemToDoc, type ReadIssue } from './read-model.ts';

/** Work between two turns of the event loop. */
export const SLICE_MS = 10;

/**
 * A top-level block of at least this many Yjs items (characters runs, format boundaries, nested
 * elements) is too large to read and print within a slice: the export stops with LargeBlock and
 * the caller prints the journal in a worker instead (read-offload.ts). About 30 ms of work.
 */
export const LARGE_BLOCK_ITEMS = 10_000;

/** A block to print is larger than LARGE_BLOCK_ITEMS. */
export class LargeBlock extends Error {}

/** Whether `item` holds at least `limit` Yjs items; stops counting there (bounded cost). */
export function hasAtLeastItems(item: unknown, limit: number): boolean {
  if (!(item instanceof Y.AbstractType)) return false;
  let count = 0;
  const stack: Y.AbstractType<unknown>[] = [item];
  while (stack.length > 0) {
    for (let it = stack.pop()!._start; it !== null; it = it.right) {
      if (++count >= limit) return true;
      if (it.content instanceof Y.ContentType) stack.push(it.content.type);
    }
  }
  return false;
}

interface Entry {
  /** The marker avoided when this was printed (the previous list's). */
  avoid: string;
  /** Node type of the block as read, '' when it was left out. */
  type: string;
  printed: PrintedBlock | null;
}

/** Printed top-level blocks of one journal, by their Yjs element; dropped when the element changes. */
class BlockCache {
  readonly entries = new WeakMap<object, Entry>();

  constructor(fragment: Y.XmlFragment) {
    fragment.observeDeep((events) => {
      for (const e of events) {
        // The top-level item the change is in; changes to the fragment itself (blocks added,
        // removed, moved) leave every remaining block's own markdown as it was.
        let type: Y.AbstractType<unknown> | null = e.target;
        while (type && type.parent !== fragment) type = type.parent as Y.AbstractType<unknown> | null;
        if (type) this.entries.delete(type);
      }
    });
  }
}

const caches = new WeakMap<LiveJournal, BlockCache>();
const loggedRevision = new WeakMap<object, number>();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Read issues summed over the blocks read. */
type IssueTally = { dropped: number; repaired: number; issues: Partial<Record<ReadIssue, number>> };

/** Reads and prints one top-level item, given the previous printed block's type and marker. */
function printItem(item: unknown, prevType: string, prevMarker: string, tally: IssueTally): Entry {
  const read = topLevelItemToDoc(item);
  tally.dropped += read.dropped;
  tally.repaired += read.repaired;
  for (const [k, n] of Object.entries(read.issues)) tally.issues[k as ReadIssue] = (tally.issues[k as ReadIssue] ?? 0) + n!;
  const node = read.doc.firstChild!;
  const type = read.dropped > 0 && node.type.name === 'paragraph' && node.content.size === 0 ? '' : node.type.name;
  const avoid = type === prevType ? prevMarker : '';
  return { avoid, type, printed: printTopBlock(node, avoid) };
}

/**
 * The journal's markdown. The caller runs this inside `live.settledTask` (the document must not
 * change while it reads); it yields to the event loop between slices. Throws LargeBlock when a
 * block to print is too large for a slice.
 */
export async function exportMarkdown(live: LiveJournal, logger?: Logger): Promise<string> {
  let cache = caches.get(live);
  if (!cache) {
    cache = new BlockCache(live.fragment);
    caches.set(live, cache);
  }
  const items = live.fragment.toArray();
  const parts: string[] = [];
  const tally: IssueTally = { dropped: 0, repaired: 0, issues: {} };
  let prevType = '';
  let prevMarker = '';
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    if ((i & 31) === 31 && performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const item = items[i]!;
    const key = item as object;
    let entry = cache.entries.get(key);
    const avoid = entry && entry.type === prevType ? prevMarker : '';
    if (!entry || entry.avoid !== avoid) {
      if (hasAtLeastItems(item, LARGE_BLOCK_ITEMS)) throw new LargeBlock();
      entry = printItem(item, prevType, prevMarker, tally);
      // Only Yjs elements are watched for changes; anything else is read every time.
      if (item instanceof Y.XmlElement) cache.entries.set(key, entry);
    }
    if (!entry.printed) continue;
    parts.push(entry.printed.text);
    prevType = entry.type;
    prevMarker = entry.printed.marker;
  }
  logIssues(live.id, live.revision, tally, logger, live);
  return parts.length ? parts.join('\n\n') + '\n' : '';
}

/** Logs what a read left out, once per journal revision. */
export function logIssues(journalId: string, revision: number, tally: IssueTally, logger: Logger | undefined, key: object): void {
  const found = readIssuesForLog({ doc: null as never, ...tally });
  if (found && logger && loggedRevision.get(key) !== revision) {
    loggedRevision.set(key, revision);
    logger.warn({ journal_id: journalId, revision, ...found }, 'content the schema cannot hold was left out of a read');
  }
}

/**
 * The markdown of a whole fragment in one go, printed exactly as `exportMarkdown` prints it: for
 * a worker thread, which reads large journals from their stored state (journal-read-tasks.ts).
 */
export function exportFragment(fragment: Y.XmlFragment): { markdown: string; tally: IssueTally } {
  const parts: string[] = [];
  const tally: IssueTally = { dropped: 0, repaired: 0, issues: {} };
  let prevType = '';
  let prevMarker = '';
  for (const item of fragment.toArray()) {
    const entry = printItem(item, prevType, prevMarker, tally);
    if (!entry.printed) continue;
    parts.push(entry.printed.text);
    prevType = entry.type;
    prevMarker = entry.printed.marker;
  }
  return { markdown: parts.length ? parts.join('\n\n') + '\n' : '', tally };
}
