/**
 * The minimal Tiptap app of docs/tiptap.md, as the browser suite runs it (tiptap.test.ts bundles
 * it with esbuild): a Tiptap editor with the journal extensions (shared/tiptap.ts, built to
 * dist/tiptap/index.mjs for apps) bound to a journal through @hocuspocus/provider. The session
 * (`collaboration_url`, `journal_id`, `token` of POST /v1/journals/editor/session) comes in the
 * page's fragment. Written without the DOM's types: the test code is type-checked for Node.
 */
import { Editor } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { JOURNAL_FIELD, journalExtensions } from '../../../shared/tiptap.ts';

const g = globalThis as any;
const session = JSON.parse(decodeURIComponent(g.location.hash.slice(1))) as { collaboration_url: string; journal_id: string; token: string };

const doc = new Y.Doc();
const provider = new HocuspocusProvider({ url: session.collaboration_url, name: session.journal_id, token: session.token, document: doc });

const editor = new Editor({
  element: g.document.querySelector('#editor'),
  extensions: [...journalExtensions(), Collaboration.configure({ document: doc, field: JOURNAL_FIELD })],
});

provider.on('synced', () => g.document.body.setAttribute('data-synced', 'true'));
g.tiptap = { editor, provider, doc };
