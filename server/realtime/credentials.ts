/**
 * Who may open a realtime connection. Scripts send their API key (`Authorization: Bearer`, or
 * `?token=<key>`); browsers, which cannot set headers, send a short-lived editor token minted by
 * `POST /v1/journals/editor/session`. Editor tokens are stateless: HMAC-SHA256 over the journal
 * id, the key id and the expiry, with a secret every instance shares (configuration or the store).
 * Every token check also checks the key, so revoking a key invalidates its tokens at once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { resolveApiKey, type Principal } from '../auth/keys.ts';
import type { Queryable } from '../storage/engine.ts';

const TOKEN_PREFIX = 'et1.';
const SECRET_FILE = 'editor-token.secret';

const SECRET_NAME = 'editor-token';

/**
 * The signing secret. Several instances behind one load balancer must share it: EDITOR_TOKEN_SECRET
 * when set; else the file an earlier version kept in DATA_DIR, if there is one; else a secret made
 * once in the store of record (the first instance to start creates it, the others read it).
 */
export async function loadTokenSecret(store: Queryable, dataDir: string, configured?: string): Promise<Buffer> {
  if (configured !== undefined) return Buffer.from(configured, 'hex');
  const file = path.join(dataDir, SECRET_FILE);
  if (fs.existsSync(file)) {
    const secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (secret.length < 32) throw new Error(`${file} is damaged: delete it to use the secret in the store (open editor tokens become invalid)`);
    return secret;
  }
  await store.run('INSERT INTO service_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [
    SECRET_NAME,
    randomBytes(32).toString('hex'),
    new Date().toISOString(),
  ]);
  const row = await store.get<{ value: string }>('SELECT value FROM service_secrets WHERE name = ?', [SECRET_NAME]);
  return Buffer.from(row!.value, 'hex');
}

/** What an editor token allows: `write` (the default) or `read` (updates refused, docs/realtime.md). */
export type EditorScope = 'write' | 'read';

export interface EditorTokenClaims {
  journalId: string;
  keyId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  scope: EditorScope;
}

export class EditorTokens {
  constructor(
    private readonly secret: Buffer,
    readonly ttlSeconds: number,
  ) {}

  mint(journalId: string, keyId: string, now = Date.now(), scope: EditorScope = 'write'): { token: string; expiresAt: Date } {
    const exp = Math.floor(now / 1000) + this.ttlSeconds;
    // A read token carries `s: "r"`; tokens without it (every token minted before scopes) write.
    const claims = scope === 'read' ? { j: journalId, k: keyId, e: exp, s: 'r' } : { j: journalId, k: keyId, e: exp };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `${TOKEN_PREFIX}${body}.${this.sign(body)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a well-signed token, or a reason it is refused. */
  verify(token: string, now = Date.now()): EditorTokenClaims | { error: string } {
    if (!token.startsWith(TOKEN_PREFIX)) return { error: 'Invalid editor token' };
    const [body, sig] = token.slice(TOKEN_PREFIX.length).split('.');
    if (!body || !sig) return { error: 'Invalid editor token' };
    const want = Buffer.from(this.sign(body));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return { error: 'Invalid editor token' };
    let claims: { j?: unknown; k?: unknown; e?: unknown; s?: unknown };
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { error: 'Invalid editor token' };
    }
    if (typeof claims.j !== 'string' || typeof claims.k !== 'string' || typeof claims.e !== 'number') {
      return { error: 'Invalid editor token' };
    }
    if (claims.s !== undefined && claims.s !== 'r') return { error: 'Invalid editor token' };
    if (claims.e * 1000 <= now) return { error: 'Editor token expired: mint a new one' };
    return { journalId: claims.j, keyId: claims.k, exp: claims.e, scope: claims.s === 'r' ? 'read' : 'write' };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(TOKEN_PREFIX).update(body).digest('base64url');
  }
}

export function isEditorToken(credential: string): boolean {
  return credential.startsWith(TOKEN_PREFIX);
}

/** The principal of a key id that exists and is not revoked. */
export function resolveKeyId(q: Queryable, keyId: string): Promise<Principal | undefined> {
  return q.get<Principal>(
    `SELECT k.id AS "keyId", o.id AS "orgId", o.name AS "orgName", o.tier AS tier, k.role AS role
       FROM api_keys k JOIN organizations o ON o.id = k.org_id
      WHERE k.id = ? AND k.revoked_at IS NULL`,
    [keyId],
  );
}

/** `scope`: what the connection may do; an API key always writes, an editor token as minted. */
export type AuthResult = { ok: true; principal: Principal; scope: EditorScope } | { ok: false; status: 401 | 404; error: string };

/**
 * Authenticates an upgrade request for `journalId`: a bearer header wins over `?token=`. An editor
 * token is valid only for the journal it was minted for.
 */
export async function authenticateUpgrade(
  q: Queryable,
  tokens: EditorTokens,
  journalId: string,
  bearer: string | undefined,
  queryToken: string | undefined,
): Promise<AuthResult> {
  const credential = bearer ?? queryToken;
  if (!credential) {
    return { ok: false, status: 401, error: 'Missing credentials: send Authorization: Bearer <key> or ?token=<editor token>' };
  }
  if (isEditorToken(credential)) {
    const claims = tokens.verify(credential);
    if ('error' in claims) return { ok: false, status: 401, error: claims.error };
    if (claims.journalId !== journalId) return { ok: false, status: 401, error: 'Editor token is for another journal' };
    const principal = await resolveKeyId(q, claims.keyId);
    if (!principal) return { ok: false, status: 401, error: 'Invalid or revoked API key' };
    return { ok: true, principal, scope: claims.scope };
  }
  const principal = await resolveApiKey(q, credential);
  if (!principal) return { ok: false, status: 401, error: 'Invalid or revoked API key' };
  return { ok: true, principal, scope: 'write' };
}

/** Which of `keyIds` are revoked, in chunked queries (connections of revoked keys are closed with 4401). */
export async function revokedKeyIds(q: Queryable, keyIds: Iterable<string>): Promise<Set<string>> {
  const revoked = new Set<string>();
  const ids = [...keyIds];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await q.all<{ id: string }>(
      `SELECT id FROM api_keys WHERE revoked_at IS NOT NULL AND id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const r of rows) revoked.add(r.id);
  }
  return revoked;
}
