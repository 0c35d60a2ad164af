/**
 * `/app/trash`: the key's deleted journals (GET /v1/journals/trash), each restorable
 * (POST …/restore/{id}: with its history and the subtree that went with it) or deleted for good
 * (DELETE …/delete/{id}?permanent=true, confirmed in a dialog).
 */
import type { Api, TrashItem } from '../api.ts';
import { clear, h, when } from '../dom.ts';
import { ask, clearMessages, frame, showError, showNotice } from '../ui.ts';

export function trashPage(api: Api, onSignOut: () => void): void {
  const { main, messages } = frame({ signedIn: true, active: 'trash', onSignOut });
  const rows = h('tbody', {});
  const empty = h('p', { class: 'empty', id: 'trash-empty', hidden: true }, 'The trash is empty.');

  const row = (j: TrashItem) =>
    h(
      'tr',
      { dataset: { journalId: j.id } },
      h('td', { class: 'journal-title' }, j.title),
      h('td', { class: 'when' }, when(j.trashed_at)),
      h(
        'td',
        { class: 'actions' },
        h('button', { type: 'button', class: 'restore', onclick: () => void restore(j) }, 'Restore'),
        h('button', { type: 'button', class: 'purge danger', onclick: () => void purge(j) }, 'Delete for good'),
      ),
    );

  async function load(): Promise<void> {
    try {
      const r = await api.trash();
      clear(rows);
      rows.append(...r.journals.map(row));
      empty.hidden = r.journals.length > 0;
    } catch (err) {
      showError(messages, err);
    }
  }

  async function restore(j: TrashItem): Promise<void> {
    clearMessages(messages);
    try {
      await api.restore(j.id);
      showNotice(messages, h('span', {}, `Restored “${j.title}”. `, h('a', { href: `/app/journals/${encodeURIComponent(j.id)}`, dataset: { nav: '' } }, 'Open it')));
      await load();
    } catch (err) {
      showError(messages, err);
    }
  }

  async function purge(j: TrashItem): Promise<void> {
    const ok = await ask(`Delete “${j.title}” for good?`, [], { message: 'It is removed with its whole history and cannot be restored.', ok: 'Delete for good' });
    if (!ok) return;
    clearMessages(messages);
    try {
      await api.purge(j.id);
      showNotice(messages, `Deleted “${j.title}” for good.`);
      await load();
    } catch (err) {
      showError(messages, err);
    }
  }

  main.append(
    h(
      'section',
      { class: 'journals' },
      h('h1', {}, 'Trash'),
      h('p', { class: 'hint' }, 'Deleted journals stay here with their history until they are purged (after the retention period).'),
      h('table', { class: 'list', id: 'trash-list' }, h('thead', {}, h('tr', {}, h('th', {}, 'Title'), h('th', {}, 'Deleted'), h('th', {}, ''))), rows),
      empty,
    ),
  );
  void load();
}
