/**
 * Cold loads of large journals without stalling the event loop. Applying a 20 MB state to a
 * Y.Doc in one `Y.applyUpdate` held the loop for 0.5 s (text-heavy) to 2-4 s (block-heavy,
 * 40,000 blocks), and the first editor's block-id audit for 0.35 s more. A journal whose stored
 * state is at least `slicedLoadBytes` (JOURNAL_SLICED_LOAD_BYTES) is therefore loaded in slices:
 *
 * 1. a worker thread merges the stored state into one update, orders its structs causally and
 *    cuts them into small updates (load-plan.ts);
 * 2. the main thread applies those chunks to a fresh Y.Doc, as many as fit in SLICE_MS, then
 *    yields (setImmediate) so that sockets, timers and requests run between slices;
 * 3. it walks the loaded fragment for the block index and the block-id audit, in slices too.
 *
 * Nothing is pending after the last chunk (each chunk's dependencies came before it); should Yjs
 * hold anything anyway, or the worker fail, the state is applied in one piece as before.
 */
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { workerOperation, type WorkerPool } from '../workers/pool.ts';
import { auditInSlices, type PreparedBlocks } from './block-index.ts';
import type { LoadPlan } from './load-plan.ts';
import { stateBytes, type StateInput } from './read-offload.ts';
import type { StoredState } from './store.ts';

/** Stored state at or above this many bytes is loaded in slices (JOURNAL_SLICED_LOAD_BYTES). */
export const DEFAULT_SLICED_LOAD_BYTES = 256 * 1024;
/** Main-thread time a slice may take before the load yields to the event loop. */
export const SLICE_MS = 8;

export const journalLoadPlan = workerOperation<StateInput, LoadPlan>('journal.loadPlan');

/** A Y.Doc built off the critical path, with what the journal takes over from the load. */
export interface PreparedDoc {
  doc: Y.Doc;
  /** The committed state as one update (the joiners' answer until the next revision). */
  encoded: Uint8Array;
  blocks: PreparedBlocks;
}

export interface SlicedLoader {
  pool: WorkerPool;
  /** Stored state at or above this size is loaded in slices (0: never). */
  minBytes: number;
  /** Told when the worker or the slices failed and the state was applied in one piece. */
  onFallback?(err: unknown): void;
}

/** Yields to the event loop (after I/O callbacks, unlike a microtask). */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `state` is loaded in slices by `loader`. */
export function loadsInSlices(loader: SlicedLoader | undefined, state: StoredState): loader is SlicedLoader {
  return loader !== undefined && loader.minBytes > 0 && stateBytes(state) >= loader.minBytes;
}

/**
 * The stored state as a Y.Doc, built in slices of at most about SLICE_MS of main-thread time.
 * `origin`: the transaction origin of the chunks (the journal's log origin).
 */
export async function prepareDoc(loader: SlicedLoader, state: StoredState, origin: unknown): Promise<PreparedDoc> {
  const input: StateInput = { snapshot: state.snapshot, updates: state.updates };
  let plan: LoadPlan;
  try {
    plan = await loader.pool.run(journalLoadPlan, input, loader.pool.timeLimitMs(stateBytes(input)));
  } catch (err) {
    loader.onFallback?.(err);
    return oneShot(state, origin);
  }
  const encoded = plan.merged ?? state.snapshot!;
  if (!plan.chunks) {
    loader.onFallback?.(new Error('stored state could not be ordered causally'));
    return oneShot(state, origin, encoded);
  }
  const doc = new Y.Doc({ gc: true });
  const fragment = doc.getXmlFragment(FRAGMENT_NAME);
  const chunks = plan.chunks;
  let sliceStart = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    Y.applyUpdate(doc, chunks[i]!, origin);
    (chunks as (Uint8Array | undefined)[])[i] = undefined; // freed as it goes
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  if (doc.store.pendingStructs || doc.store.pendingDs) {
    doc.destroy();
    loader.onFallback?.(new Error('a chunk of the sliced load was held as pending'));
    return oneShot(state, origin, encoded);
  }
  return { doc, encoded, blocks: await auditInSlices(fragment, SLICE_MS, yieldToLoop) };
}

/** The stored state applied in one piece (small journals, and the fallback). */
function oneShot(state: StoredState, origin: unknown, encoded?: Uint8Array): PreparedDoc {
  const doc = new Y.Doc({ gc: true });
  doc.getXmlFragment(FRAGMENT_NAME);
  const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
  const merged = encoded ?? (all.length === 1 ? all[0]! : Y.mergeUpdates(all));
  if (all.length > 0) Y.applyUpdate(doc, merged, origin);
  return { doc, encoded: merged, blocks: undefined };
}
