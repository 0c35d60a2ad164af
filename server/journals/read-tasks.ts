/**
 * Reads of large journals as worker tasks (server/worker.ts runs them; read-offload.ts sends
 * them): the stored state becomes a Y.Doc of the worker's own, read and printed exactly as the
 * main thread reads a loaded journal.
 */
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { exportFragment } from './markdown-export.ts';
import { fragmentToDoc } from './read-model.ts';
import type { ReadTally, StateInput } from './read-offload.ts';

function fragmentOf(state: StateInput): Y.XmlFragment {
  const doc = new Y.Doc({ gc: true });
  const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
  if (all.length > 0) Y.applyUpdate(doc, all.length === 1 ? all[0]! : Y.mergeUpdates(all));
  return doc.getXmlFragment(FRAGMENT_NAME);
}

export function exportTask(state: StateInput): { result: { markdown: string; tally: ReadTally } } {
  return { result: exportFragment(fragmentOf(state)) };
}

export function modelTask(state: StateInput): { result: { json: string; tally: ReadTally } } {
  const read = fragmentToDoc(fragmentOf(state));
  return { result: { json: JSON.stringify(read.doc.toJSON()), tally: { dropped: read.dropped, repaired: read.repaired, issues: read.issues } } };
}
