/**
 * Markdown conversions as worker tasks (server/workers/worker.mjs runs them; markdown-offload.ts
 * sends them). Each returns what the pool posts back, with the buffers it may transfer.
 */
import { markdownToDoc, parseMarkdown, type ParsedMarkdown } from '../../shared/markdown/index.ts';
import { docToSnapshot } from './snapshot.ts';

type TaskResult<T> = { result: T; transfer?: ArrayBuffer[] };

/** The first Yjs state of a journal imported from `markdown`. */
export function importTask(markdown: string): TaskResult<Uint8Array> {
  const snapshot = docToSnapshot(markdownToDoc(markdown));
  return { result: snapshot, transfer: [snapshot.buffer as ArrayBuffer] };
}

/** Parsed documents of `texts`, nesting checked, ids left for the main thread to give. */
export function parseTask(texts: string[]): TaskResult<ParsedMarkdown[]> {
  return { result: texts.map(parseMarkdown) };
}
