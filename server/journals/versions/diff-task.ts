/**
 * Version reads as worker tasks. A diff of two states of a journal, whole, as one worker task (server/worker.ts runs it;
 * service.ts sends it): both states are built from their stored updates, read, compared block by
 * block, attributed to who changed each block, and cut to one page. All of it grows with the
 * journal (a diff of two versions 20,000 blocks apart held the event loop 669 ms and answered
 * 3.2 MB), so none of it runs on the main thread, and an answer holds at most DIFF_PAGE_ENTRIES
 * entries and about DIFF_PAGE_BYTES of markdown (docs/versions.md).
 */
import type { Node as PMNode } from 'prosemirror-model';
import * as Y from 'yjs';
import { docToMarkdown } from '../../../shared/markdown/index.ts';
import { FRAGMENT_NAME, schema } from '../../../shared/schema.ts';
import { workerOperation } from '../../workers/pool.ts';
import { fragmentToDoc } from '../read-model.ts';
import { diffBlocks, type BlockDiff } from './diff.ts';

/** Entries of one diff page at most (the `page_size` default and maximum). */
export const DIFF_PAGE_ENTRIES = 1000;
/** Markdown (before and after) of one diff page, about: a page ends after the entry that passes it. */
export const DIFF_PAGE_BYTES = 1024 * 1024;

export interface Actor {
  actor: 'api_key' | 'service' | 'editor';
  key_id: string | null;
}
export type AttributedDiff = { [K in keyof BlockDiff]: (BlockDiff[K][number] & { changed_by: Actor[] })[] };

export interface DiffInput {
  /** Stored updates whose application in order makes each state. */
  from: Uint8Array[];
  to: Uint8Array[];
  /** Who changed which blocks between the two. */
  changes: (Actor & { blocks: string[] })[];
  offset: number;
  pageSize: number;
}

export interface DiffPage {
  diff: AttributedDiff;
  /** Offset of the first entry of the next page; absent on the last. */
  next?: number;
  /** Entries of the whole diff. */
  total: number;
}

export const versionsDiff = workerOperation<DiffInput, DiffPage>('versions.diff');

function docOf(updates: Uint8Array[]): PMNode {
  const ydoc = new Y.Doc();
  for (const u of updates) Y.applyUpdate(ydoc, u);
  return fragmentToDoc(ydoc.getXmlFragment(FRAGMENT_NAME)).doc;
}

const KINDS = ['added', 'removed', 'changed', 'moved'] as const;

/** The page of the diff from `input.from` to `input.to` that starts at `input.offset`. */
export function diffPage(input: DiffInput): DiffPage {
  // The markdown of a block is printed only for the entries of the page.
  const diff = diffBlocks(docOf(input.from), docOf(input.to), (block) => block as never);
  const who = new Map<string, Actor[]>();
  for (const c of input.changes) {
    for (const b of c.blocks) {
      let list = who.get(b);
      if (!list) who.set(b, (list = []));
      list.push({ actor: c.actor, key_id: c.key_id });
    }
  }
  const markdownOf = (block: unknown) => docToMarkdown(schema.topNodeType.create(null, block as PMNode));
  const page: AttributedDiff = { added: [], removed: [], changed: [], moved: [] };
  const total = KINDS.reduce((n, k) => n + diff[k].length, 0);
  let index = 0;
  let taken = 0;
  let bytes = 0;
  let next: number | undefined;
  outer: for (const kind of KINDS) {
    for (const entry of diff[kind] as (BlockDiff[typeof kind][number] & { before?: unknown; after?: unknown })[]) {
      if (index++ < input.offset) continue;
      if (taken === input.pageSize || (taken > 0 && bytes >= DIFF_PAGE_BYTES)) {
        next = index - 1;
        break outer;
      }
      const out: Record<string, unknown> = { ...entry, changed_by: who.get(entry.block_id) ?? [] };
      if (entry.before !== undefined) bytes += (out.before = markdownOf(entry.before)).length;
      if (entry.after !== undefined) bytes += (out.after = markdownOf(entry.after)).length;
      (page[kind] as unknown[]).push(out);
      taken++;
    }
  }
  return { diff: page, ...(next !== undefined ? { next } : {}), total };
}

export function diffTask(input: DiffInput): { result: DiffPage } {
  return { result: diffPage(input) };
}

/**
 * A version as it was, read in a worker for the same reason: its markdown and/or its model as JSON
 * text (sent as it is), from the stored updates of its chain.
 */
export const versionsRead = workerOperation<{ updates: Uint8Array[]; markdown: boolean; model: boolean }, { markdown?: string; modelJson?: string }>('versions.read');

export function readTask(input: { updates: Uint8Array[]; markdown: boolean; model: boolean }): { result: { markdown?: string; modelJson?: string } } {
  const doc = docOf(input.updates);
  return {
    result: {
      ...(input.markdown ? { markdown: docToMarkdown(doc) } : {}),
      ...(input.model ? { modelJson: JSON.stringify(doc.toJSON()) } : {}),
    },
  };
}
