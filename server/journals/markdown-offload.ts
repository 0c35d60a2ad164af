/**
 * Markdown conversion with bounded cost for the event loop. markdown-it parses a few MB/s and is
 * linear, but 1 MB still holds the loop for a few hundred ms, so:
 * - a request whose markdown totals at most INLINE_PARSE_CHARS converts inline (well under 1 ms);
 * - anything larger goes to the worker pool (server/workers/pool.ts) with a time limit that grows
 *   with its size. Past it the request gets a 422 (MarkdownLimitError) naming the limit; nothing
 *   is stored.
 * Exports run on the main thread in slices (markdown-export.ts).
 */
import { MarkdownLimitError, parseMarkdown, type ParsedMarkdown } from '../../shared/markdown/index.ts';
import { workerOperation, WorkerTimeoutError, type WorkerOperation, type WorkerPool } from '../workers/pool.ts';
import { importedJournal, type ImportedJournal } from './snapshot.ts';

/** The worker operations of markdown conversion (server/worker.ts runs them with markdown-tasks.ts). */
export const markdownImport = workerOperation<string, ImportedJournal>('markdown.import', MarkdownLimitError);
export const markdownParse = workerOperation<string[], string[]>('markdown.parse', MarkdownLimitError);

/**
 * The parsed documents of an edit's texts, by text: each a tree, or its JSON text as a worker
 * sent it (parsed on first use, and a fresh copy each time: the planner fills in block ids).
 */
export class ParsedTexts {
  constructor(private readonly byText: ReadonlyMap<string, ParsedMarkdown | string> = new Map()) {}

  get(markdown: string): ParsedMarkdown | undefined {
    const found = this.byText.get(markdown);
    return typeof found === 'string' ? (JSON.parse(found) as ParsedMarkdown) : found === undefined ? undefined : structuredClone(found);
  }
}

/** Markdown of one request up to this many characters (all texts together) converts inline. */
export const INLINE_PARSE_CHARS = 1024;

export class MarkdownConverter {
  constructor(readonly pool: WorkerPool) {}

  /** The first Yjs state of a journal imported from `markdown`, and its export; `tenant` (organization) takes turns in the pool. */
  async toJournal(markdown: string, tenant?: string): Promise<ImportedJournal> {
    if (markdown.length <= INLINE_PARSE_CHARS) return importedJournal(markdown);
    return this.run(markdownImport, markdown, markdown.length, tenant);
  }

  /**
   * Parsed documents of `texts` (nesting checked, ids left out), for the edit planner to turn
   * into blocks. One time limit for all of them, from their total size. Large batches come back
   * from the worker as JSON text, parsed one text at a time when the planner asks for it.
   */
  async parseAll(texts: readonly string[], tenant?: string): Promise<ParsedTexts> {
    const unique = [...new Set(texts)];
    const total = unique.reduce((n, t) => n + t.length, 0);
    if (total <= INLINE_PARSE_CHARS) return new ParsedTexts(new Map(unique.map((t) => [t, parseMarkdown(t)])));
    const json = await this.run(markdownParse, unique, total, tenant);
    return new ParsedTexts(new Map(unique.map((t, i) => [t, json[i]!])));
  }

  /** A pool task whose time limit follows `chars`; its refusals (thrown as they are) and time-outs are MarkdownLimitError. */
  private async run<I, O>(op: WorkerOperation<I, O>, input: I, chars: number, tenant?: string): Promise<O> {
    try {
      return await this.pool.run(op, input, this.pool.timeLimitMs(chars), tenant);
    } catch (err) {
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
