/** The page frame (header, navigation, the message area) and how errors and notices are shown. */
import { ApiError } from './api.ts';
import { clear, h } from './dom.ts';

export interface Frame {
  /** Where a page draws itself. */
  main: HTMLElement;
  /** Errors (role=alert) and notices of the page. */
  messages: HTMLElement;
}

export interface FrameOptions {
  signedIn: boolean;
  active?: 'journals' | 'settings' | 'trash';
  onSignOut?: () => void;
}

/** Clears the document's #app and draws the header; the page fills `main`. */
export function frame(opts: FrameOptions): Frame {
  const root = document.getElementById('app')!;
  clear(root);
  const link = (href: string, text: string, active: boolean) => h('a', { href, dataset: { nav: '' }, 'aria-current': active ? 'page' : undefined }, text);
  const nav = opts.signedIn
    ? h(
        'nav',
        { 'aria-label': 'Main' },
        link('/app/', 'Journals', opts.active === 'journals'),
        link('/app/trash', 'Trash', opts.active === 'trash'),
        link('/app/settings', 'Keys and usage', opts.active === 'settings'),
        h('a', { href: '/docs', target: '_blank', rel: 'noopener' }, 'API docs'),
        h('button', { type: 'button', class: 'link', id: 'sign-out', onclick: () => opts.onSignOut?.() }, 'Sign out'),
      )
    : h('nav', { 'aria-label': 'Main' }, h('a', { href: '/docs', target: '_blank', rel: 'noopener' }, 'API docs'));
  const messages = h('div', { class: 'messages', id: 'messages', 'aria-live': 'polite' });
  const main = h('main', { id: 'main' });
  root.append(h('header', { class: 'top' }, h('a', { href: '/app/', class: 'brand', dataset: { nav: '' } }, 'Study journals'), nav), messages, main);
  return { main, messages };
}

/**
 * Shows an error in the API's words (status first; a 429 says when to retry). One error banner at
 * a time: a new error replaces the one shown.
 */
export function showError(where: HTMLElement, err: unknown): HTMLElement {
  const status = err instanceof ApiError ? err.status : 0;
  const text = err instanceof Error ? err.message : String(err);
  for (const old of where.querySelectorAll(':scope > .error')) old.remove();
  const box = h('div', { class: 'error', role: 'alert', dataset: { status: String(status) } }, text, h('button', { type: 'button', class: 'close', 'aria-label': 'Dismiss', onclick: () => box.remove() }, '×'));
  where.prepend(box);
  return box;
}

export function showNotice(where: HTMLElement, text: string | Node): HTMLElement {
  const box = h('div', { class: 'notice', role: 'status' }, text, h('button', { type: 'button', class: 'close', 'aria-label': 'Dismiss', onclick: () => box.remove() }, '×'));
  where.prepend(box);
  return box;
}

export function clearMessages(where: HTMLElement): void {
  clear(where);
}

/** A one-line form: submitting clears the page's messages and runs `action`; its error is shown there. */
export function inlineForm(messages: HTMLElement, action: () => Promise<void>, ...fields: Node[]): HTMLFormElement {
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: async (e: Event) => {
        e.preventDefault();
        clearMessages(messages);
        try {
          await action();
        } catch (err) {
          showError(messages, err);
        }
      },
    },
    ...fields,
  );
}

/**
 * A small form in a modal `<dialog>` (link, image, table, rename…): resolves with the values, or
 * null when cancelled.
 */
export function ask(
  title: string,
  fields: { name: string; label: string; value?: string; required?: boolean; type?: string; options?: { value: string; label: string }[] }[],
  opts: { message?: string; ok?: string } = {},
): Promise<Record<string, string> | null> {
  return new Promise((resolve) => {
    const inputs: (HTMLInputElement | HTMLSelectElement)[] = fields.map((f) =>
      f.options
        ? h('select', { name: f.name }, ...f.options.map((o) => h('option', { value: o.value, selected: o.value === f.value }, o.label)))
        : h('input', { name: f.name, value: f.value ?? '', required: f.required, type: f.type ?? 'text', autocomplete: 'off' }),
    );
    const form = h(
      'form',
      {
        class: 'ask',
        // Closed by hand rather than method=dialog: the page's CSP allows no form submissions at all.
        onsubmit: (e: Event) => {
          e.preventDefault();
          dialog.close('ok');
        },
      },
      h('h2', {}, title),
      opts.message ? h('p', {}, opts.message) : null,
      ...fields.map((f, i) => h('label', {}, f.label, inputs[i]!)),
      h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, opts.ok ?? 'OK'), h('button', { type: 'button', onclick: () => dialog.close('') }, 'Cancel')),
    );
    const dialog = h('dialog', {}, form);
    dialog.addEventListener('close', () => {
      const ok = dialog.returnValue === 'ok';
      dialog.remove();
      resolve(ok ? Object.fromEntries(fields.map((f, i) => [f.name, inputs[i]!.value])) : null);
    });
    document.body.append(dialog);
    dialog.showModal();
    if (inputs[0] instanceof HTMLInputElement) inputs[0].select();
    else if (inputs[0]) inputs[0].focus();
    else form.querySelector<HTMLButtonElement>('button[type=submit]')!.focus();
  });
}
