/**
 * Markdown conversions as worker tasks (server/worker.ts runs them; markdown-offload.ts
 * sends them). Each returns what the pool posts back, with the buffers it may transfer.
 */
import { parseMarkdown } from '../../shared/markdown/index.ts';
import { importedJournal, type ImportedJournal } from './snapshot.ts';

type TaskResult<T> = { result: T; transfer?: ArrayBuffer[] };

/** The first Yjs state of a journal imported from `markdown`, and its export. */
export function importTask(markdown: string): TaskResult<ImportedJournal> {
  const imported = importedJournal(markdown);
  return { result: imported, transfer: [imported.snapshot.buffer as ArrayBuffer] };
}

/**
 * Parsed documents of `texts`, nesting checked, ids left for the main thread to give; each as
 * its JSON text. A string crosses the thread as one copy, where a tree of objects would be
 * rebuilt object by object on the main thread at once (and kept there for the collector): the
 * main thread parses each text's JSON only when it plans the operation that holds it.
 */
export function parseTask(texts: string[]): TaskResult<string[]> {
  return { result: texts.map((t) => JSON.stringify(parseMarkdown(t))) };
}
