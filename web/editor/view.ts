/**
 * The ProseMirror view bound to the journal's live Y.Doc by y-prosemirror: ySyncPlugin (the
 * `prosemirror` fragment), yCursorPlugin (remote cursors and selections from awareness) and
 * yUndoPlugin (undo and redo of this editor's own changes only), with the input rules, keymap,
 * toolbar and task-list checkboxes.
 */
import { EditorState, Plugin } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { ySyncPlugin, yCursorPlugin, yUndoPlugin, yUndoPluginKey } from 'y-prosemirror';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { blockIdPlugin } from './block-ids.ts';
import type { Collab } from './collab.ts';
import { journalInputRules } from './input-rules.ts';
import { journalKeymaps } from './keymap.ts';
import { ListItemView } from './nodeviews.ts';
import { editorSchema } from './schema.ts';
import { editLink, Toolbar } from './toolbar.ts';

export function createEditor(mount: HTMLElement, collab: Collab, extra: Plugin[] = []): { view: EditorView; toolbar: Toolbar } {
  const toolbar = new Toolbar();
  const fragment = collab.doc.getXmlFragment(FRAGMENT_NAME);
  let view: EditorView;
  const toolbarSync = new Plugin({ view: () => ({ update: (v) => toolbar.update(v.state) }) });
  // Moving the caret without typing starts a new undo step, as in other editors: undo takes back
  // what was typed here, not also what was typed elsewhere a moment before.
  const undoSteps = new Plugin({
    appendTransaction: (trs, _old, next) => {
      if (trs.some((tr) => tr.selectionSet && !tr.docChanged && !tr.getMeta('y-sync$'))) yUndoPluginKey.getState(next)?.undoManager?.stopCapturing();
      return null;
    },
  });
  const state = EditorState.create({
    schema: editorSchema,
    plugins: [
      ySyncPlugin(fragment),
      yCursorPlugin(collab.awareness),
      yUndoPlugin(),
      journalInputRules(),
      blockIdPlugin(),
      ...journalKeymaps(() => void editLink(view)),
      toolbarSync,
      undoSteps,
      ...extra,
    ],
  });
  let destroyed = false;
  view = new EditorView(mount, {
    state,
    nodeViews: { list_item: (node, v, getPos) => new ListItemView(node, v, getPos) },
    attributes: { class: 'journal', 'aria-label': 'Journal', spellcheck: 'true' },
    // A plugin may still dispatch while the page tears the view down (the cursor plugin clears its
    // awareness field on destroy, and listeners answer): a destroyed view takes no transaction.
    dispatchTransaction(this: EditorView, tr) {
      if (destroyed) return;
      this.updateState(this.state.apply(tr));
    },
  });
  const destroy = view.destroy.bind(view);
  view.destroy = () => {
    destroyed = true;
    destroy();
  };
  toolbar.attach(view);
  // Undo and redo stacks change after the Yjs transaction that the view update came from: the
  // undo and redo buttons are refreshed when they do.
  const undoManager = yUndoPluginKey.getState(view.state)?.undoManager;
  const refresh = () => toolbar.update(view.state);
  undoManager?.on('stack-item-added', refresh);
  undoManager?.on('stack-item-popped', refresh);
  return { view, toolbar };
}
