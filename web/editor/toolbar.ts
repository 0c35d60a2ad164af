/**
 * The toolbar: a button (or the block-type menu) for every block kind and mark of the schema,
 * undo and redo of this editor's own changes, and table editing when the cursor is in a table.
 * Buttons are enabled when their command applies and pressed when the selection has it.
 */
import type { Command, EditorState } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { redoCommand, undoCommand } from 'y-prosemirror';
import { h } from '../dom.ts';
import { ask } from '../ui.ts';
import * as cmd from './commands.ts';
import { MOD } from './keymap.ts';
import { editorSchema as schema, safeHref, safeSrc } from './schema.ts';

interface Item {
  id: string;
  label: string;
  title: string;
  run: (view: EditorView) => void;
  enabled?: (state: EditorState) => boolean;
  active?: (state: EditorState) => boolean;
  /** Shown only when this holds (table tools). */
  visible?: (state: EditorState) => boolean;
}

const apply = (c: Command) => (view: EditorView) => {
  c(view.state, view.dispatch, view);
  view.focus();
};
const can = (c: Command) => (state: EditorState) => c(state);

export async function editLink(view: EditorView): Promise<void> {
  const existing = cmd.linkAt(view.state);
  const { empty } = view.state.selection;
  const fields = [{ name: 'href', label: 'Address (empty removes the link)', value: existing?.href ?? 'https://' }];
  if (empty && !existing) fields.push({ name: 'text', label: 'Text', value: '' });
  const v = await ask(existing ? 'Edit link' : 'Add link', fields);
  if (v) {
    const href = v.href!.trim() === 'https://' ? '' : v.href!.trim();
    if (href && !safeHref(href)) return;
    cmd.setLink(href, v.text)(view.state, view.dispatch);
  }
  view.focus();
}

async function addImage(view: EditorView): Promise<void> {
  const v = await ask('Insert image', [
    { name: 'src', label: 'Image address', value: 'https://', required: true },
    { name: 'alt', label: 'Description (alt text)', value: '' },
    { name: 'title', label: 'Title', value: '' },
  ]);
  if (v && safeSrc(v.src!.trim())) cmd.insertImage({ src: v.src!.trim(), alt: v.alt, title: v.title || null })(view.state, view.dispatch);
  view.focus();
}

async function addTable(view: EditorView): Promise<void> {
  const v = await ask('Insert table', [
    { name: 'cols', label: 'Columns', value: '3', type: 'number' },
    { name: 'rows', label: 'Rows (with the header)', value: '3', type: 'number' },
  ]);
  if (v) cmd.insertTable(Math.min(20, Math.max(1, Number(v.cols) || 3)), Math.min(100, Math.max(2, Number(v.rows) || 3)))(view.state, view.dispatch);
  view.focus();
}

async function addHtml(view: EditorView): Promise<void> {
  const v = await ask('Insert raw HTML', [{ name: 'html', label: 'HTML (kept verbatim in exports, never run here)', value: '<details>\n</details>' }]);
  if (v?.html) cmd.insertHtmlBlock(v.html)(view.state, view.dispatch);
  view.focus();
}

const inTable = (state: EditorState) => cmd.cellContext(state) !== null;

