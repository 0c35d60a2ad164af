/**
 * `/app/settings`: the organization's keys (admin keys: list, create with the secret shown once,
 * revoke; a member key sees the API's 403), and for every key the credit balance, spend per
 * endpoint per day and the rate limits in force with what is left of each window (GET /v1/usage).
 */
import type { Api, KeyInfo, UsageReport } from '../api.ts';
import { dollars, spendChart } from '../chart.ts';
import { clear, h, when } from '../dom.ts';
import { ask, clearMessages, frame, inlineForm, showError, showNotice } from '../ui.ts';

export function settingsPage(api: Api, onSignOut: () => void): void {
  const { main, messages } = frame({ signedIn: true, active: 'settings', onSignOut });
  const keysSection = h('section', { class: 'card', id: 'keys' }, h('h2', {}, 'API keys'));
  const usageSection = h('section', { class: 'card', id: 'usage' }, h('h2', {}, 'Credit and spend'));
  const limitsSection = h('section', { class: 'card', id: 'limits' }, h('h2', {}, 'Rate limits'));
  main.append(h('h1', {}, 'Keys and usage'), keysSection, usageSection, limitsSection);
  keys(api, keysSection, messages);
  usage(api, usageSection, limitsSection);
}

function keys(api: Api, section: HTMLElement, messages: HTMLElement): void {
  const body = h('div', {});
  section.append(body);
  const rows = h('tbody', {});
  const more = h('button', { type: 'button', id: 'more-keys', hidden: true }, 'More keys');
  let nextToken: string | undefined;

  const name = h('input', { id: 'key-name', name: 'name', required: true, maxLength: 100, placeholder: 'Name, e.g. CI pipeline', autocomplete: 'off' });
  const role = h('select', { id: 'key-role', name: 'role', 'aria-label': 'Role' }, h('option', { value: 'member' }, 'member'), h('option', { value: 'admin' }, 'admin'));
  const secretBox = h('div', { id: 'new-key', class: 'secret', hidden: true });
  const form = inlineForm(
    messages,
    async () => {
      const k = await api.createKey(name.value.trim(), role.value as 'admin' | 'member');
      name.value = '';
      showSecret(k.name ?? k.key_id, k.api_key);
      await load();
    },
    name,
    role,
    h('button', { type: 'submit', class: 'primary', id: 'create-key' }, 'Create key'),
  );

  function showSecret(keyName: string, secret: string): void {
    clear(secretBox);
    const code = h('code', { id: 'new-key-secret' }, secret);
    const copy = h(
      'button',
      {
        type: 'button',
        id: 'copy-key',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(secret);
            copy.textContent = 'Copied';
          } catch {
            // No clipboard permission: select the text for Ctrl+C.
            getSelection()?.selectAllChildren(code);
            copy.textContent = 'Selected: press Ctrl+C';
          }
        },
      },
      'Copy',
    );
    secretBox.append(
      h('p', {}, h('strong', {}, `Key “${keyName}” created.`), ' Copy it now: it is shown this once and cannot be read again.'),
      h('div', { class: 'secret-row' }, code, copy, h('button', { type: 'button', onclick: () => (secretBox.hidden = true) }, 'Done')),
    );
    secretBox.hidden = false;
  }

  function row(k: KeyInfo): HTMLTableRowElement {
    return h(
      'tr',
      { dataset: { keyId: k.key_id } },
      h('td', { class: 'key-name' }, k.name ?? '(unnamed)'),
      h('td', {}, h('span', { class: `role role-${k.role}` }, k.role)),
      h('td', {}, h('code', {}, `${k.prefix}…`)),
      h('td', { class: 'when' }, when(k.created_at)),
      h('td', { class: 'when last-used' }, k.last_used_at ? when(k.last_used_at) : 'never'),
      h('td', { class: 'actions' }, h('button', { type: 'button', class: 'revoke danger', onclick: () => void revoke(k) }, 'Revoke')),
    );
  }

  async function revoke(k: KeyInfo): Promise<void> {
    const ok = await ask(`Revoke “${k.name ?? k.prefix}”?`, [], { message: 'Requests with this key are refused from now on and its open editors are closed.', ok: 'Revoke' });
    if (!ok) return;
    clearMessages(messages);
    try {
      await api.revokeKey(k.key_id);
      showNotice(messages, `Key “${k.name ?? k.prefix}” revoked.`);
      await load();
    } catch (err) {
      showError(messages, err);
    }
  }

  async function load(append = false): Promise<void> {
    try {
      const r = await api.listKeys(append ? nextToken : undefined);
      if (!append) {
        clear(body);
        body.append(
          form,
          secretBox,
          h('table', { class: 'list', id: 'key-list' }, h('thead', {}, h('tr', {}, ...['Name', 'Role', 'Key', 'Created', 'Last used', ''].map((t) => h('th', {}, t)))), rows),
          more,
        );
        clear(rows);
      }
      rows.append(...r.keys.map(row));
      nextToken = r.next_page_token;
      more.hidden = !nextToken;
    } catch (err) {
      // A member key: the API's 403, in place of the dashboard.
      clear(body);
      showError(body, err);
    }
  }
  more.addEventListener('click', () => void load(true));
  void load();
}

function usage(api: Api, usageSection: HTMLElement, limitsSection: HTMLElement): void {
  const usageBody = h('div', {});
  const limitsBody = h('div', {});
  const days = h(
    'select',
    { id: 'spend-days', 'aria-label': 'Days of spend', onchange: () => void load() },
    ...[7, 14, 30, 90].map((n) => h('option', { value: String(n), selected: n === 14 }, `last ${n} days`)),
  );
  usageSection.append(days, usageBody);
  limitsSection.append(limitsBody);

  async function load(): Promise<void> {
    try {
      const r = await api.usage(Number(days.value));
      clear(usageBody);
      clear(limitsBody);
      usageBody.append(
        h('p', { class: 'balance' }, 'Credit balance: ', h('strong', { id: 'credit-balance' }, dollars(r.credit_balance)), ` · ${r.organization.name} (${r.organization.tier} tier)`),
        spendChart(r.spend),
      );
      limitsBody.append(limitsTable(r));
    } catch (err) {
      clear(usageBody);
      showError(usageBody, err);
    }
  }
  void load();
}

function limitsTable(r: UsageReport): HTMLElement {
  const left = (remaining: number | null, limit: number | null) => (limit === null ? 'no limit' : `${remaining} of ${limit} left`);
  return h(
    'div',
    {},
    h('p', {}, `Minute window resets ${when(r.usage.minute.resets_at)}; day window ${when(r.usage.day.resets_at)} (UTC windows).`),
    h(
      'table',
      { class: 'list', id: 'limit-list' },
      h('thead', {}, h('tr', {}, ...['Endpoint', 'This minute', 'Today', ''].map((t) => h('th', {}, t)))),
      h(
        'tbody',
        {},
        ...r.limits.map((l) =>
          h(
            'tr',
            { class: l.remaining.minute === 0 || l.remaining.day === 0 ? 'exhausted' : '' },
            h('td', {}, h('code', {}, l.endpoint)),
            h('td', {}, left(l.remaining.minute, l.per_minute)),
            h('td', {}, left(l.remaining.day, l.per_day)),
            h('td', {}, l.custom ? 'custom limit' : ''),
          ),
        ),
      ),
    ),
  );
}
