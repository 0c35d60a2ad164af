/**
 * `/app/journals/{id}`: the journal in the live editor, with who is here, the connection state,
 * the formatting toolbar, export, and (with a key) a link that opens it with an editor token alone.
 */
import type { Api } from '../api.ts';
import { download, h, markdownFileName } from '../dom.ts';
import { Collab, type Status } from '../editor/collab.ts';
import { colourFor, presenceList } from '../editor/presence.ts';
import { createEditor } from '../editor/view.ts';
import * as session from '../session.ts';
import { clearMessages, frame, showError, showNotice } from '../ui.ts';

export interface EditorPageOptions {
  journalId: string;
  api: Api | null;
  token: string | null;
  onSignOut: () => void;
}

const STATE_TEXT: Record<Status['state'], string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  closed: 'Disconnected',
};

export function editorPage(opts: EditorPageOptions): () => void {
  const { main, messages } = frame({ signedIn: opts.api !== null, onSignOut: opts.onSignOut });
  const title = h('h1', { class: 'journal-heading', id: 'journal-title' }, opts.api ? 'Journal' : 'Shared journal');
  const stateBadge = h('span', { id: 'connection', class: 'connection connecting', role: 'status', dataset: { state: 'connecting' } }, STATE_TEXT.connecting);
  const stateDetail = h('span', { id: 'connection-detail', class: 'connection-detail' });
  const nameInput = h('input', {
    id: 'display-name',
    value: session.displayName(),
    maxLength: 60,
    'aria-label': 'Your name, shown to other editors',
    title: 'Your name, shown to other editors',
    onchange: () => {
      session.setDisplayName(nameInput.value || session.displayName());
      collab.awareness.setLocalStateField('user', { name: session.displayName(), color });
    },
  });
  const actions = h('div', { class: 'editor-actions' });
  const mount = h('div', { class: 'editor-mount', id: 'editor' }, h('p', { class: 'loading' }, 'Opening the journal…'));
  const side = h('aside', { class: 'side' }, h('h2', {}, 'Who is here'));
  main.append(
    h('div', { class: 'editor-head' }, h('a', { href: '/app/', dataset: { nav: '' }, class: 'back' }, opts.api ? '← Journals' : ''), title, actions),
    h('div', { class: 'editor-status' }, stateBadge, stateDetail, h('label', { class: 'name' }, 'Your name ', nameInput)),
    h('div', { class: 'editor-layout' }, h('div', { class: 'editor-column' }, mount), side),
  );

  const onStatus = (s: Status) => {
    stateBadge.textContent = STATE_TEXT[s.state] + (s.unsent && s.state !== 'connected' ? ' · unsent changes kept here' : '');
    stateBadge.className = `connection ${s.state}${s.unsent ? ' unsent' : ''}`;
    stateBadge.dataset.state = s.state;
    stateBadge.dataset.unsent = String(s.unsent);
    stateDetail.textContent = s.detail ?? '';
  };

  const collab = new Collab({ journalId: opts.journalId, api: opts.api, token: opts.token, user: { name: session.displayName(), color: '#000000' }, onStatus });
  // The colour follows the document's client id, so two editors of one person still differ.
  const color = colourFor(collab.doc.clientID);
  collab.awareness.setLocalStateField('user', { name: session.displayName(), color });
  const presence = presenceList(collab.awareness);
  side.append(presence.dom);

  let destroyed = false;
  let destroyView: (() => void) | undefined;

  if (opts.api) {
    const api = opts.api;
    // The title (and a first check that the key reaches the journal).
    api.content(opts.journalId).then(
      (r) => {
        title.textContent = r.title;
        document.title = `${r.title} · Study journals`;
      },
      (err) => showError(messages, err),
    );
    actions.append(
      h(
        'button',
        {
          type: 'button',
          id: 'export',
          onclick: async () => {
            clearMessages(messages);
            try {
              const r = await api.content(opts.journalId);
              download(markdownFileName(r.title), r.content);
            } catch (err) {
              showError(messages, err);
            }
          },
        },
        'Export .md',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'share',
          title: 'A link that opens this journal without a key, for as long as its editor token lasts',
          onclick: async () => {
            clearMessages(messages);
            try {
              const s = await api.editorSession(opts.journalId);
              const link = `${location.origin}/app/journals/${encodeURIComponent(opts.journalId)}#token=${encodeURIComponent(s.token)}`;
              const field = h('input', { value: link, readOnly: true, class: 'share-link', id: 'share-link', 'aria-label': 'Editor link' });
              showNotice(messages, h('span', {}, `Editor link, valid until ${new Date(s.expires_at).toLocaleTimeString()}: `, field));
              field.select();
              await navigator.clipboard?.writeText(link).catch(() => undefined);
            } catch (err) {
              showError(messages, err);
            }
          },
        },
        'Editor link',
      ),
    );
  }

  collab.start().then(
    () => {
      if (destroyed) return;
      mount.replaceChildren();
      const { view, toolbar } = createEditor(mount, collab);
      mount.before(toolbar.dom);
      view.focus();
      destroyView = () => view.destroy();
    },
    (err) => {
      if (destroyed) return;
      mount.replaceChildren(h('p', { class: 'loading' }, 'The journal could not be opened.'));
      showError(messages, err);
    },
  );

  return () => {
    destroyed = true;
    destroyView?.();
    presence.destroy();
    collab.destroy();
    document.title = 'Study journals';
  };
}
