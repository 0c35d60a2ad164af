/**
 * Organizations and API keys. A key is shown once at creation; only its SHA-256 hash is stored,
 * plus a short prefix so people can tell their keys apart in listings.
 */
import crypto, { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import { changeWatch, noteChange, type ChangeWatch } from './changes.ts';

export const TIERS = ['developer', 'scale', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * What a key may do: `admin` also manages the organization's keys (docs/keys.md); `member`, the
 * default, everything else.
 */
export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

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
  role: Role;
}

const KEY_PREFIX = 'sk_study_';

/** Node's one-shot hash (20.12+): no Hash object per call, a third of createHash's time. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** Runs on every request (the key cache is by hash). */
export function hashKey(apiKey: string): string {
  return oneShotHash ? oneShotHash('sha256', apiKey, 'hex') : createHash('sha256').update(apiKey).digest('hex');
}

export async function createOrganization(q: Queryable, name: string, tier: Tier = 'developer'): Promise<Organization> {
  const org: Organization = { id: randomUUID(), name, tier, created_at: nowIso() };
  await q.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [org.id, org.name, org.tier, org.created_at]);
  return org;
}

export function getOrganization(q: Queryable, orgId: string): Promise<Organization | undefined> {
  return q.get<Organization>('SELECT id, name, tier, created_at FROM organizations WHERE id = ? LIMIT 1', [orgId]);
}

export interface CreatedApiKey {
  key_id: string;
  /** The secret: returned here once, never stored (only its hash). */
  api_key: string;
  name: string | null;
  role: Role;
  created_at: string;
}

export async function createApiKey(q: Queryable, orgId: string, name?: string, role: Role = 'member'): Promise<CreatedApiKey> {
  if (!(await getOrganization(q, orgId))) throw new Error(`no organization with id ${orgId}`);
  const apiKey = KEY_PREFIX + randomBytes(24).toString('base64url');
  const key = { key_id: randomUUID(), api_key: apiKey, name: name ?? null, role, created_at: nowIso() };
  await q.run('INSERT INTO api_keys (id, org_id, name, key_hash, prefix, role, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    key.key_id,
    orgId,
    key.name,
    hashKey(apiKey),
    apiKey.slice(0, KEY_PREFIX.length + 4),
    role,
    key.created_at,
  ]);
  return key;
}

/**
 * Key resolution runs on every request, so principals are cached per store. The cache is dropped
 * when this process revokes a key or changes a tier (at commit), and when the store's change
 * counter moved (changes.ts: another process or instance did), which is read at most every
 * CHANGE_CHECK_MS: a revocation made elsewhere is refused from 20 ms after it committed.
 */
interface KeyCache {
  watch: ChangeWatch;
  seenVersion: number;
  seenLocal: number;
  /** Bumped on every clear, so that a lookup that started before a clear is not cached after it. */
  generation: number;
  principals: Map<string, Principal>;
}
const keyCaches = new WeakMap<Queryable, KeyCache>();
const MAX_CACHED_KEYS = 10_000;
/** Changes made by this process: every cache of the process drops its principals when it moves. */
let localChanges = 0;

const LOOKUP = `SELECT k.id AS "keyId", o.id AS "orgId", o.name AS "orgName", o.tier AS tier, k.role AS role
  FROM api_keys k JOIN organizations o ON o.id = k.org_id
 WHERE k.key_hash = ? AND k.revoked_at IS NULL LIMIT 1`;

function keyCache(q: Queryable): KeyCache {
  let c = keyCaches.get(q);
  if (!c) keyCaches.set(q, (c = { watch: changeWatch(q), seenVersion: -1, seenLocal: localChanges, generation: 0, principals: new Map() }));
  return c;
}

/** Forgets every cached principal of this process, after it changed keys or organizations. */
export function forgetCachedKeys(_q?: Queryable): void {
  localChanges++;
}

export async function resolveApiKey(q: Queryable, apiKey: string): Promise<Principal | undefined> {
  return resolveApiKeyNow(q, apiKey);
}

