/**
 * `/app/journals/{id}/history`: the journal's versions (GET /v1/journals/versions/{id}), "Save a
 * version", a diff of any version against the journal now (…/diff?from=&to=current: blocks added,
 * removed, changed, moved), and restore (…/{version}/restore, live for every editor).
 */
import type { Api, VersionDiffResponse, VersionInfo } from '../api.ts';
import { clear, h, when } from '../dom.ts';
import { ask, clearMessages, frame, showError, showNotice } from '../ui.ts';

export function historyPage(api: Api, journalId: string, onSignOut: () => void): void {
  const { main, messages } = frame({ signedIn: true, onSignOut });
  const title = h('h1', { id: 'journal-title' }, 'History');
  const rows = h('tbody', {});
  const diffBox = h('section', { class: 'card diff', id: 'diff', hidden: true });
  const editor = `/app/journals/${encodeURIComponent(journalId)}`;

  const row = (v: VersionInfo) =>
    h(
      'tr',
      { dataset: { versionId: v.version_id } },
      h('td', {}, v.name ?? (v.kind === 'auto' ? 'Automatic' : v.kind === 'restore' ? 'Restore' : 'Version')),
      h('td', { class: 'when' }, when(v.created_at)),
      h('td', {}, String(v.block_count), ' blocks'),
      h(
        'td',
        { class: 'actions' },
        h('button', { type: 'button', class: 'show-diff', onclick: () => void showDiff(v) }, 'Changes since'),
        h('button', { type: 'button', class: 'restore-version', onclick: () => void restore(v) }, 'Restore'),
      ),
    );

  async function load(): Promise<void> {
    try {
      const [c, r] = await Promise.all([api.content(journalId), api.versions(journalId)]);
      title.textContent = `History of “${c.title}”`;
      clear(rows);
      rows.append(...r.versions.map(row));
      if (r.versions.length === 0) rows.append(h('tr', {}, h('td', { colSpan: 4, class: 'empty' }, 'No versions yet: save one.')));
    } catch (err) {
      showError(messages, err);
    }
  }

  function renderDiff(v: VersionInfo, d: VersionDiffResponse): void {
    clear(diffBox);
    diffBox.hidden = false;
    const item = (kind: string, text: string) => h('li', { class: `diff-${kind}` }, h('span', { class: 'tag' }, kind), ' ', text);
    const list = h(
      'ul',
      { class: 'diff-list' },
      ...d.diff.added.map((c) => item('added', c.after ?? '')),
      ...d.diff.removed.map((c) => item('removed', c.before ?? '')),
      ...d.diff.changed.map((c) => h('li', { class: 'diff-changed' }, h('span', { class: 'tag' }, 'changed'), ' ', h('del', {}, c.before ?? ''), ' → ', h('ins', {}, c.after ?? ''))),
      ...d.diff.moved.map((c) => item('moved', `${c.type} ${c.block_id}: ${c.from_index + 1} → ${c.to_index + 1}`)),
    );
    const none = d.diff.added.length + d.diff.removed.length + d.diff.changed.length + d.diff.moved.length === 0;
    diffBox.append(h('h2', {}, `Changes from “${v.name ?? v.kind}” (${when(v.created_at)}) to now`), none ? h('p', { class: 'empty' }, 'No changes.') : list);
  }

  async function showDiff(v: VersionInfo): Promise<void> {
    clearMessages(messages);
    try {
      renderDiff(v, await api.diff(journalId, v.version_id));
    } catch (err) {
      showError(messages, err);
    }
  }

  async function restore(v: VersionInfo): Promise<void> {
    const ok = await ask('Restore this version?', [], { message: 'The journal becomes what it was then, for every editor at once. The state before is kept as a version.', ok: 'Restore' });
    if (!ok) return;
    clearMessages(messages);
    try {
      await api.restoreVersion(journalId, v.version_id);
      showNotice(messages, h('span', {}, 'Restored. ', h('a', { href: editor, dataset: { nav: '' } }, 'Open the journal')));
      await load();
    } catch (err) {
      showError(messages, err);
    }
  }

  const save = h(
    'button',
    {
      type: 'button',
      id: 'save-version',
      class: 'primary',
      onclick: async () => {
        const v = await ask('Save a version', [{ name: 'name', label: 'Name (optional)' }], { ok: 'Save' });
        if (!v) return;
        clearMessages(messages);
        try {
          await api.saveVersion(journalId, v.name!.trim() || undefined);
          await load();
        } catch (err) {
          showError(messages, err);
        }
      },
    },
    'Save a version',
  );
  main.append(
    h('div', { class: 'editor-head' }, h('a', { href: editor, dataset: { nav: '' }, class: 'back' }, '← Journal'), title, save),
    h('table', { class: 'list', id: 'version-list' }, h('thead', {}, h('tr', {}, h('th', {}, 'Version'), h('th', {}, 'Saved'), h('th', {}, 'Size'), h('th', {}, ''))), rows),
    diffBox,
  );
  void load();
}
