import type { Node as PMNode } from 'prosemirror-model';
import { docToMarkdown, markdownToDoc } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { docToUpdate } from './yjs-encode.ts';

/**
 * The first stored state of a journal: `doc` in the `prosemirror` fragment, as one Yjs update,
 * written directly (yjs-encode.ts) with the structure y-prosemirror gives it.
 */
export function docToSnapshot(doc: PMNode): Uint8Array {
  return docToUpdate(doc, FRAGMENT_NAME);
}

/** A journal made from markdown: its first state and the markdown it exports (cached at once). */
export interface ImportedJournal {
  snapshot: Uint8Array;
  markdown: string;
}

/** The journal `markdown` imports to; its export is printed from the same document. */
export function importedJournal(markdown: string): ImportedJournal {
  const doc = markdownToDoc(markdown);
  return { snapshot: docToSnapshot(doc), markdown: docToMarkdown(doc) };
}
