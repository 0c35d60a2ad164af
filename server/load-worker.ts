/**
 * The worker thread of a sliced cold load (server/journals/sliced-load.ts): merges a journal's
 * snapshot and log into one update, then it is terminated. An entry of its own, apart from
 * worker.ts, because that one loads every conversion's packages at start (88 MB of RSS measured),
 * and a merge needs Yjs alone.
 */
import { parentPort, type TransferListItem } from 'node:worker_threads';
import * as Y from 'yjs';
import { journalMerge } from './journals/sliced-load.ts';
import { WorkerTasks } from './workers/pool.ts';

if (!parentPort) throw new Error('load-worker.ts runs in a worker thread');
const port = parentPort;

const tasks = new WorkerTasks().add(journalMerge, (state) => {
  const merged = Y.mergeUpdates(state.snapshot ? [state.snapshot, ...state.updates] : state.updates);
  // Moved to the main thread, not copied (its own buffer: lib0's encoder output).
  return { result: merged, transfer: [merged.buffer as ArrayBuffer] };
});

port.on('message', async ({ op, input }: { op: string; input: unknown }) => {
  const { reply, transfer } = await tasks.run(op, input);
  port.postMessage(reply, (transfer ?? []) as TransferListItem[]);
});
port.postMessage('ready');
