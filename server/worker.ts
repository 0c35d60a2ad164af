/**
 * A worker thread of the pool (server/workers/pool.ts): runs one operation per message. Loaded by worker.mjs
 * (which registers tsx) when the server runs from source, or compiled to dist/server/worker.mjs.
 */
import { parentPort, type TransferListItem } from 'node:worker_threads';
import * as flashcards from './flashcards/extract.ts';
import * as markdown from './journals/markdown-tasks.ts';

if (!parentPort) throw new Error('worker.ts runs in a worker thread');
const port = parentPort;

type Done = { result: unknown; transfer?: readonly TransferListItem[] };
const operations = new Map<string, (input: never) => Done | Promise<Done>>([
  ['markdown.import', markdown.importTask],
  ['markdown.parse', markdown.parseTask],
  ['flashcards.extract', flashcards.extractTask],
  // Loaded on first use: a worker that only converts markdown never reads the grading engines.
  ['grading.grade', async (input: never) => (await import('./practice/grading/task.ts')).gradeTask(input)],
]);
/**
 * Errors a task throws on purpose (a limit, unusable input), by their `name` (set by each class:
 * the build does not keep class names): the pool rejects with WorkerRefusal.
 */
const REFUSALS = new Set(['MarkdownLimitError', 'SourceTextError']);

port.on('message', async ({ op, input }: { op: string; input: never }) => {
  try {
    const run = operations.get(op);
    if (!run) throw new Error(`unknown worker operation ${op}`);
    const { result, transfer } = await run(input);
    port.postMessage({ result }, (transfer ?? []) as TransferListItem[]);
  } catch (err) {
    if (err instanceof Error && REFUSALS.has(err.name)) port.postMessage({ refusal: { kind: err.name, message: err.message } });
    else port.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage('ready');
