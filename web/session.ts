/**
 * What the app remembers. The API key lives in sessionStorage (gone when the tab closes, never in
 * a URL or a cookie), and also in localStorage when the user ticks "Remember this key on this
 * device" (opt-in), so that other tabs and later visits are signed in; signing out forgets both.
 * A `#token=` editor token is kept in sessionStorage, per journal, once it has been taken out of
 * the address bar. The display name shown to other editors is not a secret and is kept across
 * sessions (localStorage).
 */
const KEY = 'study.apiKey';
const NAME = 'study.displayName';
const tokenSlot = (journalId: string) => `study.editorToken.${journalId}`;

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

/** Whether the key is remembered on this device (localStorage). */
export function remembered(): boolean {
  return localStorage.getItem(KEY) !== null;
}

export function signIn(key: string, remember = false): void {
  sessionStorage.setItem(KEY, key);
  if (remember) localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}

export function editorToken(journalId: string): string | null {
  return sessionStorage.getItem(tokenSlot(journalId));
}

export function keepEditorToken(journalId: string, token: string): void {
  sessionStorage.setItem(tokenSlot(journalId), token);
}

const ADJECTIVES = ['Amber', 'Brisk', 'Calm', 'Deft', 'Eager', 'Fleet', 'Gentle', 'Keen', 'Lucid', 'Nimble', 'Quiet', 'Witty'];
const ANIMALS = ['Otter', 'Heron', 'Lynx', 'Finch', 'Badger', 'Panda', 'Falcon', 'Marten', 'Koala', 'Ibis', 'Gecko', 'Wren'];

export function displayName(): string {
  let name = localStorage.getItem(NAME);
  if (!name) {
    const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)]!;
    name = `${pick(ADJECTIVES)} ${pick(ANIMALS)}`;
    localStorage.setItem(NAME, name);
  }
  return name;
}

export function setDisplayName(name: string): void {
  localStorage.setItem(NAME, name.trim().slice(0, 60));
}

/** The claims of an editor token (`et1.<base64url JSON>.<signature>`): the journal and the expiry, to warn before it runs out. */
export function tokenClaims(token: string): { journalId: string; expiresAt: Date } | null {
  const m = /^et1\.([A-Za-z0-9_-]+)\./.exec(token);
  if (!m) return null;
  try {
    const json = JSON.parse(atob(m[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { j?: unknown; e?: unknown };
    if (typeof json.j !== 'string' || typeof json.e !== 'number') return null;
    return { journalId: json.j, expiresAt: new Date(json.e * 1000) };
  } catch {
    return null;
  }
}
