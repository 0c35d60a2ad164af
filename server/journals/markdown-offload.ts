/**
 * Markdown conversion with bounded cost for the event loop. The mdast libraries parse about
 * 0.1-0.2 MB/s here, and far slower on hostile text (`*a` repeated: 40 KB took 5.8 s), so:
 * - a request whose markdown totals at most INLINE_PARSE_CHARS converts inline (a few ms at worst);
 * - anything larger goes to the worker pool (server/workers/pool.ts) with a time limit that grows
 *   with its size. Past it the request gets a 422 (MarkdownLimitError) naming the limit; nothing
 *   is stored.
 * Exports of many blocks are printed in the pool too (printing is linear; no time limit).
 */
import type * as Md from 'mdast';
import type { Node as PMNode } from 'prosemirror-model';
import { blocksToMarkdown, checkNesting, markdownToDoc, MarkdownLimitError, parseMdast } from '../../shared/markdown/index.ts';
import { WorkerRefusal, WorkerTimeoutError, type WorkerPool } from '../workers/pool.ts';
import { docToSnapshot } from './snapshot.ts';

/** Markdown of one request up to this many characters (all texts together) converts inline. */
export const INLINE_PARSE_CHARS = 1024;
/** Exports of more top-level blocks than this are printed in a worker. */
export const OFFLOAD_EXPORT_BLOCKS = 300;

export class MarkdownConverter {
  constructor(readonly pool: WorkerPool) {}

  /** The first Yjs state of a journal imported from `markdown`. */
  async toSnapshot(markdown: string): Promise<Uint8Array> {
    if (markdown.length <= INLINE_PARSE_CHARS) return docToSnapshot(markdownToDoc(markdown));
    return this.run<Uint8Array>('markdown.import', markdown, markdown.length);
  }

  /**
   * mdast trees of `texts` (nesting checked), for the edit planner to convert synchronously.
   * One time limit for all of them, from their total size.
   */
  async parseAll(texts: readonly string[]): Promise<Map<string, Md.Root>> {
    const unique = [...new Set(texts)];
    const total = unique.reduce((n, t) => n + t.length, 0);
    let roots: Md.Root[];
    if (total <= INLINE_PARSE_CHARS) {
      roots = unique.map((t) => {
        const root = parseMdast(t);
        checkNesting(root);
        return root;
      });
    } else {
      roots = await this.run<Md.Root[]>('markdown.parse', unique, total);
    }
    return new Map(unique.map((t, i) => [t, roots[i]!]));
  }

  /** blocksToMarkdown, in a worker for long documents. */
  async print(blocks: readonly PMNode[]): Promise<string> {
    if (blocks.length <= OFFLOAD_EXPORT_BLOCKS) return blocksToMarkdown(blocks);
    return this.pool.run<string>('markdown.print', blocks.map((b) => b.toJSON()), 0);
  }

  /** A pool task whose time limit follows `chars`; its refusals and time-outs become MarkdownLimitError. */
  private async run<T>(op: string, input: unknown, chars: number): Promise<T> {
    try {
      return await this.pool.run<T>(op, input, this.pool.timeLimitMs(chars));
    } catch (err) {
      if (err instanceof WorkerRefusal && err.kind === 'MarkdownLimitError') throw new MarkdownLimitError(err.message);
      if (err instanceof WorkerTimeoutError) {
        const { baseMs, perKibMs } = this.pool.limits;
        throw new MarkdownLimitError(
          `markdown could not be converted within its time limit (${(err.limitMs / 1000).toFixed(1)} s for this size: ${baseMs} ms plus ${perKibMs} ms per KiB); simplify long runs of unmatched *, _, [, \` or < characters, or split the text`,
        );
      }
      throw err;
    }
  }
}
