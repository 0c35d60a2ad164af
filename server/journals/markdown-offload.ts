/**
 * Markdown conversion off the event loop. The mdast libraries parse about 0.1-0.2 MB/s and print
 * about 0.3-0.5 MB/s here, so a 1 MiB import or a 10,000-block export would hold the event loop
 * for seconds, stalling every editor and request. Large inputs go to one worker thread, shared by
 * the process, created on first use and unref'd while idle (so it never holds a shutdown); small
 * ones convert inline, where a round trip would cost more.
 */
import { Worker } from 'node:worker_threads';
import type { Node as PMNode } from 'prosemirror-model';
import { blocksToMarkdown, markdownToDoc } from '../../shared/markdown/index.ts';
import { docToSnapshot } from './snapshot.ts';

/** Markdown longer than this (characters) is imported in the worker. */
export const OFFLOAD_PARSE_CHARS = 32 * 1024;
/** Exports of more top-level blocks than this are printed in the worker. */
export const OFFLOAD_EXPORT_BLOCKS = 300;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

class MarkdownWorker {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  run<T>(op: 'import' | 'print', input: unknown): Promise<T> {
    const w = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (this.pending.size === 1) w.ref();
      w.postMessage({ id, op, input });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./markdown-worker.mjs', import.meta.url));
    w.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (this.pending.size === 0) w.unref();
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(result);
    });
    const fail = (err: Error) => {
      // A dead worker fails what it held; the next call starts a new one.
      if (this.worker === w) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`markdown worker exited with code ${code}`)));
    w.unref();
    this.worker = w;
    return w;
  }
}

const worker = new MarkdownWorker();

/** The first Yjs state of a journal imported from markdown; long texts convert in the worker. */
export async function markdownToSnapshot(markdown: string): Promise<Uint8Array> {
  if (markdown.length <= OFFLOAD_PARSE_CHARS) return docToSnapshot(markdownToDoc(markdown));
  return worker.run<Uint8Array>('import', markdown);
}

/** blocksToMarkdown, in the worker for long documents. */
export async function printMarkdown(blocks: readonly PMNode[]): Promise<string> {
  if (blocks.length <= OFFLOAD_EXPORT_BLOCKS) return blocksToMarkdown(blocks);
  return worker.run<string>(
    'print',
    blocks.map((b) => b.toJSON()),
  );
}
