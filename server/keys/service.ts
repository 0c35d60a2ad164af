/**
 * Key management over REST (docs/keys.md): an organization's admin keys list, create and revoke the
 * organization's keys. Revocation is the admin command line's (`revokeApiKey`): every cache of
 * every instance drops the key within CHANGE_CHECK_MS, and open editor connections of the key are
 * closed (this process at once through `onRevoked`, other instances by their revocation poll).
 */
import { API_KEY_COLUMNS, createApiKey, revokeApiKey, type ApiKeyInfo, type Principal, type Role } from '../auth/keys.ts';
import { HttpError, invalid, notFound } from '../http/errors.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { keyIdParam, type KeyInfo } from './schema.ts';

export interface KeyPage {
  keys: KeyInfo[];
  next?: string;
}

/** The cursor is the last key of a page: (created_at, key_id), newest first. */
function encodeCursor(k: Pick<ApiKeyInfo, 'created_at' | 'key_id'>): string {
  return Buffer.from(JSON.stringify([k.created_at, k.key_id])).toString('base64url');
}

function decodeCursor(token: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    /* below */
  }
  throw invalid(['query', 'page_token'], 'page_token must be the next_page_token of the previous page');
}

const info = (k: ApiKeyInfo): KeyInfo => ({
  key_id: k.key_id,
  name: k.name,
  prefix: k.prefix,
  role: k.role,
  created_at: k.created_at,
  last_used_at: k.last_used_at,
  revoked_at: k.revoked_at,
});

/** 403 for a member key on key management. */
export function requireAdmin(p: Principal): void {
  if (p.role !== 'admin') {
    throw new HttpError(403, "Forbidden: only an admin key manages the organization's keys; this key's role is member");
  }
}

export class KeyService {
  /** Told after a revocation committed (the realtime hub closes the key's editor connections). */
  onRevoked: ((keyId: string) => void) | undefined;

  constructor(private readonly engine: StorageEngine) {}

  async list(p: Principal, opts: { pageToken?: string; pageSize: number; includeRevoked: boolean }): Promise<KeyPage> {
    requireAdmin(p);
    const params: (string | number)[] = [p.orgId];
    let where = 'org_id = ?';
    if (!opts.includeRevoked) where += ' AND revoked_at IS NULL';
    if (opts.pageToken !== undefined) {
      const [createdAt, keyId] = decodeCursor(opts.pageToken);
      where += ' AND (created_at < ? OR (created_at = ? AND id < ?))';
      params.push(createdAt, createdAt, keyId);
    }
    params.push(opts.pageSize + 1);
    const rows = await this.engine.all<ApiKeyInfo>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`, params);
    const more = rows.length > opts.pageSize;
    const page = more ? rows.slice(0, opts.pageSize) : rows;
    return { keys: page.map(info), ...(more ? { next: encodeCursor(page[page.length - 1]!) } : {}) };
  }

  create(p: Principal, name: string, role: Role) {
    requireAdmin(p);
    return createApiKey(this.engine, p.orgId, name.trim(), role);
  }

  /**
   * Revokes a key of the caller's organization: 404 for another organization's key or an unknown
   * id; revoking a revoked key answers its first revocation time. The organization's last active
   * admin key cannot be revoked (409): the organization would lose key management.
   */
  async revoke(p: Principal, keyId: string): Promise<{ key_id: string; revoked_at: string }> {
    requireAdmin(p);
    // No key has an id of another shape: unknown, like any other (a 404, as the document says).
    if (!keyIdParam.safeParse(keyId).success) throw notFound('API key');
    const out = await this.engine.transaction(
      async (tx) => {
        const key = await tx.get<{ role: Role; revoked_at: string | null }>('SELECT role, revoked_at FROM api_keys WHERE id = ? AND org_id = ? LIMIT 1', [
          keyId,
          p.orgId,
        ]);
        if (!key) throw notFound('API key');
        if (key.revoked_at !== null) return { key_id: keyId, revoked_at: key.revoked_at, changed: false };
        if (key.role === 'admin') {
          const others = await tx.get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND role = 'admin' AND revoked_at IS NULL AND id <> ?",
            [p.orgId, keyId],
          );
          if (Number(others!.n) === 0) {
            throw new HttpError(409, "Conflict: this is the organization's last admin key; create another admin key before revoking it");
          }
        }
        const revoked = await revokeApiKey(tx, keyId);
        return { key_id: keyId, revoked_at: revoked!.revoked_at!, changed: true };
      },
      // Two admins revoking each other at once must not leave the organization without one.
      { immediate: true },
    );
    if (out.changed) this.onRevoked?.(keyId);
    return { key_id: out.key_id, revoked_at: out.revoked_at };
  }
}
