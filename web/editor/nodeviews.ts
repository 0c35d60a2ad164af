/** List items with a checkbox when they are task items (`checked` true or false). */
import type { Node as PMNode } from 'prosemirror-model';
import type { EditorView, NodeView } from 'prosemirror-view';
import { toggleChecked } from './commands.ts';

export class ListItemView implements NodeView {
  dom: HTMLLIElement;
  contentDOM: HTMLDivElement;
  private box: HTMLInputElement;

  constructor(
    private node: PMNode,
    view: EditorView,
    getPos: () => number | undefined,
  ) {
    this.dom = document.createElement('li');
    this.box = document.createElement('input');
    this.box.type = 'checkbox';
    this.box.className = 'task-check';
    this.box.contentEditable = 'false';
    this.box.setAttribute('aria-label', 'Done');
    // mousedown, not change: the editor must not take the click as a selection.
    this.box.addEventListener('mousedown', (e) => {
      e.preventDefault();
      const pos = getPos();
      if (pos !== undefined && view.editable) toggleChecked(pos)(view.state, view.dispatch);
    });
    this.contentDOM = document.createElement('div');
    this.contentDOM.className = 'task-body';
    this.dom.append(this.box, this.contentDOM);
    this.render();
  }

  private render(): void {
    const checked = this.node.attrs.checked as boolean | null;
    const task = checked !== null;
    this.dom.className = task ? 'task-item' : '';
    if (task) this.dom.dataset.checked = String(checked);
    else delete this.dom.dataset.checked;
    this.box.hidden = !task;
    this.box.checked = checked === true;
    if (this.node.attrs.id) this.dom.dataset.id = this.node.attrs.id as string;
  }

  update(node: PMNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render();
    return true;
  }

  /** The checkbox is ours; ProseMirror must not read it as content. */
  ignoreMutation(m: MutationRecord | { type: 'selection'; target: Node }): boolean {
    return m.target === this.box || (m.type === 'attributes' && m.target === this.dom);
  }

  stopEvent(e: Event): boolean {
    return e.target === this.box;
  }
}
