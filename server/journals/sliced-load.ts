/**
 * Cold loads of large journals without stalling the event loop. Applying a 20 MB state to a
 * Y.Doc in one `Y.applyUpdate` held the loop for 0.3-0.5 s (text-heavy, with the merge of its
 * log) to 2-4 s (block-heavy, 40,000 blocks), and the first editor's block-id audit for 0.35 s
 * more. A journal whose stored state is at least `minBytes` (JOURNAL_SLICED_LOAD_BYTES) is
 * therefore loaded in slices of about SLICE_MS of main-thread time, with the event loop free in
 * between (setImmediate: sockets, timers and requests run):
 *
 * 1. its stored state as one update: the snapshot itself, or, when the log holds updates, the
 *    merge of snapshot and log (Y.mergeUpdates, one piece of work) in a worker thread of its own;
 * 2. that update scanned, its structs put in causal order and cut into small updates
 *    (load-plan.ts), each applied to a fresh Y.Doc as it is written;
 * 3. the loaded fragment walked for the block index and the block-id audit.
 *
 * Nothing is pending after the last chunk (each chunk's dependencies came before it); should Yjs
 * hold anything anyway, or the state not be cut (load-plan.ts UncuttableState), or the worker
 * fail, the state is applied in one piece as before, and `onFallback` is told.
 */
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { workerOperation, type WorkerPool } from '../workers/pool.ts';
import { auditInSlices, type PreparedBlocks } from './block-index.ts';
import { causalOrder, chunks, scanState, type StateIndex } from './load-plan.ts';
import { stateBytes, type StateInput } from './read-offload.ts';
import type { StoredState } from './store.ts';

/** Stored state at or above this many bytes is loaded in slices (JOURNAL_SLICED_LOAD_BYTES). */
export const DEFAULT_SLICED_LOAD_BYTES = 256 * 1024;
/** Main-thread time a slice may take before the load yields to the event loop. */
export const SLICE_MS = 5;

/** Snapshot and log merged into one update (a worker's task: server/load-worker.ts). */
export const journalMerge = workerOperation<StateInput, Uint8Array>('journal.merge');

/** A Y.Doc built off the critical path, with what the journal takes over from the load. */
export interface PreparedDoc {
  doc: Y.Doc;
  /** The committed state as one update (the joiners' answer until the next revision). */
  encoded: Uint8Array;
  blocks: PreparedBlocks;
}

export interface SlicedLoader {
  pool: WorkerPool;
  /** The lean worker entry that merges a state with a log (server/load-worker.mjs). */
  entry: URL;
  /** Stored state at or above this size is loaded in slices (0: never). */
  minBytes: number;
  /** Told when the state was applied in one piece instead (the worker failed, the state could not be cut). */
  onFallback?(err: unknown): void;
}

/** Yields to the event loop (after I/O callbacks, unlike a microtask). */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `state` is loaded in slices by `loader`. */
export function loadsInSlices(loader: SlicedLoader | undefined, state: StoredState): loader is SlicedLoader {
  return loader !== undefined && loader.minBytes > 0 && stateBytes(state) >= loader.minBytes;
}

/** Runs `steps` to its end, SLICE_MS at a time. */
async function inSlices(steps: Generator<unknown, void>): Promise<void> {
  for (;;) {
    const start = performance.now();
    while (performance.now() - start < SLICE_MS) if (steps.next().done) return;
    await yieldToLoop();
  }
}

/**
 * The stored state as a Y.Doc, built in slices of at most about SLICE_MS of main-thread time.
 * `origin`: the transaction origin of the chunks (the journal's log origin).
 */
export async function prepareDoc(loader: SlicedLoader, state: StoredState, origin: unknown): Promise<PreparedDoc> {
  let update: Uint8Array;
  if (state.updates.length === 0 && state.snapshot) update = state.snapshot;
  else if (!state.snapshot && state.updates.length === 1) update = state.updates[0]!;
  else {
    try {
      update = await mergeInWorker(loader, { snapshot: state.snapshot, updates: state.updates });
    } catch (err) {
      loader.onFallback?.(err);
      return oneShot(state, origin);
    }
  }
  const doc = new Y.Doc({ gc: true });
  const fragment = doc.getXmlFragment(FRAGMENT_NAME);
  try {
    const scanned: { index?: StateIndex } = {};
    await inSlices(scanState(update, scanned));
    const ordered: { order?: Int32Array } = {};
    await inSlices(causalOrder(scanned.index!, ordered));
    let sliceStart = performance.now();
    for (const chunk of chunks(scanned.index!, ordered.order!)) {
      Y.applyUpdate(doc, chunk, origin);
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    if (doc.store.pendingStructs || doc.store.pendingDs) throw new Error('a chunk of the sliced load was held as pending');
  } catch (err) {
    doc.destroy();
    loader.onFallback?.(err);
    return oneShot(state, origin, update);
  }
  return { doc, encoded: update, blocks: await auditInSlices(fragment, SLICE_MS, yieldToLoop) };
}

/** Merges being made now; more wait, so that a burst of cold loads does not start a thread each. */
const MERGES_AT_ONCE = 2;
let merging = 0;
const waiting: (() => void)[] = [];

/**
 * Snapshot and log as one update, merged in a worker of its own that is terminated once it
 * answers: merging a 20 MB state takes a few times that in heap, which would otherwise stay with a
 * pooled worker.
 */
async function mergeInWorker(loader: SlicedLoader, input: StateInput): Promise<Uint8Array> {
  while (merging >= MERGES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  merging++;
  try {
    return await loader.pool.runAlone(journalMerge, input, loader.pool.timeLimitMs(stateBytes(input)), loader.entry);
  } finally {
    merging--;
    waiting.shift()?.();
  }
}

/** The stored state applied in one piece (small journals, and the fallback). */
function oneShot(state: StoredState, origin: unknown, merged?: Uint8Array): PreparedDoc {
  const doc = new Y.Doc({ gc: true });
  doc.getXmlFragment(FRAGMENT_NAME);
  const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
  const update = merged ?? (all.length === 1 ? all[0]! : Y.mergeUpdates(all));
  if (all.length > 0) Y.applyUpdate(doc, update, origin);
  return { doc, encoded: update, blocks: undefined };
}
