/**
 * Organizations and API keys. A key is shown once at creation; only its SHA-256 hash is stored,
 * plus a short prefix so people can tell their keys apart in listings.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
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

export function resolveApiKey(db: DB, apiKey: string): Principal | undefined {
  const row = db
    .prepare(
      `SELECT k.id AS keyId, o.id AS orgId, o.name AS orgName, o.tier AS tier
         FROM api_keys k JOIN organizations o ON o.id = k.org_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    )
    .get(hashKey(apiKey)) as Principal | undefined;
  return row;
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
