/**
 * Sign in with an API key. The key is tried on one cheap request (the first journal of the list)
 * before it is kept: a wrong, revoked or throttled key shows the API's answer and is not stored.
 */
import { Api } from '../api.ts';
import { h } from '../dom.ts';
import * as session from '../session.ts';
import { clearMessages, frame, showError } from '../ui.ts';

export function signInPage(onSignedIn: () => void): void {
  const { main, messages } = frame({ signedIn: false });
  const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: false, required: true, placeholder: 'sk_study_…' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const remember = h('input', { type: 'checkbox', id: 'remember-key', name: 'remember' });
  const form = h(
    'form',
    {
      class: 'sign-in card',
      onsubmit: async (e: Event) => {
        e.preventDefault();
        clearMessages(messages);
        const key = input.value.trim();
        if (!key) return;
        button.disabled = true;
        try {
          await new Api(key).listJournals(1);
          session.signIn(key, remember.checked);
          onSignedIn();
        } catch (err) {
          showError(messages, err);
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Use an API key of your organization. It stays in this tab only (session storage) unless you ask this device to remember it, and is sent only in the Authorization header.'),
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('label', { class: 'check', for: 'remember-key' }, remember, ' Remember this key on this device (other tabs and later visits sign in with it; “Sign out” forgets it)'),
    button,
  );
  main.append(form);
  input.focus();
}
