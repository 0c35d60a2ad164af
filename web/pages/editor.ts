/**
 * `/app/journals/{id}`: the journal in the live editor, with who is here, the connection state,
 * the formatting toolbar, comments in the margin, export, and (with a key) publish/unpublish with
 * the public link, history, study material, and a link that opens it with an editor token alone.
 * When the connection closes for good (the journal deleted, the key revoked) the editor turns
 * read-only and says why: nothing typed afterwards could be saved.
 */
import type { Api } from '../api.ts';
import { download, h, markdownFileName } from '../dom.ts';
import { Collab, type Status } from '../editor/collab.ts';
import { commentHighlights, CommentsPanel } from '../editor/comments.ts';
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
  const readOnlyNote = h('p', { class: 'read-only-note', id: 'read-only', role: 'status', hidden: true });
  main.append(
    h('div', { class: 'editor-head' }, h('a', { href: '/app/', dataset: { nav: '' }, class: 'back' }, opts.api ? '← Journals' : ''), title, actions),
    h('div', { class: 'editor-status' }, stateBadge, stateDetail, h('label', { class: 'name' }, 'Your name ', nameInput)),
    readOnlyNote,
    h('div', { class: 'editor-layout' }, h('div', { class: 'editor-column' }, mount), side),
  );
  let readOnly = false;
  let setEditable: ((editable: boolean) => void) | undefined;
  /** The connection is gone for good: the editor stops taking input, and says why. */
  const turnReadOnly = (why: string) => {
    if (readOnly) return;
    readOnly = true;
    readOnlyNote.hidden = false;
    readOnlyNote.textContent = `Read-only: ${why} What you see is the last saved state; nothing can be typed here any more.`;
    setEditable?.(false);
    comments?.setReadOnly(true);
  };

  const onStatus = (s: Status) => {
    stateBadge.textContent = STATE_TEXT[s.state] + (s.unsent && s.state !== 'connected' ? ' · unsent changes kept here' : '');
    stateBadge.className = `connection ${s.state}${s.unsent ? ' unsent' : ''}`;
    stateBadge.dataset.state = s.state;
    stateBadge.dataset.unsent = String(s.unsent);
    stateDetail.textContent = s.detail ?? '';
    if (s.state === 'closed') turnReadOnly(s.detail ?? 'the connection was closed.');
  };

  const collab = new Collab({ journalId: opts.journalId, api: opts.api, token: opts.token, user: { name: session.displayName(), color: '#000000' }, onStatus });
  // The colour follows the document's client id, so two editors of one person still differ.
  const color = colourFor(collab.doc.clientID);
  collab.awareness.setLocalStateField('user', { name: session.displayName(), color });
  const presence = presenceList(collab.awareness);
  side.append(presence.dom);
  const comments: CommentsPanel | undefined = new CommentsPanel(collab.doc, opts.journalId, opts.api, messages, () => session.displayName());
  side.append(comments.dom);

  let destroyed = false;
  let destroyView: (() => void) | undefined;

  if (opts.api) {
    const api = opts.api;
    // The title (and a first check that the key reaches the journal).
    const publishLink = h('a', { id: 'publish-link', target: '_blank', rel: 'noopener', hidden: true });
    const publishButton = h('button', { type: 'button', id: 'publish', disabled: true }, 'Publish');
    const showPublished = (url: string | null) => {
      publishLink.hidden = !url;
      if (url) {
        publishLink.href = url;
        publishLink.textContent = url;
      }
      publishButton.textContent = url ? 'Unpublish' : 'Publish';
      publishButton.dataset.published = String(!!url);
      publishButton.disabled = false;
    };
    publishButton.addEventListener('click', async () => {
      clearMessages(messages);
      publishButton.disabled = true;
      try {
        const r = publishButton.dataset.published === 'true' ? await api.unpublish(opts.journalId) : await api.publish(opts.journalId);
        showPublished(r.url);
      } catch (err) {
        publishButton.disabled = false;
        showError(messages, err);
      }
    });
    actions.append(
      h('a', { href: `/app/journals/${encodeURIComponent(opts.journalId)}/history`, dataset: { nav: '' }, class: 'button', id: 'history-link' }, 'History'),
      h('a', { href: `/app/journals/${encodeURIComponent(opts.journalId)}/study`, dataset: { nav: '' }, class: 'button', id: 'study-link' }, 'Study'),
      publishButton,
    );
    main.querySelector('.editor-status')!.append(publishLink);
    // The title and publish state (and a first check that the key reaches the journal).
    api.content(opts.journalId).then(
      (r) => {
        title.textContent = r.title;
        document.title = `${r.title} · Study journals`;
        showPublished(r.publish_url);
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
      const { view, toolbar } = createEditor(mount, collab, [commentHighlights()]);
      mount.before(toolbar.dom);
      setEditable = (editable) => {
        view.setProps({ editable: () => editable });
        toolbar.dom.classList.toggle('disabled', !editable);
        for (const b of toolbar.dom.querySelectorAll('button')) b.disabled = !editable;
      };
      if (readOnly) setEditable(false);
      comments.attach(view);
      if (readOnly) comments.setReadOnly(true);
      view.focus();
      destroyView = () => view.destroy();
    },
    (err) => {
      if (destroyed) return;
      mount.replaceChildren(h('p', { class: 'loading' }, 'The journal could not be opened.'));
      showError(messages, err);
      onStatus({ state: 'closed', unsent: false, detail: (err as Error).message });
    },
  );

  return () => {
    destroyed = true;
    destroyView?.();
    comments.destroy();
    presence.destroy();
    collab.destroy();
    document.title = 'Study journals';
  };
}
