/**
 * Editing commands for every block kind and mark of the journal schema, used by the toolbar, the
 * keymap and the input rules. ProseMirror command convention: `(state, dispatch?) => boolean`,
 * without dispatch only answering whether the command applies.
 */
import { lift, setBlockType, toggleMark, wrapIn } from 'prosemirror-commands';
import { Fragment, type Attrs, type MarkType, type Node as PMNode, type NodeType, type ResolvedPos } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import { TextSelection, type Command, type EditorState, type Transaction } from 'prosemirror-state';
import { findWrapping } from 'prosemirror-transform';
import { editorSchema as schema } from './schema.ts';

const n = schema.nodes;

// --- what the selection is in -----------------------------------------------------------------

/** The nearest ancestor of the selection of one of these types, with its depth and position. */
export function ancestor($pos: ResolvedPos, types: NodeType[]): { node: PMNode; depth: number; pos: number } | null {
  for (let d = $pos.depth; d > 0; d--) {
    const node = $pos.node(d);
    if (types.includes(node.type)) return { node, depth: d, pos: $pos.before(d) };
  }
  return null;
}

export function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

export function blockActive(state: EditorState, type: NodeType, attrs: Attrs = {}): boolean {
  const parent = state.selection.$from.parent;
  return parent.type === type && Object.entries(attrs).every(([k, v]) => parent.attrs[k] === v);
}

/** The list the selection is directly in (its innermost list item's parent). */
function currentList(state: EditorState): { node: PMNode; pos: number; depth: number } | null {
  const item = ancestor(state.selection.$from, [n.list_item]);
  if (!item) return null;
  const $item = state.doc.resolve(item.pos);
  return { node: $item.parent, pos: $item.before($item.depth), depth: $item.depth };
}

export function isTaskList(list: PMNode): boolean {
  return list.type === n.bullet_list && list.childCount > 0 && list.firstChild!.attrs.checked !== null;
}

export function listActive(state: EditorState, kind: 'bullet' | 'ordered' | 'task'): boolean {
  const list = currentList(state);
  if (!list) return false;
  if (kind === 'ordered') return list.node.type === n.ordered_list;
  return list.node.type === n.bullet_list && isTaskList(list.node) === (kind === 'task');
}

// --- blocks ----------------------------------------------------------------------------------

/** setBlockType that keeps each block's id (REST clients keep addressing the same block). */
const setBlock =
  (type: NodeType, attrs: Attrs = {}): Command =>
  (state, dispatch) => {
    if (!setBlockType(type, attrs)(state)) return false;
    if (dispatch) {
      const tr = state.tr;
      for (const { $from, $to } of state.selection.ranges) tr.setBlockType($from.pos, $to.pos, type, (old) => ({ ...attrs, id: old.attrs.id ?? null }));
      dispatch(tr.scrollIntoView());
    }
    return true;
  };

export const setParagraph: Command = setBlock(n.paragraph);
export const setHeading = (level: number): Command => setBlock(n.heading, { level });

/** Code block on, or back to a paragraph when already in one. */
export const toggleCodeBlock: Command = (state, dispatch) =>
  blockActive(state, n.code_block) ? setBlock(n.paragraph)(state, dispatch) : setBlock(n.code_block)(state, dispatch);

