import type { Node as PMNode } from 'prosemirror-model';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { docToUpdate } from './yjs-encode.ts';

/**
 * The first stored state of a journal: `doc` in the `prosemirror` fragment, as one Yjs update,
 * written directly (yjs-encode.ts) with the structure y-prosemirror gives it.
 */
export function docToSnapshot(doc: PMNode): Uint8Array {
  return docToUpdate(doc, FRAGMENT_NAME);
}
