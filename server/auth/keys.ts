/**
 * Organizations and API keys. A key is shown once at creation; only its SHA-256 hash is stored,
 * plus a short prefix so people can tell their keys apart in listings.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';

export const TIERS = ['developer', 'scale', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface Organization {
  id: string;
  name: string;
  tier: Tier;
  created_at: string;
}

/** Who is calling: resolved from a bearer key on every /v1 request. */
export interface Principal {
  keyId: string;
  orgId: string;
  orgName: string;
  tier: Tier;
}

const KEY_PREFIX = 'sk_study_';

export function hashKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function createOrganization(db: DB, name: string, tier: Tier = 'developer'): Organization {
  const org: Organization = { id: randomUUID(), name, tier, created_at: nowIso() };
  db.prepare('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)').run(
    org.id,
    org.name,
    org.tier,
    org.created_at,
  );
  return org;
}

export function getOrganization(db: DB, orgId: string): Organization | undefined {
  return db.prepare('SELECT id, name, tier, created_at FROM organizations WHERE id = ?').get(orgId) as
    | Organization
    | undefined;
}

export function createApiKey(db: DB, orgId: string, name?: string): { key_id: string; api_key: string } {
  if (!getOrganization(db, orgId)) throw new Error(`no organization with id ${orgId}`);
  const apiKey = KEY_PREFIX + randomBytes(24).toString('base64url');
  const keyId = randomUUID();
  db.prepare(
    'INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(keyId, orgId, name ?? null, hashKey(apiKey), apiKey.slice(0, KEY_PREFIX.length + 4), nowIso());
  return { key_id: keyId, api_key: apiKey };
}

/**
 * Key resolution runs on every request, so principals are cached per database. The cache is
 * dropped whenever another connection (the admin command line) has written to the database —
 * SQLite's data_version tells, for about a microsecond — and by this process's own revocations
 * and tier changes below, so a revoked key is refused from its very next request.
 */
interface KeyCache {
  lookup: Statement;
  dataVersion: Statement;
  seenVersion: number;
  principals: Map<string, Principal>;
}
const keyCaches = new WeakMap<DB, KeyCache>();
const MAX_CACHED_KEYS = 10_000;

function keyCache(db: DB): KeyCache {
  let c = keyCaches.get(db);
  if (!c) {
    c = {
      lookup: db.prepare(
        `SELECT k.id AS keyId, o.id AS orgId, o.name AS orgName, o.tier AS tier
           FROM api_keys k JOIN organizations o ON o.id = k.org_id
          WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
      ),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      seenVersion: -1,
      principals: new Map(),
    };
    keyCaches.set(db, c);
  }
  return c;
}

/** Forgets cached principals, after this process changed keys or organizations. */
export function forgetCachedKeys(db: DB): void {
  keyCaches.get(db)?.principals.clear();
}

export function resolveApiKey(db: DB, apiKey: string): Principal | undefined {
  const c = keyCache(db);
  const version = c.dataVersion.get() as number;
  if (version !== c.seenVersion) {
    c.principals.clear();
    c.seenVersion = version;
  }
  const hash = hashKey(apiKey);
  const hit = c.principals.get(hash);
  if (hit) return hit;
  const principal = c.lookup.get(hash) as Principal | undefined;
  if (principal) {
    if (c.principals.size >= MAX_CACHED_KEYS) c.principals.clear();
    c.principals.set(hash, principal);
  }
  return principal;
}

export function countOrganizations(db: DB): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM organizations').get() as { n: number }).n;
}

/**
 * First start on an empty database: one Developer organization and one key, so `npm start` alone
 * gives a usable service. Returns the key only when it was created now.
 */
export function bootstrapIfEmpty(db: DB): { org: Organization; key_id: string; api_key: string } | undefined {
  const run = db.transaction(() => {
    if (countOrganizations(db) > 0) return undefined;
    const org = createOrganization(db, 'Default organization', 'developer');
    return { org, ...createApiKey(db, org.id, 'bootstrap') };
  });
  return run.immediate();
}

export function listOrganizations(db: DB): Organization[] {
  return db.prepare('SELECT id, name, tier, created_at FROM organizations ORDER BY created_at, id').all() as Organization[];
}

/** Returns false when there is no such organization. Takes effect on the next request. */
export function setOrganizationTier(db: DB, orgId: string, tier: Tier): boolean {
  const changed = db.prepare('UPDATE organizations SET tier = ? WHERE id = ?').run(tier, orgId).changes === 1;
  forgetCachedKeys(db);
  return changed;
}

export interface ApiKeyInfo {
  key_id: string;
  name: string | null;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** An organization's keys without secrets (only the hash is stored anyway). */
export function listApiKeys(db: DB, orgId: string): ApiKeyInfo[] {
  return db
    .prepare('SELECT id AS key_id, name, prefix, created_at, revoked_at FROM api_keys WHERE org_id = ? ORDER BY created_at, id')
    .all(orgId) as ApiKeyInfo[];
}

/**
 * Revokes a key at once: REST authentication reads revoked_at on every request. Revoking a
 * revoked key keeps its first revocation time. Undefined when there is no such key.
 */
export function revokeApiKey(db: DB, keyId: string): (ApiKeyInfo & { org_id: string }) | undefined {
  db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(nowIso(), keyId);
  forgetCachedKeys(db);
  return db
    .prepare('SELECT id AS key_id, org_id, name, prefix, created_at, revoked_at FROM api_keys WHERE id = ?')
    .get(keyId) as (ApiKeyInfo & { org_id: string }) | undefined;
}
