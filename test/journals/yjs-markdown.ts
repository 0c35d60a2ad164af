/** What an editor's Y.Doc holds, as the service would export it (the read model, then markdown). */
import type * as Y from 'yjs';
import { docToMarkdown } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { fragmentToDoc } from '../../server/journals/read-model.ts';

export function yjsToMarkdown(doc: Y.Doc): string {
  return docToMarkdown(fragmentToDoc(doc.getXmlFragment(FRAGMENT_NAME)).doc);
}
