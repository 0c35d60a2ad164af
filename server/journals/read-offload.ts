/**
 * Reads of large journals off the event loop. A journal's Yjs state costs the main thread about
 * 0.2 ms per KiB to load, and as much again to read and print: a journal of a few MB held the loop
 * for seconds on `GET content` (issue 26). So a journal whose stored state is at least
 * LARGE_READ_BYTES is read in a worker thread from its stored state (snapshot and log, read from
 * the store as bytes): the worker builds its own Y.Doc and prints it exactly as the main thread
 * would (markdown-export.ts `exportFragment`, read-model.ts `fragmentToDoc`). Such a read never
 * loads the journal here, nor touches a loaded one.
 */
import { invalid, type Loc } from '../http/errors.ts';
import { workerOperation, WorkerTimeoutError, type WorkerPool } from '../workers/pool.ts';
import type { ReadIssue } from './read-model.ts';
import type { StoredState } from './store.ts';

/** Stored state at or above this many bytes is read in a worker. */
export const LARGE_READ_BYTES = 256 * 1024;

export interface StateInput {
  snapshot: Uint8Array | null;
  updates: Uint8Array[];
}

export interface ReadTally {
  dropped: number;
  repaired: number;
  issues: Partial<Record<ReadIssue, number>>;
}

/** The markdown of a stored state, and what its read left out. */
export const journalExport = workerOperation<StateInput, { markdown: string; tally: ReadTally }>('journal.export');
/** The block model (ProseMirror JSON) of a stored state as JSON text, and what its read left out. */
export const journalModel = workerOperation<StateInput, { json: string; tally: ReadTally }>('journal.model');

export function stateBytes(state: StateInput): number {
  return (state.snapshot?.byteLength ?? 0) + state.updates.reduce((n, u) => n + u.byteLength, 0);
}

/**
 * Runs a read of `state` in the pool. The time limit follows the state's size (the pool's limit
 * for that many characters: 1 MiB of state has 27.6 s by default, far more than it needs).
 */
export function readInWorker<O>(pool: WorkerPool, op: typeof journalExport | typeof journalModel, state: StoredState): Promise<O> {
  const input: StateInput = { snapshot: state.snapshot, updates: state.updates };
  return withReadLimit(pool.run(op as never, input, pool.timeLimitMs(stateBytes(input))) as Promise<O>, ['path', 'journal_id']);
}

/** A read past its worker time limit is a 422 at `loc` naming the limit (never a 500). */
export async function withReadLimit<O>(read: Promise<O>, loc: Loc): Promise<O> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof WorkerTimeoutError) {
      throw invalid(loc, `the journal is too large to read within its time limit (${(err.limitMs / 1000).toFixed(1)} s for its size)`, 'value_error.time_limit');
    }
    throw err;
  }
}
