/**
 * Markdown conversion with bounded cost for the event loop. The mdast libraries parse about
 * 0.1-0.2 MB/s here, and far slower on hostile text (`*a` repeated: 40 KB took 5.8 s), so:
 * - a request whose markdown totals at most INLINE_PARSE_CHARS converts inline (a few ms at worst);
 * - anything larger goes to a small pool of worker threads, with a time limit that grows with the
 *   size (`timeLimitMs`). A worker past its limit is terminated and the request gets a 422
 *   (MarkdownLimitError) naming the limit; nothing is stored.
 * Exports of many blocks are printed in the pool too (printing is linear; no time limit).
 * Workers start on first use and are unref'd while idle, so they never hold a shutdown.
 */
import { Worker } from 'node:worker_threads';
import type * as Md from 'mdast';
import type { Node as PMNode } from 'prosemirror-model';
import { blocksToMarkdown, checkNesting, markdownToDoc, MarkdownLimitError, parseMdast } from '../../shared/markdown/index.ts';
import { docToSnapshot } from './snapshot.ts';

/** Markdown of one request up to this many characters (all texts together) converts inline. */
export const INLINE_PARSE_CHARS = 1024;
/** Exports of more top-level blocks than this are printed in a worker. */
export const OFFLOAD_EXPORT_BLOCKS = 300;

export interface MarkdownLimits {
  /** Time limit of a conversion in a worker: base plus a share per KiB of markdown. */
  baseMs: number;
  perKibMs: number;
  /** Worker threads at most (they start on demand). */
  workers: number;
}

export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = { baseMs: 2000, perKibMs: 25, workers: 2 };

type Op = 'import' | 'parse' | 'print';
interface Task {
  op: Op;
  input: unknown;
  timeoutMs: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
}

/** Worker reply: a result, a limit refusal (MarkdownLimitError), or an unexpected error. */
type Reply = { result?: unknown; limit?: string; error?: string };

export class MarkdownConverter {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];

  constructor(readonly limits: MarkdownLimits = DEFAULT_MARKDOWN_LIMITS) {}

  timeLimitMs(chars: number): number {
    return Math.round(this.limits.baseMs + (this.limits.perKibMs * chars) / 1024);
  }

  /** The first Yjs state of a journal imported from `markdown`. */
  async toSnapshot(markdown: string): Promise<Uint8Array> {
    if (markdown.length <= INLINE_PARSE_CHARS) return docToSnapshot(markdownToDoc(markdown));
    return this.run<Uint8Array>('import', markdown, this.timeLimitMs(markdown.length));
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
      roots = await this.run<Md.Root[]>('parse', unique, this.timeLimitMs(total));
    }
    return new Map(unique.map((t, i) => [t, roots[i]!]));
  }

  /** blocksToMarkdown, in a worker for long documents. */
  async print(blocks: readonly PMNode[]): Promise<string> {
    if (blocks.length <= OFFLOAD_EXPORT_BLOCKS) return blocksToMarkdown(blocks);
    return this.run<string>('print', blocks.map((b) => b.toJSON()), 0);
  }

  /** Terminates every worker (shutdown); queued conversions fail. */
  async close(): Promise<void> {
    const err = new Error('markdown conversion stopped: the server is shutting down');
    for (const t of this.queue.splice(0)) t.reject(err);
    await Promise.all([...this.slots].map((s) => this.retire(s, err)));
  }

  private run<T>(op: Op, input: unknown, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, input, timeoutMs, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => s.ready && !s.task);
      if (!slot) {
        if (this.slots.size < this.limits.workers && ![...this.slots].some((s) => !s.ready)) this.spawn();
        return;
      }
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      // The clock starts when the worker takes the task: waiting in the queue does not count.
      if (task.timeoutMs > 0) {
        slot.timer = setTimeout(() => {
          const seconds = (task.timeoutMs / 1000).toFixed(1);
          void this.retire(
            slot,
            new MarkdownLimitError(
              `markdown could not be converted within its time limit (${seconds} s for this size: ${this.limits.baseMs} ms plus ${this.limits.perKibMs} ms per KiB); simplify long runs of unmatched *, _, [, \` or < characters, or split the text`,
            ),
          );
        }, task.timeoutMs);
      }
      slot.worker.postMessage({ op: task.op, input: task.input });
    }
  }

  private spawn(): void {
    const worker = new Worker(new URL('./markdown-worker.mjs', import.meta.url));
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (msg: Reply | 'ready') => {
      if (msg === 'ready') {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const task = this.finish(slot);
      if (!task) return;
      if (msg.limit !== undefined) task.reject(new MarkdownLimitError(msg.limit));
      else if (msg.error !== undefined) task.reject(new Error(msg.error));
      else task.resolve(msg.result);
      this.dispatch();
    });
    const failed = (err: Error) => {
      // A dead worker fails what it held; the next conversion starts a new one.
      this.slots.delete(slot);
      this.finish(slot)?.reject(err);
      // One that never started would fail again: fail what waits instead of respawning forever.
      if (!slot.ready) for (const t of this.queue.splice(0)) t.reject(err);
      this.dispatch();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`markdown worker exited with code ${code}`)));
  }

  /** Detaches the slot's task (and its timer); the worker is idle again. */
  private finish(slot: Slot): Task | undefined {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    return task;
  }

  private async retire(slot: Slot, err: Error): Promise<void> {
    this.slots.delete(slot);
    this.finish(slot)?.reject(err);
    await slot.worker.terminate();
    this.dispatch();
  }
}
