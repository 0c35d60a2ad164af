// A worker thread of the pool (pool.ts). Plain JavaScript so that it starts under any loader; tsx
// is registered here to load the TypeScript modules. They load before the worker reports ready, so
// loading never counts against a task's time limit.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const markdown = await import('../journals/markdown-tasks.ts');
const flashcards = await import('../flashcards/extract.ts');

const operations = new Map([
  ['markdown.import', markdown.importTask],
  ['markdown.parse', markdown.parseTask],
  ['markdown.print', markdown.printTask],
  ['flashcards.extract', flashcards.extractTask],
]);
/** Errors a task throws on purpose (a limit, unusable input): the pool rejects with WorkerRefusal. */
const REFUSALS = new Set(['MarkdownLimitError', 'OutlineError']);

parentPort.on('message', ({ op, input }) => {
  try {
    const run = operations.get(op);
    if (!run) throw new Error(`unknown worker operation ${op}`);
    const { result, transfer } = run(input);
    parentPort.postMessage({ result }, transfer ?? []);
  } catch (err) {
    if (err instanceof Error && REFUSALS.has(err.constructor.name)) parentPort.postMessage({ refusal: { kind: err.constructor.name, message: err.message } });
    else parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage('ready');
