/**
 * A worker thread of the pool (server/workers/pool.ts): runs one operation per message. Loaded by
 * worker.mjs (which registers tsx) when the server runs from source, or compiled to
 * dist/server/worker.mjs. Each operation is declared by the domain that sends it; this table pairs
 * each declaration with its implementation.
 */
import { parentPort, type TransferListItem } from 'node:worker_threads';
import * as flashcards from './flashcards/extract.ts';
import { markdownImport, markdownParse } from './journals/markdown-offload.ts';
import * as markdown from './journals/markdown-tasks.ts';
import { journalExport, journalModel } from './journals/read-offload.ts';
import * as reads from './journals/read-tasks.ts';
import { diffTask, readTask, versionsDiff, versionsRead } from './journals/versions/diff-task.ts';
import { gradeBatchOperation, gradeOperation } from './practice/grading/operation.ts';
import { WorkerTasks } from './workers/pool.ts';

if (!parentPort) throw new Error('worker.ts runs in a worker thread');
const port = parentPort;

const tasks = new WorkerTasks()
  .add(markdownImport, markdown.importTask)
  .add(markdownParse, markdown.parseTask)
  .add(journalExport, reads.exportTask)
  .add(journalModel, reads.modelTask)
  .add(versionsDiff, diffTask)
  .add(versionsRead, readTask)
  .add(flashcards.extractOperation, flashcards.extractTask)
  // Loaded on first use: a worker that only converts markdown never reads the grading engines.
  .add(gradeOperation, async (input) => (await import('./practice/grading/task.ts')).gradeTask(input))
  .add(gradeBatchOperation, async (input) => (await import('./practice/grading/task.ts')).gradeBatchTask(input));

port.on('message', async ({ op, input }: { op: string; input: unknown }) => {
  const { reply, transfer } = await tasks.run(op, input);
  port.postMessage(reply, (transfer ?? []) as TransferListItem[]);
});
port.postMessage('ready');