/** Enter after a lone fence (```` ``` ```` or ```` ```lang ````) makes the paragraph a code block, as the input rule does on a space. */
export const codeFenceOnEnter: Command = (state, dispatch) => {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type !== n.paragraph || $from.parentOffset !== $from.parent.content.size) return false;
  const fence = /^```([A-Za-z0-9_+#.-]*)$/.exec($from.parent.textContent);
  if (!fence) return false;
  if (dispatch) {
    const start = $from.start();
    const id = $from.parent.attrs.id as string | null;
    dispatch(state.tr.delete(start, $from.end()).setBlockType(start, start, n.code_block, { id, language: fence[1] || null }).scrollIntoView());
  }
  return true;
};

export const toggleBlockquote: Command = (state, dispatch) => {
  if (ancestor(state.selection.$from, [n.blockquote])) return lift(state, dispatch);
  return wrapIn(n.blockquote)(state, dispatch);
};

/** Sets every item of a list to a task item (`checked` false) or back to ordinary items (null). */
function setItemsChecked(tr: Transaction, listPos: number, task: boolean): void {
  const list = tr.doc.nodeAt(listPos)!;
  list.forEach((item, offset) => {
    const want = task ? (item.attrs.checked ?? false) : null;
    if (item.attrs.checked !== want) tr.setNodeMarkup(listPos + 1 + offset, undefined, { ...item.attrs, checked: want });
  });
}

/**
 * Toggles a list kind: off when the selection is in that kind (the items are lifted out), a change
 * of kind when it is in another list, otherwise the selected blocks are wrapped in a new list.
 */
export const toggleList =
  (kind: 'bullet' | 'ordered' | 'task'): Command =>
  (state, dispatch) => {
    const type = kind === 'ordered' ? n.ordered_list : n.bullet_list;
    const list = currentList(state);
    if (list && listActive(state, kind)) return liftListItem(n.list_item)(state, dispatch);
    if (list) {
      if (dispatch) {
        const tr = state.tr;
        if (list.node.type !== type) tr.setNodeMarkup(list.pos, type, type === n.ordered_list ? { id: list.node.attrs.id, order: 1, tight: list.node.attrs.tight } : { id: list.node.attrs.id, tight: list.node.attrs.tight });
        setItemsChecked(tr, list.pos, kind === 'task');
        dispatch(tr.scrollIntoView());
      }
      return true;
    }
    if (kind !== 'task') return wrapInList(type)(state, dispatch);
    return wrapInList(type)(state, (tr) => {
      // The new list is the ancestor of the mapped selection start.
      const made = ancestor(tr.selection.$from, [n.bullet_list]);
      if (made) setItemsChecked(tr, made.pos, true);
      dispatch?.(tr);
    });
  };

/** Enter in a list item: the new item is a task item when this one is (unchecked). */
export const splitItem: Command = (state, dispatch) => {
  const item = ancestor(state.selection.$from, [n.list_item]);
  const checked = item && item.node.attrs.checked !== null ? false : null;
  return splitListItem(n.list_item, { checked })(state, dispatch);
};
export const sinkItem: Command = sinkListItem(n.list_item);
export const liftItem: Command = liftListItem(n.list_item);

/** Flips the checkbox of the task item at `pos`. */
export function toggleChecked(pos: number): Command {
  return (state, dispatch) => {
    const item = state.doc.nodeAt(pos);
    if (!item || item.type !== n.list_item || item.attrs.checked === null) return false;
    dispatch?.(state.tr.setNodeMarkup(pos, undefined, { ...item.attrs, checked: !item.attrs.checked }));
    return true;
  };
}

/** Puts a block node in place of the selection's textblock when empty, else after it; the cursor lands after. */
function insertBlock(node: PMNode): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    const textblock = $from.parent;
    let at: number;
    let replace = false;
    if (textblock.isTextblock && textblock.content.size === 0 && $from.depth > 0) {
      at = $from.before();
      replace = true;
    } else {
      at = $from.depth > 0 ? $from.after() : $from.pos;
    }
    const $at = state.doc.resolve(at);
    if (!$at.parent.canReplaceWith($at.index(), replace ? $at.index() + 1 : $at.index(), node.type)) return false;
    if (dispatch) {
      const tr = replace ? state.tr.replaceWith(at, at + textblock.nodeSize, node) : state.tr.insert(at, node);
      const after = at + node.nodeSize;
      // Somewhere to type after an atom or table at the end of its parent.
      if (tr.doc.resolve(after).nodeAfter === null) tr.insert(after, n.paragraph.create());
      const inside = node.isAtom ? null : TextSelection.findFrom(tr.doc.resolve(at + 1), 1);
      tr.setSelection(inside ?? TextSelection.near(tr.doc.resolve(Math.min(after + 1, tr.doc.content.size))));
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

export const insertHorizontalRule: Command = (state, dispatch) => insertBlock(n.horizontal_rule.create())(state, dispatch);
export const insertHtmlBlock = (html: string): Command => insertBlock(n.html_block.create({ html }));

export function tableNode(header: string[], bodyRows = 1): PMNode {
  const cells = (type: NodeType, texts: string[]) => texts.map((t) => type.create(null, t ? schema.text(t) : null));
  const cols = header.length;
  return n.table.create(null, [
    n.table_row.create(null, cells(n.table_header, header)),
    ...Array.from({ length: bodyRows }, () => n.table_row.create(null, cells(n.table_cell, Array(cols).fill('')))),
  ]);
}

/** An empty table (header row included); the cursor lands in its first header cell. */
export const insertTable = (cols: number, rows: number): Command => insertBlock(tableNode(Array(cols).fill(''), Math.max(1, rows - 1)));

export const insertImage =
  (attrs: { src: string; alt?: string; title?: string | null }): Command =>
  (state, dispatch) => {
    const image = n.image.create({ src: attrs.src, alt: attrs.alt ?? '', title: attrs.title || null });
    const { $from } = state.selection;
    if (!$from.parent.canReplaceWith($from.index(), $from.index(), n.image)) return false;
    dispatch?.(state.tr.replaceSelectionWith(image).scrollIntoView());
    return true;
  };

export const insertHardBreak: Command = (state, dispatch) => {
  const { $from } = state.selection;
  if ($from.parent.type.spec.code || !$from.parent.canReplaceWith($from.index(), $from.index(), n.hard_break)) return false;
  dispatch?.(state.tr.replaceSelectionWith(n.hard_break.create()).scrollIntoView());
  return true;
};

// --- marks -----------------------------------------------------------------------------------

export const toggleStrong = toggleMark(schema.marks.strong);
export const toggleEm = toggleMark(schema.marks.em);
export const toggleCode = toggleMark(schema.marks.code);
export const toggleStrike = toggleMark(schema.marks.strikethrough);

/** The link around the cursor or selection: its range and href. */
export function linkAt(state: EditorState): { from: number; to: number; href: string } | null {
  const type = schema.marks.link;
  const { $from, from, to, empty } = state.selection;
  if (!empty) {
    let found: { from: number; to: number; href: string } | null = null;
    state.doc.nodesBetween(from, to, (node) => {
      const mark = type.isInSet(node.marks);
      if (mark && !found) found = { from, to, href: mark.attrs.href as string };
    });
    return found;
  }
  const mark = type.isInSet($from.marks());
  if (!mark) return null;
  // Extend over the text of the parent that carries the same link.
  let start = $from.index();
  let end = $from.indexAfter();
  const parent = $from.parent;
  while (start > 0 && mark.isInSet(parent.child(start - 1).marks)) start--;
  while (end < parent.childCount && mark.isInSet(parent.child(end).marks)) end++;
  let pos = $from.start();
  let a = pos;
  let b = pos;
  parent.forEach((child, offset, i) => {
    if (i === start) a = pos + offset;
    if (i === end - 1) b = pos + offset + child.nodeSize;
  });
  return { from: a, to: b, href: mark.attrs.href as string };
}

/** Sets (or with an empty href removes) the link on the selection; with no selection inserts the text. */
export const setLink =
  (href: string, text?: string): Command =>
  (state, dispatch) => {
    const type = schema.marks.link;
    const existing = linkAt(state);
    const { from, to, empty } = state.selection;
    if (!dispatch) return true;
    const tr = state.tr;
    if (!href) {
      if (existing) tr.removeMark(existing.from, existing.to, type);
      else tr.removeMark(from, to, type);
    } else if (existing && empty) {
      tr.removeMark(existing.from, existing.to, type).addMark(existing.from, existing.to, type.create({ href }));
    } else if (empty) {
      const label = text || href;
      tr.insert(from, schema.text(label, [type.create({ href })]));
    } else {
      tr.addMark(from, to, type.create({ href }));
    }
    dispatch(tr.scrollIntoView());
    return true;
  };

// --- tables (GFM tables: one header row, no merged cells) ------------------------------------

interface CellContext {
  table: PMNode;
  tablePos: number;
  row: number;
  col: number;
}

export function cellContext(state: EditorState): CellContext | null {
  const cell = ancestor(state.selection.$from, [n.table_cell, n.table_header]);
  if (!cell) return null;
  const $cell = state.doc.resolve(cell.pos);
  const rowDepth = $cell.depth;
  const tableDepth = rowDepth - 1;
  return { table: $cell.node(tableDepth), tablePos: $cell.before(tableDepth), row: $cell.index(tableDepth), col: $cell.index(rowDepth) };
}

/** Position of the start of cell (row, col) inside a table at tablePos. */
function cellPos(table: PMNode, tablePos: number, row: number, col: number): number {
  let pos = tablePos + 1;
  for (let r = 0; r < row; r++) pos += table.child(r).nodeSize;
  pos += 1;
  const tr = table.child(row);
  for (let c = 0; c < col; c++) pos += tr.child(c).nodeSize;
  return pos;
}

function selectCell(tr: Transaction, tablePos: number, row: number, col: number): void {
  const table = tr.doc.nodeAt(tablePos)!;
  const pos = cellPos(table, tablePos, Math.min(row, table.childCount - 1), Math.min(col, table.child(0).childCount - 1));
  tr.setSelection(TextSelection.create(tr.doc, pos + 1));
}

/** Rebuilds the table with `edit` applied to its rows of cells, and puts the cursor at (row, col). */
function rebuildTable(edit: (rows: PMNode[][]) => PMNode[][] | null, cursor: (c: CellContext) => [number, number]): Command {
  return (state, dispatch) => {
    const c = cellContext(state);
    if (!c) return false;
    const rows: PMNode[][] = [];
    c.table.forEach((row) => {
      const cells: PMNode[] = [];
      row.forEach((cell) => cells.push(cell));
      rows.push(cells);
    });
    const next = edit(rows);
    if (!next) return false;
    if (dispatch) {
      const tr = state.tr;
      if (next.length === 0 || next[0]!.length === 0) {
        tr.delete(c.tablePos, c.tablePos + c.table.nodeSize);
        if (tr.doc.childCount === 0) tr.insert(0, n.paragraph.create());
      } else {
        // Same table node (its id stays), new rows: one replace, one undo step.
        const table = c.table.copy(Fragment.from(next.map((cells) => n.table_row.create(null, cells))));
        tr.replaceWith(c.tablePos, c.tablePos + c.table.nodeSize, table);
        const [row, col] = cursor(c);
        selectCell(tr, c.tablePos, Math.max(0, row), Math.max(0, col));
      }
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

const emptyLike = (cell: PMNode, header: boolean) => (header ? n.table_header : n.table_cell).create({ align: cell.attrs.align });

/** Adds a body row above or below the cursor's row (never above the header); the cursor moves into it, at `col` or its own column. */
export const addRow = (where: 'before' | 'after', col?: number): Command =>
  (state, dispatch) => {
    const c = cellContext(state);
    if (!c) return false;
    const at = where === 'after' ? c.row + 1 : Math.max(1, c.row);
    return rebuildTable(
      (rows) => {
        const template = rows[rows.length > 1 ? 1 : 0]!;
        const row = template.map((cell) => emptyLike(cell, false));
        return [...rows.slice(0, at), row, ...rows.slice(at)];
      },
      () => [at, col ?? c.col],
    )(state, dispatch);
  };

export const addColumn = (where: 'before' | 'after'): Command =>
  (state, dispatch) => {
    const c = cellContext(state);
    if (!c) return false;
    const at = where === 'after' ? c.col + 1 : c.col;
    return rebuildTable(
      (rows) => rows.map((cells, r) => [...cells.slice(0, at), (r === 0 ? n.table_header : n.table_cell).create(), ...cells.slice(at)]),
      () => [c.row, at],
    )(state, dispatch);
  };

/** Deletes the cursor's row; the header row goes only with the table (GFM needs one). */
export const deleteRow: Command = (state, dispatch) => {
  const c = cellContext(state);
  if (!c) return false;
  if (c.row === 0 && c.table.childCount > 1) return false;
  return rebuildTable(
    (rows) => (rows.length === 1 ? [] : rows.filter((_, i) => i !== c.row)),
    () => [c.row - 1, c.col],
  )(state, dispatch);
};

export const deleteColumn: Command = (state, dispatch) => {
  const c = cellContext(state);
  if (!c) return false;
  return rebuildTable(
    (rows) => (rows[0]!.length === 1 ? [] : rows.map((cells) => cells.filter((_, i) => i !== c.col))),
    () => [c.row, c.col - 1],
  )(state, dispatch);
};

export const deleteTable: Command = (state, dispatch) => {
  const c = cellContext(state);
  if (!c) return false;
  return rebuildTable(
    () => [],
    () => [0, 0],
  )(state, dispatch);
};

export const alignColumn = (align: 'left' | 'center' | 'right' | null): Command =>
  (state, dispatch) => {
    const c = cellContext(state);
    if (!c) return false;
    return rebuildTable(
      (rows) => rows.map((cells) => cells.map((cell, i) => (i === c.col ? cell.type.create({ ...cell.attrs, align }, cell.content, cell.marks) : cell))),
      () => [c.row, c.col],
    )(state, dispatch);
  };

/** Tab / Shift-Tab in a table: the next or previous cell; Tab in the last cell adds a row. */
export const goToCell = (dir: 1 | -1): Command =>
  (state, dispatch) => {
    const c = cellContext(state);
    if (!c) return false;
    const cols = c.table.child(0).childCount;
    let index = c.row * cols + c.col + dir;
    if (index < 0) return true;
    if (index >= c.table.childCount * cols) return addRow('after', 0)(state, dispatch);
    if (dispatch) {
      const tr = state.tr;
      selectCell(tr, c.tablePos, Math.floor(index / cols), index % cols);
      dispatch(tr.scrollIntoView());
    }
    return true;
  };

/** Wraps the textblock at `start..end` in a task list (input rule `[ ] `). */
export function wrapInTaskList(state: EditorState, start: number, end: number, checked: boolean) {
  const tr = state.tr.delete(start, end);
  const $start = tr.doc.resolve(start);
  const item = ancestor($start, [n.list_item]);
  if (item && $start.index(item.depth) === 0) {
    // Already a list item: `[ ] ` at its start makes it a task item.
    tr.setNodeMarkup(item.pos, undefined, { ...item.node.attrs, checked });
    return tr;
  }
  const range = $start.blockRange();
  const wrapping = range && findWrapping(range, n.bullet_list);
  if (!range || !wrapping) return null;
  tr.wrap(range, wrapping);
  const list = ancestor(tr.doc.resolve(tr.mapping.map(start)), [n.bullet_list]);
  if (list) {
    const li = list.node.firstChild!;
    tr.setNodeMarkup(list.pos + 1, undefined, { ...li.attrs, checked });
  }
  return tr;
}