function items(): Item[][] {
  const m = schema.marks;
  return [
    [
      { id: 'undo', label: '↶', title: `Undo your last change (${MOD}+Z)`, run: apply(undoCommand), enabled: can(undoCommand) },
      { id: 'redo', label: '↷', title: `Redo (${MOD}+Y)`, run: apply(redoCommand), enabled: can(redoCommand) },
    ],
    [
      { id: 'strong', label: 'B', title: `Bold (${MOD}+B, **text**)`, run: apply(cmd.toggleStrong), enabled: can(cmd.toggleStrong), active: (s) => cmd.markActive(s, m.strong) },
      { id: 'em', label: 'I', title: `Italic (${MOD}+I, *text*)`, run: apply(cmd.toggleEm), enabled: can(cmd.toggleEm), active: (s) => cmd.markActive(s, m.em) },
      { id: 'strikethrough', label: 'S', title: `Strikethrough (${MOD}+Shift+X, ~~text~~)`, run: apply(cmd.toggleStrike), enabled: can(cmd.toggleStrike), active: (s) => cmd.markActive(s, m.strikethrough) },
      { id: 'code', label: '</>', title: `Inline code (${MOD}+E, \`code\`)`, run: apply(cmd.toggleCode), enabled: can(cmd.toggleCode), active: (s) => cmd.markActive(s, m.code) },
      { id: 'link', label: 'Link', title: `Link (${MOD}+K, [text](url))`, run: (v) => void editLink(v), enabled: can(cmd.toggleEm), active: (s) => cmd.markActive(s, m.link) },
    ],
    [
      { id: 'bullet_list', label: '•', title: `Bullet list (- )`, run: apply(cmd.toggleList('bullet')), enabled: can(cmd.toggleList('bullet')), active: (s) => cmd.listActive(s, 'bullet') },
      { id: 'ordered_list', label: '1.', title: `Numbered list (1. )`, run: apply(cmd.toggleList('ordered')), enabled: can(cmd.toggleList('ordered')), active: (s) => cmd.listActive(s, 'ordered') },
      { id: 'task_list', label: '☑', title: `Task list ([ ] )`, run: apply(cmd.toggleList('task')), enabled: can(cmd.toggleList('task')), active: (s) => cmd.listActive(s, 'task') },
      { id: 'sink', label: '→', title: 'Indent list item (Tab)', run: apply(cmd.sinkItem), enabled: can(cmd.sinkItem) },
      { id: 'lift', label: '←', title: 'Outdent list item (Shift+Tab)', run: apply(cmd.liftItem), enabled: can(cmd.liftItem) },
      { id: 'blockquote', label: '❝', title: 'Quote (> )', run: apply(cmd.toggleBlockquote), enabled: can(cmd.toggleBlockquote), active: (s) => !!cmd.ancestor(s.selection.$from, [schema.nodes.blockquote]) },
    ],
    [
      { id: 'image', label: 'Image', title: 'Image (![alt](src))', run: (v) => void addImage(v), enabled: can(cmd.insertImage({ src: 'x' })) },
      { id: 'table', label: '▦', title: 'Table (|a|b| then space)', run: (v) => void addTable(v), enabled: (s) => !inTable(s) && cmd.insertTable(2, 2)(s) },
      { id: 'horizontal_rule', label: '―', title: 'Horizontal rule (---)', run: apply(cmd.insertHorizontalRule), enabled: can(cmd.insertHorizontalRule) },
      { id: 'html_block', label: 'HTML', title: 'Raw HTML block', run: (v) => void addHtml(v), enabled: can(cmd.insertHtmlBlock('x')) },
    ],
    [
      { id: 'row_before', label: '+Row↑', title: 'Add a row above', run: apply(cmd.addRow('before')), enabled: can(cmd.addRow('before')), visible: inTable },
      { id: 'row_after', label: '+Row↓', title: 'Add a row below (Tab in the last cell)', run: apply(cmd.addRow('after')), enabled: can(cmd.addRow('after')), visible: inTable },
      { id: 'col_before', label: '+Col←', title: 'Add a column to the left', run: apply(cmd.addColumn('before')), enabled: can(cmd.addColumn('before')), visible: inTable },
      { id: 'col_after', label: '+Col→', title: 'Add a column to the right', run: apply(cmd.addColumn('after')), enabled: can(cmd.addColumn('after')), visible: inTable },
      { id: 'delete_row', label: '−Row', title: 'Delete the row', run: apply(cmd.deleteRow), enabled: can(cmd.deleteRow), visible: inTable },
      { id: 'delete_col', label: '−Col', title: 'Delete the column', run: apply(cmd.deleteColumn), enabled: can(cmd.deleteColumn), visible: inTable },
      { id: 'align_left', label: '⇤', title: 'Align the column left', run: apply(cmd.alignColumn('left')), visible: inTable },
      { id: 'align_center', label: '↔', title: 'Center the column', run: apply(cmd.alignColumn('center')), visible: inTable },
      { id: 'align_right', label: '⇥', title: 'Align the column right', run: apply(cmd.alignColumn('right')), visible: inTable },
      { id: 'delete_table', label: '✕ Table', title: 'Delete the table', run: apply(cmd.deleteTable), enabled: can(cmd.deleteTable), visible: inTable },
    ],
  ];
}

const BLOCK_TYPES: { value: string; label: string; command: Command; active: (s: EditorState) => boolean }[] = [
  { value: 'paragraph', label: 'Paragraph', command: cmd.setParagraph, active: (s) => cmd.blockActive(s, schema.nodes.paragraph) },
  ...[1, 2, 3, 4, 5, 6].map((level) => ({
    value: `h${level}`,
    label: `Heading ${level}`,
    command: cmd.setHeading(level),
    active: (s: EditorState) => cmd.blockActive(s, schema.nodes.heading, { level }),
  })),
  { value: 'code_block', label: 'Code block', command: cmd.toggleCodeBlock, active: (s) => cmd.blockActive(s, schema.nodes.code_block) },
];

export class Toolbar {
  readonly dom: HTMLElement;
  private buttons: { item: Item; el: HTMLButtonElement }[] = [];
  private blockSelect: HTMLSelectElement;
  private view: EditorView | null = null;
  private tableTools: HTMLElement;

  constructor() {
    this.blockSelect = h(
      'select',
      {
        'aria-label': 'Block type',
        id: 'block-type',
        onchange: () => {
          const t = BLOCK_TYPES.find((b) => b.value === this.blockSelect.value);
          if (t && this.view) apply(t.command)(this.view);
        },
      },
      ...BLOCK_TYPES.map((b) => h('option', { value: b.value }, b.label)),
      h('option', { value: '', disabled: true, hidden: true }, '—'),
    );
    const groups = items().map((group, i) =>
      h(
        'div',
        { class: i === 4 ? 'group table-tools' : 'group', role: 'group', hidden: i === 4 },
        ...group.map((item) => {
          const el = h('button', { type: 'button', class: 'tool', 'aria-label': item.title, title: item.title, dataset: { command: item.id }, onmousedown: (e: Event) => e.preventDefault() }, item.label);
          el.addEventListener('click', () => this.view && item.run(this.view));
          this.buttons.push({ item, el });
          return el;
        }),
      ),
    );
    this.tableTools = groups[4]!;
    this.dom = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Formatting' }, groups[0]!, h('div', { class: 'group' }, this.blockSelect), ...groups.slice(1));
  }

  attach(view: EditorView): void {
    this.view = view;
    this.update(view.state);
  }

  update(state: EditorState): void {
    for (const { item, el } of this.buttons) {
      const visible = item.visible ? item.visible(state) : true;
      el.hidden = !visible;
      if (!visible) continue;
      el.disabled = item.enabled ? !item.enabled(state) : false;
      const on = item.active?.(state) ?? false;
      el.classList.toggle('active', on);
      if (item.active) el.setAttribute('aria-pressed', String(on));
    }
    // The table group shows only in a table.
    this.tableTools.hidden = !cmd.cellContext(state);
    const current = BLOCK_TYPES.find((b) => b.active(state));
    this.blockSelect.value = current?.value ?? '';
    this.blockSelect.disabled = !BLOCK_TYPES.some((b) => b.command(state));
  }
}
