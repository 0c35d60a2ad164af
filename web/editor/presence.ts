/**
 * Who is here: every editor's awareness state (`user: {name, color}`, the fields y-prosemirror's
 * cursor plugin draws remote cursors with), this editor first.
 */
import type { Awareness } from 'y-protocols/awareness';
import { clear, h } from '../dom.ts';

/** Distinct, readable on white, `#rrggbb` (y-prosemirror adds an alpha suffix for selections). */
export const COLOURS = ['#d9480f', '#1c7ed6', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599', '#c2255c', '#5f3dc4', '#087f5b', '#364fc7'];

export function colourFor(clientId: number): string {
  return COLOURS[clientId % COLOURS.length]!;
}

interface UserState {
  name?: unknown;
  color?: unknown;
}

export function presenceList(awareness: Awareness): { dom: HTMLElement; destroy: () => void } {
  const list = h('ul', { class: 'who', id: 'who', 'aria-label': 'Who is here' });
  const render = () => {
    clear(list);
    const me = awareness.clientID;
    const entries = [...awareness.getStates().entries()]
      .map(([id, state]) => ({ id, user: (state as { user?: UserState }).user }))
      .filter((e) => e.user && typeof e.user.name === 'string')
      .sort((a, b) => (a.id === me ? -1 : b.id === me ? 1 : String(a.user!.name).localeCompare(String(b.user!.name))));
    for (const { id, user } of entries) {
      const colour = typeof user!.color === 'string' && /^#[0-9a-f]{6}$/i.test(user!.color) ? user!.color : '#868e96';
      list.append(
        h(
          'li',
          { dataset: { clientId: String(id) }, class: id === me ? 'me' : '' },
          h('span', { class: 'dot', style: { background: colour } }),
          String(user!.name).slice(0, 60),
          id === me ? h('span', { class: 'you' }, ' (you)') : null,
        ),
      );
    }
  };
  awareness.on('change', render);
  render();
  return { dom: list, destroy: () => awareness.off('change', render) };
}
