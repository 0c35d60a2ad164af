import type { Node as PMNode } from 'prosemirror-model';
import { prosemirrorToYXmlFragment } from 'y-prosemirror';
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';

/** The first stored state of a journal: `doc` in the `prosemirror` fragment, as one Yjs update. */
export function docToSnapshot(doc: PMNode): Uint8Array {
  const ydoc = new Y.Doc();
  ydoc.transact(() => prosemirrorToYXmlFragment(doc, ydoc.getXmlFragment(FRAGMENT_NAME)));
  const snapshot = Y.encodeStateAsUpdate(ydoc);
  ydoc.destroy();
  return snapshot;
}
