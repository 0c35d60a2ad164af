/**
 * The app's entry: a router over its pages, all served as the same index.html under /app/:
 * `/app/` the journal list and tree, `/app/journals/{id}` the live editor (`/history` its
 * versions, `/study` practice sets, videos and flashcards made from it), `/app/trash`,
 * `/app/settings` keys and usage.
 * Links marked `data-nav` change the page without a reload.
 */
import './styles/app.css';
import { Api } from './api.ts';
import { historyPage } from './pages/history.ts';
import { journalsPage } from './pages/journals.ts';
import { studyPage } from './pages/study.ts';
import { trashPage } from './pages/trash.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';
import * as session from './session.ts';
import { frame } from './ui.ts';
import { h } from './dom.ts';
import { navigate, onNavigate } from './router.ts';

/** What a page leaves to undo when another one replaces it (the editor's socket). */
export type Cleanup = () => void;

let cleanup: Cleanup | undefined;
/** Counts renders, so that a page still loading its code does not draw over a later one. */
let generation = 0;

function signOut(): void {
  session.signOut();
  navigate('/app/');
}

async function render(): Promise<void> {
  cleanup?.();
  cleanup = undefined;
  const current = ++generation;
  const path = location.pathname;
  const journal = /^\/app\/journals\/([^/]+)\/?$/.exec(path);
  const sub = /^\/app\/journals\/([^/]+)\/(history|study)\/?$/.exec(path);
  const key = session.apiKey();
  if (journal) {
    const id = decodeURIComponent(journal[1]!);
    // `#token=<editor token>`: the journal opens with that token alone. It leaves the address bar
    // at once (history, screenshots, copied links) and is kept for this tab.
    const hash = new URLSearchParams(location.hash.slice(1));
    const fromLink = hash.get('token');
    if (fromLink) {
      session.keepEditorToken(id, fromLink);
      history.replaceState(null, '', location.pathname + location.search);
    }
    // A link's token is used as given; otherwise the key mints (and refreshes) tokens itself.
    const token = fromLink ?? (key ? null : session.editorToken(id));
    if (key || token) {
      const { editorPage } = await import('./pages/editor.ts');
      if (current !== generation) return;
      cleanup = editorPage({ journalId: id, api: key ? new Api(key) : null, token, onSignOut: signOut });
      return;
    }
  }
  if (!key) {
    signInPage(() => void render());
    return;
  }
  const api = new Api(key);
  if (sub) {
    const id = decodeURIComponent(sub[1]!);
    if (sub[2] === 'history') historyPage(api, id, signOut);
    else cleanup = studyPage(api, id, signOut);
  } else if (path === '/app/' || path === '/app') journalsPage(api, signOut);
  else if (/^\/app\/trash\/?$/.test(path)) trashPage(api, signOut);
  else if (/^\/app\/settings\/?$/.test(path)) settingsPage(api, signOut);
  else {
    const { main } = frame({ signedIn: true, onSignOut: signOut });
    main.append(h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '/app/', dataset: { nav: '' } }, 'Back to your journals')));
  }
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[data-nav]') as HTMLAnchorElement | null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
});
window.addEventListener('popstate', () => void render());
onNavigate(() => void render());
void render();
