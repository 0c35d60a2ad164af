/**
 * Who may open a realtime connection. Scripts send their API key (`Authorization: Bearer`, or
 * `?token=<key>`); browsers, which cannot set headers, send a short-lived editor token minted by
 * `POST /v1/journals/editor/session`. Editor tokens are stateless: HMAC-SHA256 over the journal
 * id, the key id and the expiry, with a secret kept in DATA_DIR. Every token check also checks the
 * key, so revoking a key invalidates its tokens at once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { resolveApiKey, type Principal } from '../auth/keys.ts';
import type { DB } from '../storage/db.ts';

const TOKEN_PREFIX = 'et1.';
const SECRET_FILE = 'editor-token.secret';

/** Reads the signing secret from DATA_DIR, creating it (mode 0600) on first start. */
export function loadTokenSecret(dataDir: string, configured?: string): Buffer {
  // Several instances behind one load balancer must share it: EDITOR_TOKEN_SECRET, else a file.
  if (configured !== undefined) return Buffer.from(configured, 'hex');
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  if (secret.length < 32) throw new Error(`${file} is damaged: delete it to make a new one (open editor tokens become invalid)`);
  return secret;
}

export interface EditorTokenClaims {
  journalId: string;
  keyId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export class EditorTokens {
  constructor(
    private readonly secret: Buffer,
    readonly ttlSeconds: number,
  ) {}

  mint(journalId: string, keyId: string, now = Date.now()): { token: string; expiresAt: Date } {
    const exp = Math.floor(now / 1000) + this.ttlSeconds;
    const body = Buffer.from(JSON.stringify({ j: journalId, k: keyId, e: exp })).toString('base64url');
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
    let claims: { j?: unknown; k?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { error: 'Invalid editor token' };
    }
    if (typeof claims.j !== 'string' || typeof claims.k !== 'string' || typeof claims.e !== 'number') {
      return { error: 'Invalid editor token' };
    }
    if (claims.e * 1000 <= now) return { error: 'Editor token expired: mint a new one' };
    return { journalId: claims.j, keyId: claims.k, exp: claims.e };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(TOKEN_PREFIX).update(body).digest('base64url');
  }
}

export function isEditorToken(credential: string): boolean {
  return credential.startsWith(TOKEN_PREFIX);
}

/** The principal of a key id that exists and is not revoked. */
export function resolveKeyId(db: DB, keyId: string): Principal | undefined {
  return db
    .prepare(
      `SELECT k.id AS keyId, o.id AS orgId, o.name AS orgName, o.tier AS tier
         FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE k.id = ? AND k.revoked_at IS NULL`,
    )
    .get(keyId) as Principal | undefined;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; status: 401 | 404; error: string };

/**
 * Authenticates an upgrade request for `journalId`: a bearer header wins over `?token=`. An editor
 * token is valid only for the journal it was minted for.
 */
export function authenticateUpgrade(
  db: DB,
  tokens: EditorTokens,
  journalId: string,
  bearer: string | undefined,
  queryToken: string | undefined,
): AuthResult {
  const credential = bearer ?? queryToken;
  if (!credential) {
    return { ok: false, status: 401, error: 'Missing credentials: send Authorization: Bearer <key> or ?token=<editor token>' };
  }
  if (isEditorToken(credential)) {
    const claims = tokens.verify(credential);
    if ('error' in claims) return { ok: false, status: 401, error: claims.error };
    if (claims.journalId !== journalId) return { ok: false, status: 401, error: 'Editor token is for another journal' };
    const principal = resolveKeyId(db, claims.keyId);
    if (!principal) return { ok: false, status: 401, error: 'Invalid or revoked API key' };
    return { ok: true, principal };
  }
  const principal = resolveApiKey(db, credential);
  if (!principal) return { ok: false, status: 401, error: 'Invalid or revoked API key' };
  return { ok: true, principal };
}
