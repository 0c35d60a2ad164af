/**
 * `/app/`: the key's journals, newest first, a page at a time (`page_size`, `page_token`); create,
 * rename, delete, import `.md` files (picker or drag and drop) and export one as markdown; and the
 * journal tree (parent_item, order_index) with "Move…" to nest and reorder.
 */
import { ApiError, type Api, type JournalListItem } from '../api.ts';
import { clear, download, h, markdownFileName, when } from '../dom.ts';
import { ask, clearMessages, frame, inlineForm, showError, showNotice } from '../ui.ts';

const PAGE_SIZES = [10, 20, 50, 100];
const MARKDOWN_FILE = /\.(md|markdown|mdown|mkd)$/i;

export function journalsPage(api: Api, onSignOut: () => void): void {
  const { main, messages } = frame({ signedIn: true, active: 'journals', onSignOut });
  let pageSize = 20;
  /** page_token of each page seen so far: [undefined (first page), token of page 2, …]. */
  let tokens: (string | undefined)[] = [undefined];
  let page = 0;
  let next: string | undefined;

  const fail = (err: unknown) => showError(messages, err);

  // --- create and import -------------------------------------------------------------------
  const titleInput = h('input', { id: 'new-title', name: 'title', placeholder: 'Title of a new journal', maxLength: 300, autocomplete: 'off' });
  const createForm = inlineForm(
    messages,
    async () => {
      const r = await api.createJournal(titleInput.value.trim() || undefined);
      titleInput.value = '';
      showNotice(messages, `Created “${r.title}”.`);
      await first();
    },
    titleInput,
    h('button', { type: 'submit', class: 'primary', id: 'create' }, 'New journal'),
  );
  const fileInput = h('input', {
    type: 'file',
    id: 'import-file',
    accept: '.md,.markdown,text/markdown',
    multiple: true,
    class: 'visually-hidden',
    onchange: () => {
      void importFiles([...(fileInput.files ?? [])]);
      fileInput.value = '';
    },
  });
  const importLabel = h('label', { for: 'import-file', class: 'button' }, 'Import .md…');

  async function importFiles(files: File[]): Promise<void> {
    clearMessages(messages);
    const md = files.filter((f) => MARKDOWN_FILE.test(f.name) || f.type === 'text/markdown');
    if (md.length === 0) {
      showError(messages, new Error('Only markdown files (.md, .markdown) can be imported.'));
      return;
    }
    let imported = 0;
    for (const file of md) {
      try {
        const title = file.name.replace(MARKDOWN_FILE, '').slice(0, 300) || undefined;
        await api.importMarkdown(await file.text(), title);
        imported++;
        showNotice(messages, `Imported ${file.name}.`);
      } catch (err) {
        // The API's refusal, named after the file (413 too large, 422 invalid, 402, 429…).
        showError(messages, err instanceof ApiError ? new ApiError(err.status, `${file.name}: ${err.message}`, err.retryAfter, err.body) : err);
      }
    }
    if (imported > 0) await first();
  }

  // --- the list ------------------------------------------------------------------------------
  const rows = h('tbody', {});
  const empty = h('p', { class: 'empty', hidden: true }, 'No journals yet: create one or drop a markdown file here.');
  const pageLabel = h('span', { id: 'page-number' });
  const prev = h('button', { type: 'button', id: 'prev-page', onclick: () => void show(page - 1) }, '← Previous');
  const nextButton = h('button', { type: 'button', id: 'next-page', onclick: () => void show(page + 1) }, 'Next →');
  const sizeSelect = h(
    'select',
    {
      id: 'page-size',
      'aria-label': 'Journals per page',
      onchange: () => {
        pageSize = Number(sizeSelect.value);
        void first();
      },
    },
    ...PAGE_SIZES.map((n) => h('option', { value: String(n), selected: n === pageSize }, `${n} per page`)),
  );

  function row(j: JournalListItem): HTMLTableRowElement {
    const title = h('a', { href: `/app/journals/${encodeURIComponent(j.id)}`, dataset: { nav: '' }, class: 'journal-title' }, j.title);
    return h(
      'tr',
      { dataset: { journalId: j.id } },
      h('td', {}, title),
      h('td', { class: 'when' }, when(j.updated_at)),
      h(
        'td',
        { class: 'actions' },
        h('button', { type: 'button', class: 'rename', onclick: () => void rename(j) }, 'Rename'),
        h('button', { type: 'button', class: 'export', onclick: () => void exportJournal(j) }, 'Export .md'),
        h('button', { type: 'button', class: 'delete danger', onclick: () => void remove(j) }, 'Delete'),
      ),
    );
  }

  async function show(index: number): Promise<void> {
    if (index < 0 || index >= tokens.length) return;
    try {
      const r = await api.listJournals(pageSize, tokens[index]);
      page = index;
      // An integer keyset cursor; passed back as it came.
      next = r.next_page_token === undefined ? undefined : String(r.next_page_token);
      tokens = tokens.slice(0, index + 1);
      if (next) tokens.push(next);
      clear(rows);
      rows.append(...r.journals.map(row));
      void loadTree();
      empty.hidden = r.journals.length > 0 || index > 0;
      pageLabel.textContent = `Page ${index + 1}`;
      prev.disabled = index === 0;
      nextButton.disabled = !next;
    } catch (err) {
      fail(err);
    }
  }
  const first = () => {
    tokens = [undefined];
    return show(0);
  };

  async function rename(j: JournalListItem): Promise<void> {
    const v = await ask('Rename journal', [{ name: 'title', label: 'Title', value: j.title, required: true }], { ok: 'Rename' });
    if (!v) return;
    clearMessages(messages);
    try {
      await api.rename(j.id, v.title!.trim());
      await show(page);
    } catch (err) {
      fail(err);
    }
  }

  async function exportJournal(j: JournalListItem): Promise<void> {
    clearMessages(messages);
    try {
      const r = await api.content(j.id);
      download(markdownFileName(r.title), r.content);
    } catch (err) {
      fail(err);
    }
  }

  async function remove(j: JournalListItem): Promise<void> {
    const ok = await ask(`Delete “${j.title}”?`, [], { message: 'It moves to the trash with its history; editors that have it open are closed.', ok: 'Delete' });
    if (!ok) return;
    clearMessages(messages);
    try {
      await api.deleteJournal(j.id);
      showNotice(messages, `Deleted “${j.title}”.`);
      await show(page);
    } catch (err) {
      fail(err);
    }
  }

  // --- the journal tree (parent_item, order_index; docs/nesting.md) ---------------------------------
  const treeRoot = h('ul', { id: 'journal-tree' });
  let all: JournalListItem[] = [];

  async function loadTree(): Promise<void> {
    try {
      const items: JournalListItem[] = [];
      let token: string | undefined;
      // Every journal of the key, a hundred at a time (up to 1,000 in the tree).
      for (let i = 0; i < 10; i++) {
        const r = await api.listJournals(100, token);
        items.push(...r.journals);
        if (r.next_page_token === undefined) break;
        token = String(r.next_page_token);
      }
      all = items;
      clear(treeRoot);
      treeRoot.append(...branch(null));
    } catch (err) {
      fail(err);
    }
  }

  function childrenOf(parent: string | null): JournalListItem[] {
    const ids = new Set(all.map((j) => j.id));
    return all
      .filter((j) => (parent === null ? !j.parent_item || !ids.has(j.parent_item) : j.parent_item === parent))
      .sort((a, b) => (a.order_index ?? Infinity) - (b.order_index ?? Infinity) || a.created_at.localeCompare(b.created_at));
  }

  function branch(parent: string | null): HTMLLIElement[] {
    return childrenOf(parent).map((j) => {
      const kids = branch(j.id);
      return h(
        'li',
        { dataset: { journalId: j.id } },
        h(
          'span',
          { class: 'node' },
          h('a', { href: `/app/journals/${encodeURIComponent(j.id)}`, dataset: { nav: '' }, class: 'tree-title' }, j.title),
          j.publish_status === 'published' ? h('span', { class: 'published-tag' }, 'published') : null,
          h('button', { type: 'button', class: 'move', onclick: () => void move(j) }, 'Move…'),
        ),
        kids.length ? h('ul', {}, ...kids) : null,
      );
    });
  }

  /** Ids of `id` and everything under it: not offered as its new parent (the API refuses a cycle too). */
  function subtree(id: string): Set<string> {
    const out = new Set([id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const j of all) if (j.parent_item && out.has(j.parent_item) && !out.has(j.id)) out.add(j.id), (grew = true);
    }
    return out;
  }

  async function move(j: JournalListItem): Promise<void> {
    const blocked = subtree(j.id);
    const v = await ask(
      `Move “${j.title}”`,
      [
        { name: 'parent', label: 'Under', value: j.parent_item, options: [{ value: '', label: '(top level)' }, ...all.filter((x) => !blocked.has(x.id)).map((x) => ({ value: x.id, label: x.title }))] },
        { name: 'index', label: 'Position among its siblings (1 = first; empty = last)', type: 'number' },
      ],
      { ok: 'Move' },
    );
    if (!v) return;
    clearMessages(messages);
    try {
      const index = v.index ? Math.max(0, Number(v.index) - 1) : undefined;
      await api.move(j.id, v.parent || null, index);
      await loadTree();
    } catch (err) {
      fail(err);
    }
  }

  // --- drag and drop anywhere on the page ----------------------------------------------------------
  const zone = h(
    'section',
    { class: 'journals drop-zone', id: 'drop-zone' },
    h('div', { class: 'bar' }, h('h1', {}, 'Journals'), createForm, importLabel, fileInput),
    h('p', { class: 'hint' }, 'Drop .md files anywhere here to import them.'),
    h('table', { class: 'list', id: 'journal-list' }, h('thead', {}, h('tr', {}, h('th', {}, 'Title'), h('th', {}, 'Updated'), h('th', {}, ''))), rows),
    empty,
    h('div', { class: 'pager' }, prev, pageLabel, nextButton, sizeSelect),
    h('section', { class: 'tree', id: 'tree' }, h('h2', {}, 'Journal tree'), h('p', { class: 'hint' }, 'Journals can sit under other journals: “Move…” puts one under another, or at the top.'), treeRoot),
  );
  let depth = 0; // dragenter/dragleave pairs of nested elements
  zone.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    depth++;
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => {
    if (--depth <= 0) {
      depth = 0;
      zone.classList.remove('dragging');
    }
  });
  zone.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  });
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove('dragging');
    void importFiles([...(e.dataTransfer?.files ?? [])]);
  });
  main.append(zone);
  void first();
}