/**
 * `resolveApiKey` answering synchronously from the cache when it can: the /v1 middleware's hot
 * path, where every await costs.
 */
export function resolveApiKeyNow(q: Queryable, apiKey: string): Principal | Promise<Principal | undefined> {
  const c = keyCache(q);
  const v = c.watch.current();
  return typeof v === 'number' ? fromCache(q, c, v, apiKey) : v.then((version) => fromCache(q, c, version, apiKey));
}

function fromCache(q: Queryable, c: KeyCache, version: number, apiKey: string): Principal | Promise<Principal | undefined> {
  if (version !== c.seenVersion || localChanges !== c.seenLocal) {
    c.principals.clear();
    c.generation++;
    c.seenVersion = version;
    c.seenLocal = localChanges;
  }
  const hash = hashKey(apiKey);
  return c.principals.get(hash) ?? lookUp(q, c, hash);
}

async function lookUp(q: Queryable, c: KeyCache, hash: string): Promise<Principal | undefined> {
  const generation = c.generation;
  const principal = await q.get<Principal>(LOOKUP, [hash]);
  if (principal && generation === c.generation && localChanges === c.seenLocal) {
    if (c.principals.size >= MAX_CACHED_KEYS) c.principals.clear();
    c.principals.set(hash, principal);
  }
  return principal;
}

export async function countOrganizations(q: Queryable): Promise<number> {
  return (await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations'))!.n;
}

/**
 * First start on an empty database: one Developer organization and one key, so `npm start` alone
 * gives a usable service. Returns the key only when it was created now. Immediate: instances
 * starting together on one database create one organization between them.
 */
export function bootstrapIfEmpty(q: Queryable): Promise<{ org: Organization; key_id: string; api_key: string } | undefined> {
  return q.transaction(
    async (tx) => {
      if ((await countOrganizations(tx)) > 0) return undefined;
      const org = await createOrganization(tx, 'Default organization', 'developer');
      // The first key manages the organization's keys (docs/keys.md).
      const key = await createApiKey(tx, org.id, 'bootstrap', 'admin');
      return { org, key_id: key.key_id, api_key: key.api_key };
    },
    { immediate: true },
  );
}

export function listOrganizations(q: Queryable): Promise<Organization[]> {
  return q.all<Organization>('SELECT id, name, tier, created_at FROM organizations ORDER BY created_at, id');
}

/** Returns false when there is no such organization. Takes effect on the next request. */
export function setOrganizationTier(q: Queryable, orgId: string, tier: Tier): Promise<boolean> {
  return q.transaction(async (tx) => {
    const changed = (await tx.run('UPDATE organizations SET tier = ? WHERE id = ?', [tier, orgId])).changes === 1;
    await noteChange(tx);
    tx.afterCommit(() => forgetCachedKeys());
    return changed;
  });
}

export interface ApiKeyInfo {
  key_id: string;
  name: string | null;
  prefix: string;
  role: Role;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const API_KEY_COLUMNS = 'id AS key_id, name, prefix, role, created_at, last_used_at, revoked_at';

/** An organization's keys without secrets (only the hash is stored anyway). */
export function listApiKeys(q: Queryable, orgId: string): Promise<ApiKeyInfo[]> {
  return q.all<ApiKeyInfo>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE org_id = ? ORDER BY created_at, id`, [orgId]);
}

/**
 * Revokes a key at once: this process forgets its cached principals at commit, other processes
 * within CHANGE_CHECK_MS. Revoking a revoked key keeps its first revocation time. Undefined when
 * there is no such key.
 */
export function revokeApiKey(q: Queryable, keyId: string): Promise<(ApiKeyInfo & { org_id: string }) | undefined> {
  return q.transaction(async (tx) => {
    if ((await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [nowIso(), keyId])).changes > 0) {
      await noteChange(tx);
      tx.afterCommit(() => forgetCachedKeys());
    }
    return tx.get<ApiKeyInfo & { org_id: string }>(
      `SELECT ${API_KEY_COLUMNS}, org_id FROM api_keys WHERE id = ? LIMIT 1`,
      [keyId],
    );
  });
}
